import { formatQuetzales } from './contracts';

/** Quetzales as es-GT shows them, e.g. Q1,234.50 (the one formatter is contracts' formatQuetzales). */
export const formatMoney = formatQuetzales;

const date = new Intl.DateTimeFormat('es-GT', { timeZone: 'America/Guatemala', day: 'numeric', month: 'short', year: 'numeric' });

/** e.g. "5 may 2025" in America/Guatemala. */
export function formatShortDate(value: string): string {
  return date.format(new Date(value));
}
