/** Money is integer centavos in events and domain; the HTTP API shows quetzales with 2 decimals. */
export type Centavos = number;

/** Quetzales (number or decimal string) to integer centavos, rounded once. */
export function toCentavos(quetzales: number | string): Centavos {
  const n = typeof quetzales === 'string' ? Number(quetzales) : quetzales;
  return Math.round(n * 100);
}

/** Integer centavos to quetzales as a number with at most 2 decimals. */
export function toQuetzales(centavos: Centavos): number {
  return Math.round(centavos) / 100;
}

/** Final price = price × (1 − discount/100), in centavos, rounded once. */
export function finalPriceCentavos(priceCentavos: Centavos, discountPercentage: number): Centavos {
  return Math.round((priceCentavos * (100 - discountPercentage)) / 100);
}

/**
 * `value` with at most `digits` decimals as es-GT's Intl writes it, without Intl: ICU rounds the
 * number's shortest decimal form half away from zero (1.005 → 1.01, which toFixed makes 1.00) and
 * groups the integer part by three with commas. Null where ICU writes something else (not finite,
 * exponent form). Building the first Intl formatter of a page loads the locale's data (some 30 ms,
 * four times that on a phone) in the middle of the shop's first render; these helpers skip it.
 */
function esGtDecimal(value: number, digits: number, keepZeros: boolean): string | null {
  const shortest = String(Math.abs(value));
  if (!/^\d+(\.\d+)?$/.test(shortest)) return null;
  const [whole, fraction = ''] = shortest.split('.');
  let int = whole;
  let frac = fraction.slice(0, digits);
  if (fraction.length > digits && fraction.charCodeAt(digits) >= 53 /* '5' */) {
    const rounded = (BigInt(int + frac.padEnd(digits, '0')) + 1n).toString().padStart(int.length + digits, '0');
    int = rounded.slice(0, rounded.length - digits);
    frac = rounded.slice(rounded.length - digits);
  }
  frac = keepZeros ? frac.padEnd(digits, '0') : frac.replace(/0+$/, '');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return frac ? `${grouped}.${frac}` : grouped;
}

let quetzalesFormat: Intl.NumberFormat | undefined;

/** es-GT currency formatting, exactly as Intl.NumberFormat('es-GT', GTQ) writes it, e.g. Q 1,234.50 (a no-break space). */
export function formatQuetzales(quetzales: number): string {
  const digits = esGtDecimal(quetzales, 2, true);
  if (digits !== null) return `${quetzales < 0 || Object.is(quetzales, -0) ? '-' : ''}Q\u00a0${digits}`;
  quetzalesFormat ??= new Intl.NumberFormat('es-GT', { style: 'currency', currency: 'GTQ' });
  return quetzalesFormat.format(quetzales);
}

/** A number with at most `maxFractionDigits` decimals as es-GT writes it (toLocaleString('es-GT', { maximumFractionDigits })), e.g. 12.5, 1,250. */
export function formatDecimal(value: number, maxFractionDigits: number): string {
  const digits = esGtDecimal(value, maxFractionDigits, false);
  if (digits === null) return value.toLocaleString('es-GT', { maximumFractionDigits: maxFractionDigits });
  return `${value < 0 || Object.is(value, -0) ? '-' : ''}${digits}`;
}

/**
 * Centavos as messages and receipts write them: Q1,234.50 (es-GT's grouping, no space after Q).
 * Written out rather than with toLocaleString, which cost ICU work on every line of every order.
 */
export function quetzalesText(centavos: Centavos): string {
  const sign = centavos < 0 ? '-' : '';
  const abs = Math.abs(Math.round(centavos));
  const whole = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}Q${whole}.${String(abs % 100).padStart(2, '0')}`;
}
