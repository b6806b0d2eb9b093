// The IVA and the default tax rate (issue 24: one home). zod-free: the receipt in the browser, the
// ordering service's totals and the FEL invoice compute the tax of a total with the same function.

/** Guatemala's IVA (régimen general), the rate of a store until its owner chooses another regime (spec §9). */
export const DEFAULT_TAX_RATE = 0.12;

/** The Pequeño Contribuyente regime's rate. */
export const SMALL_TAXPAYER_TAX_RATE = 0.05;

/**
 * The tax contained in a total whose prices include it, in integer centavos, rounded once to the
 * centavo: total − total / (1 + rate). Q112.00 at 12% contains Q12.00; the net amount is the total
 * minus this.
 */
export function vatContained(totalCentavos: number, rate: number = DEFAULT_TAX_RATE): number {
  return Math.round(totalCentavos - totalCentavos / (1 + rate));
}
