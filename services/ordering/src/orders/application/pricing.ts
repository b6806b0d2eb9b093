import { finalPriceCentavos, type OrderLine } from '@tiendita/contracts';

/** Default IVA of Guatemala (spec §9) when the store's settings have not reached ordering. */
export const DEFAULT_TAX_RATE = 0.12;

export interface ProductRow {
  id: string;
  store_id: string;
  name: string;
  sku: string | null;
  price_centavos: string | number;
  discount_percentage: string | number;
  is_active: boolean;
}

/** A line as charged: the discounted price the shop shows, from ordering's copy of the catalog. */
export function priceLine(product: ProductRow, quantity: number): OrderLine {
  const unitPrice = finalPriceCentavos(Number(product.price_centavos), Number(product.discount_percentage));
  return { productId: product.id, productName: product.name, sku: product.sku, quantity, unitPrice, lineTotal: unitPrice * quantity };
}

/** Prices include IVA: tax is the IVA contained in the total, rounded once; subtotal = total − tax. */
export function totals(lines: readonly OrderLine[], taxRate: number): { subtotal: number; tax: number; total: number } {
  const total = lines.reduce((sum, l) => sum + l.lineTotal, 0);
  const tax = Math.round(total - total / (1 + taxRate));
  return { subtotal: total - tax, tax, total };
}

/**
 * Centavos as the shop writes them in messages and receipts: Q1,234.50 (es-GT's grouping, no space
 * after Q). Written out rather than with toLocaleString, which cost ICU work on every line of every order.
 */
export function quetzalesText(centavos: number): string {
  const sign = centavos < 0 ? '-' : '';
  const abs = Math.abs(Math.round(centavos));
  const whole = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}Q${whole}.${String(abs % 100).padStart(2, '0')}`;
}
const q = quetzalesText;

export interface MessageInput {
  code: string;
  lines: readonly OrderLine[];
  total: number;
  name: string;
  phone: string;
  address: string | null;
  notes: string | null;
}

/** The itemised WhatsApp message of a public order (Spanish). */
export function whatsappMessage(m: MessageInput): string {
  const rows = [
    '¡Hola! Quiero hacer un pedido.',
    `Pedido: ${m.code}`,
    '',
    ...m.lines.map((l) => `• ${l.quantity} x ${l.productName} (${q(l.unitPrice)} c/u) = ${q(l.lineTotal)}`),
    '',
    `Total: ${q(m.total)}`,
    '',
    `Nombre: ${m.name}`,
    `Teléfono: ${m.phone}`,
  ];
  if (m.address) rows.push(`Dirección: ${m.address}`);
  if (m.notes) rows.push(`Notas: ${m.notes}`);
  return rows.join('\n');
}

/** https://wa.me/<digits>?text=… to the store's number (8 digits get 502 in front), or null without a number. */
export function whatsappUrl(number: string | null | undefined, message: string): string | null {
  const digits = (number ?? '').replace(/\D/g, '');
  if (!digits) return null;
  const full = digits.length === 8 ? `502${digits}` : digits;
  return `https://wa.me/${full}?text=${encodeURIComponent(message)}`;
}

/** Unambiguous alphabet for codes read out over the phone (no 0/O, 1/I/L). */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

export function newOrderCode(random: (n: number) => Buffer): string {
  const bytes = random(6);
  let code = '';
  for (const b of bytes) code += CODE_ALPHABET[b % CODE_ALPHABET.length];
  return code;
}
