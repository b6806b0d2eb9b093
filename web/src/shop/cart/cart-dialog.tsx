import { Dialog } from '../components/dialog';
import { ProductImage } from '../components/product-image';
import { QuantityPicker } from '../components/quantity-picker';
import { TrashIcon } from '../components/icons';
import { formatMoney } from '../lib/format';
import { ShopMessages } from '../lib/messages';
import { clearCart, removeFromCart, setCartQuantity, useCart } from './cart-store';

/** The cart: lines with − n + (capped at stock), the total, and checkout (ordering arrives with its issue). */
export function CartDialog({ store, open, onClose }: { store: string; open: boolean; onClose: () => void }) {
  const { lines, count, total } = useCart(store);
  return (
    <Dialog open={open} onClose={onClose} title="Tu carrito">
      {lines.length === 0 ? (
        <div className="shop-empty">
          <p>Tu carrito está vacío.</p>
          <button type="button" className="shop-button shop-button--primary" onClick={onClose}>
            Seguir comprando
          </button>
        </div>
      ) : (
        <>
          <ul className="shop-cart">
            {lines.map((line) => (
              <li key={line.productId} className="shop-cart__line">
                <ProductImage src={line.imageUrl} alt="" width={160} className="shop-cart__img" />
                <div className="shop-cart__info">
                  <p className="shop-cart__name">{line.name}</p>
                  <p className="shop-muted">{formatMoney(line.price)} c/u</p>
                  <QuantityPicker
                    value={line.quantity}
                    min={0}
                    max={line.stock}
                    onChange={(q) => setCartQuantity(store, line.productId, q)}
                    label={`Cantidad de ${line.name}`}
                  />
                </div>
                <div className="shop-cart__side">
                  <strong>{formatMoney(line.price * line.quantity)}</strong>
                  <button type="button" className="shop-icon-button" onClick={() => removeFromCart(store, line.productId)} aria-label={`Quitar ${line.name} del carrito`}>
                    <TrashIcon size={18} />
                  </button>
                </div>
              </li>
            ))}
          </ul>
          <div className="shop-cart__total">
            <span>
              Total ({count} {count === 1 ? 'artículo' : 'artículos'})
            </span>
            <strong>{formatMoney(total)}</strong>
          </div>
          <button type="button" className="shop-button shop-button--primary shop-button--block" disabled aria-describedby="checkout-soon">
            Realizar pedido
          </button>
          <p id="checkout-soon" className="shop-muted shop-cart__soon">
            {ShopMessages.checkoutSoon}
          </p>
          <button type="button" className="shop-link-button" onClick={() => clearCart(store)}>
            Vaciar carrito
          </button>
        </>
      )}
    </Dialog>
  );
}
