import { Link } from 'react-router';
import type { PublicStoreView } from '../lib/contracts';
import { storeHomePath } from '../shop-route';
import { useCart } from '../cart/cart-store';
import { cartBadge } from '../cart/floating-cart';
import { assistantLabel } from './assistant';
import { CartIcon, ChatIcon, HelpIcon, MailIcon } from './icons';

/** The store's logo, or its initial on the store colour. */
export function StoreLogo({ store, size = 56 }: { store: PublicStoreView; size?: number }) {
  if (store.logoUrl) {
    return <img className="shop-logo" src={store.logoUrl} alt={`Logo de ${store.name}`} width={size} height={size} />;
  }
  return (
    <span className="shop-logo shop-logo--initial" style={{ width: size, height: size }} aria-hidden="true">
      {store.name.trim().charAt(0).toUpperCase() || 'T'}
    </span>
  );
}

/**
 * Header: logo, name, description, help centre, subscribe and cart (spec 001 §2). On a phone it stays
 * at the top and also holds the assistant: no round button floats over the cards there.
 */
export function StoreHeader({
  store,
  compact,
  assistantOpen,
  onHelp,
  onCart,
  onSubscribe,
  onAssistant,
}: {
  store: PublicStoreView;
  compact?: boolean;
  assistantOpen: boolean;
  onHelp: () => void;
  onCart: () => void;
  onSubscribe: () => void;
  onAssistant: () => void;
}) {
  const { count } = useCart(store.subdomain);
  const Title = compact ? 'p' : 'h1';
  return (
    <header className={`shop-header${compact ? ' shop-header--compact' : ''}`}>
      <div className="shop-header__inner">
        <Link to={storeHomePath(store.subdomain)} className="shop-header__brand">
          <StoreLogo store={store} size={compact ? 40 : 56} />
          <span className="shop-header__text">
            <Title className="shop-header__name">{store.name}</Title>
            {!compact && store.description && <span className="shop-header__description">{store.description}</span>}
          </span>
        </Link>
        <div className="shop-header__actions">
          <button type="button" className="shop-header__button" onClick={onHelp}>
            <HelpIcon />
            <span>Ayuda</span>
          </button>
          <button type="button" className="shop-header__button" onClick={onSubscribe}>
            <MailIcon />
            <span>Suscribirse</span>
          </button>
          <button type="button" className="shop-header__button shop-header__button--assistant" onClick={onAssistant} aria-label={assistantLabel(assistantOpen)} aria-expanded={assistantOpen}>
            <ChatIcon />
            <span>Asistente</span>
          </button>
          <button type="button" className="shop-header__button" onClick={onCart} aria-label={`Carrito (${count})`}>
            <CartIcon />
            <span>Carrito</span>
            {count > 0 && <span className="shop-badge shop-badge--inline">{cartBadge(count)}</span>}
          </button>
        </div>
      </div>
    </header>
  );
}
