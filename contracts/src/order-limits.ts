// Limits a shop puts on public (WhatsApp) orders (issue 26, 'Fairness and abuse'): units per line
// and per order, how long an unconfirmed order holds its stock, and phone numbers it does not take
// orders from. Set in Configuración (PUT /api/store/settings); ordering enforces them at checkout.
// Zod-free: the settings page and the shop read these too.

/** What a store that never changed them gets: sized for a small shop. */
export const ORDER_LIMITS_DEFAULTS = {
  /** Units of one product in one public order. */
  orderMaxUnitsPerLine: 20,
  /** Units in all of one public order. */
  orderMaxUnitsPerOrder: 60,
  /** Hours an unconfirmed WhatsApp order holds its stock before it is cancelled. */
  orderHoldHours: 6,
} as const;

export const ORDER_LIMIT_BOUNDS = {
  orderMaxUnitsPerLine: { min: 1, max: 10_000 },
  orderMaxUnitsPerOrder: { min: 1, max: 100_000 },
  orderHoldHours: { min: 1, max: 48 },
  /** Blocked phone numbers one store may keep. */
  blockedPhones: 500,
} as const;

/**
 * The key a phone number is compared by: its digits, without Guatemala's 502 country code when
 * the rest is a local 8-digit number ('+502 5555-1234' and '55551234' are one phone). Null when it
 * has fewer than 7 digits.
 */
export function phoneKey(phone: string): string | null {
  let digits = phone.replace(/\D/g, '');
  if (digits.length === 11 && digits.startsWith('502')) digits = digits.slice(3);
  return digits.length >= 7 && digits.length <= 15 ? digits : null;
}

/** Spanish messages of the order limits (shop, settings page and orders page). */
export const OrderLimitMessages = {
  unitsPerLine: (max: number, name: string) => `Puedes pedir hasta ${max} unidades de «${name}» en un pedido.`,
  unitsPerOrder: (max: number) => `Un pedido puede tener hasta ${max} unidades en total. Si necesitas más, comunícate con la tienda.`,
  tooManyPending: (max: number) =>
    `Ya tienes ${max === 1 ? 'un pedido pendiente' : `${max} pedidos pendientes`} en esta tienda. Espera a que la tienda ${max === 1 ? 'lo confirme' : 'los confirme'} antes de hacer otro.`,
  phoneRateLimited: 'Hiciste muchos pedidos seguidos con este teléfono. Espera unos minutos e inténtalo de nuevo.',
  addressRateLimited: 'Se hicieron muchos pedidos seguidos desde tu conexión. Espera unos minutos e inténtalo de nuevo.',
  phoneBlocked: 'Esta tienda no recibe pedidos en línea de este número de teléfono. Comunícate directamente con la tienda.',
  unitsPerLineInvalid: `El máximo de unidades por producto debe ser un número entero entre ${ORDER_LIMIT_BOUNDS.orderMaxUnitsPerLine.min} y ${ORDER_LIMIT_BOUNDS.orderMaxUnitsPerLine.max}.`,
  unitsPerOrderInvalid: `El máximo de unidades por pedido debe ser un número entero entre ${ORDER_LIMIT_BOUNDS.orderMaxUnitsPerOrder.min} y ${ORDER_LIMIT_BOUNDS.orderMaxUnitsPerOrder.max}.`,
  holdHoursInvalid: `Las horas de reserva deben ser un número entero entre ${ORDER_LIMIT_BOUNDS.orderHoldHours.min} y ${ORDER_LIMIT_BOUNDS.orderHoldHours.max}.`,
  blockedPhoneInvalid: (phone: string) => `«${phone}» no es un número de teléfono válido.`,
  blockedPhonesTooMany: `Puedes bloquear hasta ${ORDER_LIMIT_BOUNDS.blockedPhones} números.`,
  bulkCancelInvalid: 'Selecciona entre 1 y 100 pedidos para cancelar.',
  bulkCancelNote: 'Cancelado por la tienda (cancelación en grupo)',
} as const;
