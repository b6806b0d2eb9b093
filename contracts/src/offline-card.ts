// Card sales while the POS is offline (issue 28): the owner chooses in Configuración whether the
// till refuses them or takes them as 'pago con tarjeta pendiente de confirmar'. The terminal's
// charge cannot be checked offline, so such a sale is recorded with its payment pending; the owner
// confirms it later by recording the payment (POST /api/orders/{id}/payments). Zod-free: the POS,
// the settings screen, the orders screens and identity read these.

/** What the POS does with a card sale while offline. */
export const OFFLINE_CARD_PAYMENT_OPTIONS = ['refuse', 'pending'] as const;
export type OfflineCardPayments = (typeof OFFLINE_CARD_PAYMENT_OPTIONS)[number];

/** A store that never chose: card sales offline are refused (nothing is owed that nobody checked). */
export const OFFLINE_CARD_PAYMENTS_DEFAULT: OfflineCardPayments = 'refuse';

export const OfflineCardMessages = {
  invalid: 'Elige si las ventas con tarjeta sin conexión se rechazan o quedan pendientes de confirmar.',
  /** The POS, offline, when the owner chose 'refuse'. */
  refused: 'Sin conexión: no se puede cobrar con tarjeta. Cobra en efectivo o espera a que vuelva la conexión.',
  /** The label of such a sale: receipt, queue, orders list and detail. */
  pendingLabel: 'Pago con tarjeta pendiente de confirmar',
  /** What the owner does with such an order (its detail). */
  pendingHelp: 'Vendida sin conexión con tarjeta: revisa el cobro en tu terminal y confírmalo con «Confirmar pago con tarjeta».',
} as const;

/** The settings screen's choices. */
export const OFFLINE_CARD_PAYMENT_LABELS: Record<OfflineCardPayments, string> = {
  refuse: 'Rechazar las ventas con tarjeta',
  pending: 'Aceptarlas como pago con tarjeta pendiente de confirmar',
};

/**
 * Whether an order is a POS card sale whose payment waits for the owner's confirmation: sold offline
 * by card (an online POS sale is paid at once) and nothing paid yet.
 */
export function isCardPendingConfirmation(order: { orderType: string; paymentMethod: string | null; paymentStatus: string }): boolean {
  return order.orderType === 'pos' && order.paymentMethod === 'card' && order.paymentStatus === 'pending';
}

/** Whether an offline sale charged a price other than the catalogue's then (a line keeps `listPrice`). */
export function usedOldPrice(order: { items: readonly { listPrice?: number }[] }): boolean {
  return order.items.some((i) => i.listPrice !== undefined);
}
