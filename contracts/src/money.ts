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

/** es-GT currency formatting, e.g. Q1,234.50. */
export function formatQuetzales(quetzales: number): string {
  return new Intl.NumberFormat('es-GT', { style: 'currency', currency: 'GTQ' }).format(quetzales);
}
