import { InventoryMessages } from '@tiendita/contracts';
import { ValidationError } from '@tiendita/eventsourcing';

/** Highest page a list or ledger serves: far past any store, and small enough that page × size stays an exact integer. */
const MAX_PAGE = 1_000_000;
const WHOLE = /^\d{1,7}$/;

/** A 400 naming the field, with the Spanish message. */
export const refuse = (field: string, message: string): never => {
  throw new ValidationError(message, { fields: { [field]: message } });
};

/** Page and size as given (whole numbers, page 1 to MAX_PAGE, size 1 to `max`), else 400 in Spanish; neither: the first 1000 rows. */
export function paging(q: { page?: string; limit?: string }, max = 200): { paged: boolean; page: number; limit: number } {
  const paged = q.page !== undefined || q.limit !== undefined;
  const given = (v: string | undefined) => (v === undefined || v === '' ? undefined : typeof v === 'string' && WHOLE.test(v) ? Number(v) : Number.NaN);
  const page = given(q.page) ?? 1;
  const limit = given(q.limit) ?? 50;
  if (!(page >= 1 && page <= MAX_PAGE)) refuse('page', InventoryMessages.invalidPage);
  if (!(limit >= 1 && limit <= max)) refuse('limit', InventoryMessages.invalidPageSize(max));
  return { paged, page, limit: paged ? limit : 1000 };
}
