import { useState } from 'react';
import { Gallery } from '../components/gallery';
import { Price } from '../components/price';
import { QuantityPicker } from '../components/quantity-picker';
import { Stars } from '../components/stars';
import { StockBadge } from '../components/stock-badge';
import { addToCart } from '../cart/cart-store';
import { ShopMessages } from '../lib/messages';
import { productPath } from '../shop-route';
import { formatDecimal, type PublicProductDetails, type PublicProductView, type PublicStoreView } from '../lib/contracts';
import { toast } from '../../components/toast/toast-store';
import { ReviewsPanel } from './reviews-panel';
import { WhatsAppButton } from './whatsapp-button';

interface ProductDetailProps {
  store: PublicStoreView;
  /** What is known already (the list's data); the details add ratings and comments. */
  product: PublicProductView;
  details: PublicProductDetails | undefined;
  detailsLoading: boolean;
  detailsFailed: boolean;
  variant: 'page' | 'dialog';
  onViewCart: () => void;
}

/** Everything about one product: gallery, rating, price, SKU, stock, quantity, cart, WhatsApp and reviews. */
export function ProductDetail({ store, product, details, detailsLoading, detailsFailed, variant, onViewCart }: ProductDetailProps) {
  const shown = details ?? product;
  const [quantity, setQuantity] = useState(1);
  const images = shown.images.length > 0 ? shown.images : shown.imageUrl ? [shown.imageUrl] : [];
  const inStock = shown.stock > 0;
  const qty = Math.min(Math.max(quantity, 1), Math.max(shown.stock, 1));
  const Heading = variant === 'page' ? 'h1' : 'h3';

  const onAdd = () => {
    if (!inStock) return;
    addToCart(store.subdomain, shown, qty);
    toast({ title: ShopMessages.addedToCart, description: `${qty} × ${shown.name}` });
  };

  return (
    <article className={`shop-detail shop-detail--${variant}`}>
      <Gallery images={images} name={shown.name} />
      <div className="shop-detail__info">
        {shown.categoryName && <p className="shop-detail__category">{shown.categoryName}</p>}
        <Heading className="shop-detail__name">{shown.name}</Heading>
        {details && (
          <p className="shop-detail__rating">
            <Stars value={details.averageRating} />
            <span>
              {details.totalRatings > 0
                ? `${formatDecimal(details.averageRating, 1)} (${details.totalRatings} ${details.totalRatings === 1 ? 'calificación' : 'calificaciones'})`
                : 'Sin calificaciones'}
            </span>
          </p>
        )}
        <Price price={shown.price} finalPrice={shown.finalPrice} discountPercentage={shown.discountPercentage} large />
        <div className="shop-detail__meta">
          <StockBadge stock={shown.stock} />
          {shown.sku && <span className="shop-muted">SKU: {shown.sku}</span>}
        </div>
        {shown.description && <p className="shop-detail__description">{shown.description}</p>}

        <div className="shop-detail__buy">
          {inStock && <QuantityPicker value={qty} max={shown.stock} onChange={setQuantity} label="Cantidad" />}
          <button type="button" className="shop-button shop-button--primary" onClick={onAdd} disabled={!inStock}>
            {inStock ? 'Agregar al carrito' : 'Agotado'}
          </button>
          <button type="button" className="shop-button" onClick={onViewCart}>
            Ver carrito
          </button>
        </div>
        <WhatsAppButton
          number={store.whatsappNumber}
          storeName={store.name}
          productName={shown.name}
          price={shown.finalPrice}
          productUrl={productPath(store.subdomain, shown.id)}
        />
      </div>
      <ReviewsPanel productId={shown.id} details={details} loading={detailsLoading} failed={detailsFailed} variant={variant} />
    </article>
  );
}
