import { OFFLINE_CLOCK_SKEW_MS, OFFLINE_MAX_AGE_MS, type OfflineSale, OfflineSaleMessages, offlineSaleNote, type OrderLine, type PosOrderRequest, toCentavos } from '@tiendita/contracts';
import { ValidationError } from '@tiendita/eventsourcing';
import type { CheckoutInput } from './checkout';

type OfflineInput = NonNullable<CheckoutInput['offline']>;

const invalid = (message: string, field: string): ValidationError => new ValidationError(message, { fields: { [field]: message } });

/**
 * The checkout's view of an offline sale (issue 28): when it was sold (not ahead of the server's
 * clock by more than the skew, nor older than 30 days) and the prices shown on the device, centavos,
 * each for a product of the sale.
 */
export function offlineInput(o: OfflineSale, items: PosOrderRequest['items'], now = Date.now()): OfflineInput {
  const soldAt = Date.parse(o.soldAt);
  if (soldAt > now + OFFLINE_CLOCK_SKEW_MS) throw invalid(OfflineSaleMessages.soldAtFuture, 'offline.soldAt');
  if (soldAt < now - OFFLINE_MAX_AGE_MS) throw invalid(OfflineSaleMessages.soldAtTooOld, 'offline.soldAt');
  const inSale = new Set(items.map((i) => i.productId));
  const shownPrices = new Map<string, number>();
  for (const p of o.shownPrices ?? []) {
    if (!inSale.has(p.productId)) throw invalid(OfflineSaleMessages.shownPriceUnknown, 'offline.shownPrices');
    shownPrices.set(p.productId, toCentavos(p.unitPrice));
  }
  return { deviceSaleId: o.deviceSaleId, localNumber: o.localNumber, soldAt: new Date(soldAt).toISOString(), shownPrices };
}

/** The order's notes: the offline line first (its local number, the products sold at an old price), then the cashier's notes. */
export function offlineNotes(o: Pick<OfflineInput, 'localNumber'>, notes: string | null, lines: readonly OrderLine[]): string {
  const line = offlineSaleNote(o.localNumber, lines.filter((l) => l.listPrice !== undefined).map((l) => l.productName));
  return notes ? `${line}\n${notes}` : line;
}
