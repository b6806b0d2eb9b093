import { Dialog } from '../components/dialog';
import { ProductImage } from '../components/product-image';
import { QuantityPicker } from '../components/quantity-picker';
import { TrashIcon } from '../components/icons';
import { formatMoney } from '../lib/format';
import { CheckoutMessages } from '../lib/messages';
import { clearCart, removeFromCart, setCartQuantity, useCart } from './cart-store';

/**
 * The cart: lines with − n + (capped at stock) at the price the server charges, the total, and
 * checkout, which shows only while the store takes online orders (`ordersOpen`).
 */
export function CartDialog({
  store,
  open,
  ordersOpen,
  onClose,
  onCheckout,
}: {
  store: string;
  open: boolean;
  ordersOpen: boolean;
  onClose: () => void;
  onCheckout: () => void;
}) {
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
                  <p className="shop-muted">
                    {formatMoney(line.price)} c/u
                    {line.listPrice !== undefined && line.listPrice > line.price && (
                      <>
                        {' '}
                        <s>
                          <span className="visually-hidden">Antes </span>
                          {formatMoney(line.listPrice)}
                        </s>
                      </>
                    )}
                  </p>
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
          {ordersOpen ? (
            <button type="button" className="shop-button shop-button--primary shop-button--block" onClick={onCheckout}>
              Realizar pedido
            </button>
          ) : (
            <p className="shop-form__error" role="status">
              {CheckoutMessages.ordersClosed}
            </p>
          )}
          <button type="button" className="shop-link-button" onClick={() => clearCart(store)}>
            Vaciar carrito
          </button>
        </>
      )}
    </Dialog>
  );
}
