import { useEffect } from 'react';
import { Link } from 'react-router';
import { useProductDetails } from '../api/get-product-details';
import type { PublicStoreView } from '../lib/contracts';
import { ShopMessages } from '../lib/messages';
import { ProductDetail } from '../product/product-detail';
import { storeHomePath } from '../shop-route';
import { NotFoundPage } from './not-found-page';
import { useFirstScreenTakeover } from '../first-screen';
import { PageLoader } from '../../components/page-loader';

/** /{store}/product/{id}: one product of the store, or 'Producto no encontrado'. */
export function ProductPage({ store, productId, onViewCart }: { store: PublicStoreView; productId: string; onViewCart: () => void }) {
  const details = useProductDetails(productId);
  const product = details.data;
  // A product of another store is not this store's product.
  const missing = (details.isError && /^404: /.test(details.error.message)) || (product !== undefined && product.storeSubdomain !== store.subdomain);
  // The product (or its not-found or error state) is rendered: the gateway's first screen gives way to it.
  useFirstScreenTakeover(!details.isPending);

  useEffect(() => {
    if (product && !missing) document.title = `${product.name} · ${store.name}`;
  }, [product, missing, store.name]);

  if (details.isPending) return <PageLoader />;
  if (missing || !product) {
    if (details.isError && !missing) {
      return (
        <main className="shop-empty">
          <p>No se pudo cargar el producto.</p>
          <button type="button" className="shop-button" onClick={() => void details.refetch()}>
            Reintentar
          </button>
        </main>
      );
    }
    return <NotFoundPage title={ShopMessages.productNotFound} hint={ShopMessages.productNotFoundHint} backTo={storeHomePath(store.subdomain)} backLabel="Volver a la tienda" />;
  }

  return (
    <main className="shop-main">
      <nav className="shop-breadcrumb" aria-label="Ruta">
        <Link to={storeHomePath(store.subdomain)}>← Volver a la tienda</Link>
      </nav>
      <ProductDetail store={store} product={product} details={product} detailsLoading={false} detailsFailed={false} variant="page" onViewCart={onViewCart} />
    </main>
  );
}
