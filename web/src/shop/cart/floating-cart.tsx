import { CartIcon } from '../components/icons';
import { useCart } from './cart-store';

/** The cart badge reads 9+ above 9 items (spec 001 §9). */
export function cartBadge(count: number): string {
  return count > 9 ? '9+' : String(count);
}

/** The round cart button that floats over the shop on every screen size. */
export function FloatingCart({ store, onOpen }: { store: string; onOpen: () => void }) {
  const { count } = useCart(store);
  return (
    <button type="button" className="shop-fab" onClick={onOpen} aria-label={`Abrir carrito (${count} ${count === 1 ? 'artículo' : 'artículos'})`}>
      <CartIcon size={24} />
      {count > 0 && <span className="shop-badge">{cartBadge(count)}</span>}
    </button>
  );
}
