import { formatQuetzales } from '@tiendita/contracts';

/** es-GT formatting for the whole client: money in quetzales (Q, GTQ) and dates in Guatemala's time zone. */
export const LOCALE = 'es-GT';
export const TIME_ZONE = 'America/Guatemala';

// Each formatter is built on its first use, not as the module loads: building an Intl formatter costs
// milliseconds on a phone, and every screen's first render reaches this module.
function lazy<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}
const integer = lazy(() => new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 0 }));
const date = lazy(() => new Intl.DateTimeFormat(LOCALE, { timeZone: TIME_ZONE, day: '2-digit', month: '2-digit', year: 'numeric' }));
const longDate = lazy(() => new Intl.DateTimeFormat(LOCALE, { timeZone: TIME_ZONE, weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }));
const dateTime = lazy(() => new Intl.DateTimeFormat(LOCALE, { timeZone: TIME_ZONE, day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' }));

/** Quetzales (a number with up to 2 decimals), e.g. Q1,234.50; the one formatter is contracts' formatQuetzales. */
export const formatMoney = formatQuetzales;

/** A count with es-GT grouping, e.g. 1,250. */
export function formatCount(n: number): string {
  return integer().format(n);
}

type DateInput = string | number | Date;

/** dd/mm/aaaa in America/Guatemala. */
export function formatDate(value: DateInput): string {
  return date().format(new Date(value));
}

/** e.g. "lunes, 5 de mayo de 2025" in America/Guatemala. */
export function formatLongDate(value: DateInput): string {
  return longDate().format(new Date(value));
}

/** dd/mm/aaaa hh:mm in America/Guatemala. */
export function formatDateTime(value: DateInput): string {
  return dateTime().format(new Date(value));
}
