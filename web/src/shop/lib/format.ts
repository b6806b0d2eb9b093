import { formatQuetzales } from './contracts';

/** Quetzales as es-GT shows them, e.g. Q1,234.50 (the one formatter is contracts' formatQuetzales). */
export const formatMoney = formatQuetzales;

let date: Intl.DateTimeFormat | undefined;

/** e.g. "5 may 2025" in America/Guatemala. */
export function formatShortDate(value: string): string {
  // Made on first use, not when the shop loads: a formatter with a time zone loads the zone data,
  // a few hundred milliseconds of a phone's processor that the first screen does not need.
  date ??= new Intl.DateTimeFormat('es-GT', { timeZone: 'America/Guatemala', day: 'numeric', month: 'short', year: 'numeric' });
  return date.format(new Date(value));
}
