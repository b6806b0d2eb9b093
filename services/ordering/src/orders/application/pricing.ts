import { finalPriceCentavos, type OrderLine, vatContained } from '@tiendita/contracts';

// The default rate, the message and its link have one home in contracts (the browser builds the same ones).
export { DEFAULT_TAX_RATE, quetzalesText, whatsappLink as whatsappUrl, whatsappOrderMessage as whatsappMessage } from '@tiendita/contracts';

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
  const tax = vatContained(total, taxRate);
  return { subtotal: total - tax, tax, total };
}

/** Unambiguous alphabet for codes read out over the phone (no 0/O, 1/I/L). */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

export function newOrderCode(random: (n: number) => Buffer): string {
  const bytes = random(6);
  let code = '';
  for (const b of bytes) code += CODE_ALPHABET[b % CODE_ALPHABET.length];
  return code;
}
