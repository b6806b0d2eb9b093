import type { PublicProductView } from '../lib/contracts';
import { CARD_IMAGE_SIZES, CARD_IMAGE_WIDTH } from '../lib/image';
import { Price } from './price';
import { ProductImage } from './product-image';
import { StockBadge } from './stock-badge';

/**
 * One product in the grid; the whole card opens its detail, the button adds one to the cart. The
 * first cards' images load at once (`eager`), the very first with high priority (`priority`): on a
 * phone one of them is the largest paint.
 */
export function ProductCard({
  product,
  eager,
  priority = false,
  onOpen,
  onAdd,
}: {
  product: PublicProductView;
  eager: boolean;
  priority?: boolean;
  onOpen: () => void;
  onAdd: () => void;
}) {
  const inStock = product.stock > 0;
  return (
    // A tap anywhere on the card (name, price, badge) opens it; its own buttons keep their action (the
    // picture is the keyboard's way in).
    <li className="shop-card shop-card--link" onClick={(event) => !(event.target as HTMLElement).closest('button') && onOpen()}>
      <button type="button" className="shop-card__open" onClick={onOpen} aria-label={`Ver ${product.name}`}>
        <ProductImage src={product.imageUrl} alt="" width={CARD_IMAGE_WIDTH} sizes={CARD_IMAGE_SIZES} eager={eager} priority={priority} className="shop-card__img" />
      </button>
      <div className="shop-card__body">
        <h3 className="shop-card__name">{product.name}</h3>
        <Price price={product.price} finalPrice={product.finalPrice} discountPercentage={product.discountPercentage} />
        <StockBadge stock={product.stock} />
        <button type="button" className="shop-button shop-button--primary shop-button--small" onClick={onAdd} disabled={!inStock}>
          {inStock ? 'Agregar' : 'Agotado'}
        </button>
      </div>
    </li>
  );
}
