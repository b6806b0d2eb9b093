import { InventoryMessages } from '@tiendita/contracts';

/** Spec 001 §8 texts of this screen. */
export const InventoryTexts = {
  updated: 'Inventario actualizado',
  adjustFailed: InventoryMessages.adjustFailed,
  noHistory: 'No hay historial de ajustes',
  fetchFailed: 'Failed to fetch inventory',
  historyFailed: 'Failed to fetch store history',
  productHistoryFailed: 'Failed to fetch product history',
};

/** Names of the adjustment types, as the owner picks and reads them. */
export const TYPE_LABELS: Record<string, string> = {
  manual: 'Manual',
  correction: 'Corrección',
  restock: 'Reabastecimiento',
  damaged: 'Dañado',
  return: 'Devolución',
};

/** Names of the ledger's kinds of movement. */
export const KIND_LABELS: Record<string, string> = {
  opening: 'Apertura',
  adjustment: 'Ajuste',
  reserved: 'Reservado por pedido',
  released: 'Reserva liberada',
  sold: 'Venta',
};

/** Rows per page of the inventory list and the store's ledger. */
export const PAGE_SIZE = 20;

/** A moment as the ledger shows it, in Guatemala's time. */
export const dateTime = (iso: string) => new Date(iso).toLocaleString('es-GT', { timeZone: 'America/Guatemala', dateStyle: 'short', timeStyle: 'short' });
