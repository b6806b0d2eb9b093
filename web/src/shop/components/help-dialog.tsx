import type { PublicStoreView } from '../lib/contracts';
import { whatsappLink } from '../product/whatsapp-button';
import { Dialog } from './dialog';
import { WhatsAppIcon } from './icons';

/** The help centre: how buying works here, and how to reach the store. */
export function HelpDialog({ store, open, onClose }: { store: PublicStoreView; open: boolean; onClose: () => void }) {
  const chat = store.whatsappNumber ? whatsappLink(store.whatsappNumber, `Hola ${store.name}, tengo una consulta.`) : null;
  return (
    <Dialog open={open} onClose={onClose} title="Centro de ayuda">
      <div className="shop-help">
        <h3>¿Cómo comprar?</h3>
        <ol>
          <li>Busca tus productos y agrégalos al carrito.</li>
          <li>Revisa las cantidades en tu carrito.</li>
          <li>Escríbenos por WhatsApp para coordinar el pago y la entrega.</li>
        </ol>
        <h3>Contacto</h3>
        <ul>
          {store.phone && (
            <li>
              Teléfono: <a href={`tel:${store.phone.replace(/[^\d+]/g, '')}`}>{store.phone}</a>
            </li>
          )}
          {store.address && <li>Dirección: {store.address}</li>}
          {store.businessHours && <li>Horario: {store.businessHours}</li>}
          {!store.phone && !store.address && !store.businessHours && !chat && <li>Esta tienda aún no ha publicado sus datos de contacto.</li>}
        </ul>
        {chat && (
          <a className="shop-button shop-button--whatsapp" href={chat} target="_blank" rel="noopener noreferrer">
            <WhatsAppIcon />
            Escribir por WhatsApp
          </a>
        )}
      </div>
    </Dialog>
  );
}
