import { WhatsAppIcon } from '../components/icons';
import { formatMoney } from '../lib/format';

/** wa.me wants the number as digits only, country code first (502 for Guatemala). */
export function whatsappLink(number: string, message: string): string | null {
  let digits = number.replace(/\D/g, '');
  if (digits.length === 8) digits = `502${digits}`;
  if (digits.length < 8) return null;
  return `https://wa.me/${digits}?text=${encodeURIComponent(message)}`;
}

/** Opens a WhatsApp chat with the store about one product; nothing when the store has no number. */
export function WhatsAppButton({ number, storeName, productName, price, productUrl }: { number: string | null; storeName: string; productName: string; price: number; productUrl: string }) {
  const href = number
    ? whatsappLink(number, `Hola ${storeName}, me interesa el producto "${productName}" (${formatMoney(price)}). ${window.location.origin}${productUrl}`)
    : null;
  if (!href) return null;
  return (
    <a className="shop-button shop-button--whatsapp" href={href} target="_blank" rel="noopener noreferrer">
      <WhatsAppIcon />
      Consultar por WhatsApp
    </a>
  );
}
