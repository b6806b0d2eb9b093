// The wa.me link and the WhatsApp order message (issue 24: one home). zod-free: the ordering service
// writes the message of OrderPlaced with it, the shop's links and the settings preview build theirs
// with it, so the preview shows exactly the text a shopper's order sends.
import { type Centavos, quetzalesText } from './money';

/**
 * A WhatsApp chat link: wa.me wants the number as digits only, country code first (502, Guatemala's,
 * goes before an 8-digit number). Null without a number or with one too short to be one.
 */
export function whatsappLink(number: string | null | undefined, message: string): string | null {
  let digits = (number ?? '').replace(/\D/g, '');
  if (digits.length === 8) digits = `502${digits}`;
  if (digits.length < 8) return null;
  return `https://wa.me/${digits}?text=${encodeURIComponent(message)}`;
}

/** A WhatsApp link without a number: WhatsApp asks which contact (sharing the shop, a receipt to a contact). */
export function whatsappShareLink(message: string): string {
  return `https://wa.me/?text=${encodeURIComponent(message)}`;
}

/** What the order message lists: the order's code, lines and total (centavos) and the shopper's details. */
export interface WhatsappOrderInput {
  code: string;
  lines: readonly { quantity: number; productName: string; unitPrice: Centavos; lineTotal: Centavos }[];
  total: Centavos;
  name: string;
  phone: string;
  address?: string | null;
  notes?: string | null;
}

/** The itemised Spanish message a public order sends to the store's WhatsApp (OrderPlaced's whatsappMessage). */
export function whatsappOrderMessage(m: WhatsappOrderInput): string {
  const rows = [
    '¡Hola! Quiero hacer un pedido.',
    `Pedido: ${m.code}`,
    '',
    ...m.lines.map((l) => `• ${l.quantity} x ${l.productName} (${quetzalesText(l.unitPrice)} c/u) = ${quetzalesText(l.lineTotal)}`),
    '',
    `Total: ${quetzalesText(m.total)}`,
    '',
    `Nombre: ${m.name}`,
    `Teléfono: ${m.phone}`,
  ];
  if (m.address) rows.push(`Dirección: ${m.address}`);
  if (m.notes) rows.push(`Notas: ${m.notes}`);
  return rows.join('\n');
}

/** The sample order the settings screen previews the message with. */
export const WHATSAPP_SAMPLE_ORDER: WhatsappOrderInput = {
  code: 'K7M3QX',
  lines: [
    { quantity: 2, productName: 'Producto de ejemplo', unitPrice: 2500, lineTotal: 5000 },
    { quantity: 1, productName: 'Otro producto', unitPrice: 2550, lineTotal: 2550 },
  ],
  total: 7550,
  name: 'María López',
  phone: '5555 1234',
  address: '4a calle 5-10, zona 1',
  notes: null,
};
