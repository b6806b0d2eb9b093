// FEL contingency (issues 25 and 28): a sale made while the till had no connection is issued in
// contingency. The device gives it SAT's access number (NumeroAcceso) before the receipt shows; the
// DTE is built later, when the sale reaches the server, with that number and the sale's own date.
// Rules and their reasons: docs/decisions/0016-fel.md (contingency).

/** SAT's range for NumeroAcceso (GT_Documento-0.2.1.xsd, DatosGenerales/@NumeroAcceso). */
export const FEL_ACCESS_NUMBER_MIN = 100_000_000;
export const FEL_ACCESS_NUMBER_MAX = 999_999_999;

/**
 * The access number of an offline sale, from the id the device gave it (a random UUID): the device
 * prints it on the receipt and the FEL service puts the same number in the DTE, with nothing else
 * sent between them. The UUID's 122 random bits reduced into SAT's 900,000,000 numbers.
 */
export function felAccessNumber(deviceSaleId: string): number {
  const hex = deviceSaleId.replace(/-/g, '');
  if (!/^[0-9a-f]{32}$/i.test(hex)) throw new Error('El identificador de la venta no es un UUID');
  const span = BigInt(FEL_ACCESS_NUMBER_MAX - FEL_ACCESS_NUMBER_MIN + 1);
  return FEL_ACCESS_NUMBER_MIN + Number(BigInt(`0x${hex}`) % span);
}

/** Business days SAT gives to certify a document issued in contingency (counted from the day after the sale). */
export const FEL_CONTINGENCY_BUSINESS_DAYS = 5;

const GT_OFFSET_MS = 6 * 3600 * 1000; // America/Guatemala is UTC-6 all year (no daylight saving).

/**
 * The end of SAT's contingency window for a sale made at `soldAt`: the last instant (Guatemala time)
 * of the fifth business day (Monday to Friday) after the day of the sale. Public holidays are not
 * taken out, so the window is never longer than SAT's.
 */
export function felContingencyDeadline(soldAt: Date): Date {
  const local = new Date(soldAt.getTime() - GT_OFFSET_MS); // its UTC fields are Guatemala's wall clock
  const day = new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()));
  let left = FEL_CONTINGENCY_BUSINESS_DAYS;
  while (left > 0) {
    day.setUTCDate(day.getUTCDate() + 1);
    const weekday = day.getUTCDay();
    if (weekday !== 0 && weekday !== 6) left--;
  }
  return new Date(day.getTime() + 24 * 3600 * 1000 - 1 + GT_OFFSET_MS);
}

/** What the device's receipt says of an offline sale when FEL is on (before the DTE exists). */
export function felContingencyReceiptLines(accessNumber: number): string[] {
  return [
    'Factura emitida en contingencia',
    `Número de acceso: ${accessNumber}`,
    'Se certificará al volver la conexión (plazo de la SAT: 5 días hábiles).',
  ];
}
