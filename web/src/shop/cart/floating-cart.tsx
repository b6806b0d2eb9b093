import { CartIcon } from '../components/icons';
import { useCart } from './cart-store';

/** The cart badge reads 9+ above 9 items (spec 001 §9). */
export function cartBadge(count: number): string {
  return count > 9 ? '9+' : String(count);
}

/**
 * The round cart button that floats over the shop. On a phone's product page it stays out of the way
 * of 'Agregar al carrito' (the header's cart and 'Ver carrito' are there instead).
 */
export function FloatingCart({ store, onOpen, onProductPage }: { store: string; onOpen: () => void; onProductPage?: boolean }) {
  const { count } = useCart(store);
  return (
    <button type="button" className={`shop-fab${onProductPage ? ' shop-fab--product' : ''}`} onClick={onOpen} aria-label={`Abrir carrito (${count} ${count === 1 ? 'artículo' : 'artículos'})`}>
      <CartIcon size={24} />
      {count > 0 && <span className="shop-badge">{cartBadge(count)}</span>}
    </button>
  );
}
