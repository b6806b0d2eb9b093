import { whatsappLink } from '@tiendita/contracts/constants';
import { WhatsAppIcon } from '../components/icons';
import { formatMoney } from '../lib/format';

export { whatsappLink };

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
