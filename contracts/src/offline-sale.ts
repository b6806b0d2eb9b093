import { z } from 'zod';
import { MAX_AMOUNT_CENTAVOS } from './ordering-events';

// A POS sale made on the device while offline and sent later (issue 28). Sync protocol and
// conflict rules: docs/decisions/0011-offline-pos.md.

export const OfflineSaleMessages = {
  deviceSaleId: 'La venta sin conexión necesita un identificador válido del dispositivo.',
  localNumber: 'El número local de la venta debe tener entre 1 y 30 letras, números o guiones.',
  soldAt: 'La fecha de la venta sin conexión no es válida.',
  soldAtFuture: 'La fecha de la venta sin conexión está en el futuro.',
  soldAtTooOld: 'La venta sin conexión tiene más de 30 días: regístrala como una venta nueva.',
  shownPrice: 'El precio mostrado debe ser un número mayor o igual a 0 con hasta 2 decimales.',
  shownPriceUnknown: 'El precio mostrado corresponde a un producto que no está en la venta.',
} as const;

/** How far a device clock may run ahead of the server's, and how old an offline sale may be. */
export const OFFLINE_CLOCK_SKEW_MS = 10 * 60 * 1000;
export const OFFLINE_MAX_AGE_MS = 30 * 24 * 3600 * 1000;

const shownPrice = z.object({
  productId: z.string({ error: OfflineSaleMessages.shownPriceUnknown }).uuid(OfflineSaleMessages.shownPriceUnknown),
  unitPrice: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
    z
      .number({ error: OfflineSaleMessages.shownPrice })
      .refine((n) => Number.isFinite(n) && n >= 0 && Math.abs(Math.round(n * 100) - n * 100) < 1e-6, OfflineSaleMessages.shownPrice)
      .refine((n) => Math.round(n * 100) <= MAX_AMOUNT_CENTAVOS, OfflineSaleMessages.shownPrice),
  ),
});

/**
 * `offline` of POST /api/orders: the device's id of the sale (its idempotency key: sent twice, one
 * sale), the number printed on the receipt, when it was sold, and the unit prices (quetzales) the
 * device showed. Such a sale is never refused for stock, and keeps the prices shown.
 */
export const OfflineSale = z.object({
  deviceSaleId: z.string({ error: OfflineSaleMessages.deviceSaleId }).uuid(OfflineSaleMessages.deviceSaleId),
  localNumber: z.string({ error: OfflineSaleMessages.localNumber }).regex(/^[A-Za-z0-9-]{1,30}$/, OfflineSaleMessages.localNumber),
  soldAt: z.iso.datetime({ offset: true, error: OfflineSaleMessages.soldAt }),
  shownPrices: z.array(shownPrice).max(100).optional(),
});
export type OfflineSale = z.output<typeof OfflineSale>;

/** The note the owner reads on an order sold offline (the order's notes, first line). */
export function offlineSaleNote(localNumber: string, oldPriceProducts: readonly string[]): string {
  const base = `Venta sin conexión ${localNumber}`;
  return oldPriceProducts.length ? `${base} — precio anterior usado: ${oldPriceProducts.join(', ')}` : base;
}

/** The inventory alert of units sold offline that the stock did not have. */
export function soldWithoutStockMessage(productName: string, missing: number): string {
  return `Vendido sin existencias: ${productName}, faltan ${missing}`;
}
