import type { PublicStoreView } from '../lib/contracts';
import { ClockIcon, PhoneIcon, PinIcon } from './icons';

/** Address, phone and opening hours, whichever the store filled in. */
export function InfoBanner({ store }: { store: PublicStoreView }) {
  if (!store.address && !store.phone && !store.businessHours) return null;
  return (
    <section className="shop-info" aria-label="Información de la tienda">
      <ul>
        {store.address && (
          <li>
            <PinIcon size={18} />
            <span>{store.address}</span>
          </li>
        )}
        {store.phone && (
          <li>
            <PhoneIcon size={18} />
            <a href={`tel:${store.phone.replace(/[^\d+]/g, '')}`}>{store.phone}</a>
          </li>
        )}
        {store.businessHours && (
          <li>
            <ClockIcon size={18} />
            <span>{store.businessHours}</span>
          </li>
        )}
      </ul>
    </section>
  );
}
