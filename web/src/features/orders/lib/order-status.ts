import type { OrderStatus } from '@tiendita/contracts';

// The status flow, the Spanish labels and the chip colours live in contracts (order-status.ts); this
// file keeps only what the orders screens add on top: the verb of each next step and the short id.

/** The button text of the one-tap next step from each status (its target is ORDER_NEXT_STATUS). */
export const NEXT_STEP_ACTIONS: Partial<Record<OrderStatus, string>> = {
  pending: 'Confirmar',
  confirmed: 'Preparar',
  preparing: 'Marcar listo',
  ready: 'Enviar',
  out_for_delivery: 'Marcar entregado',
  delivered: 'Completar',
};

/** The last 8 characters of an order id, as the list shows it. */
export function shortId(id: string): string {
  return id.slice(-8);
}
