import { Link } from 'react-router';
import { useProductDetails } from '../api/get-product-details';
import { Dialog } from '../components/dialog';
import type { PublicProductView, PublicStoreView } from '../lib/contracts';
import { productPath } from '../shop-route';
import { ProductDetail } from './product-detail';

/** The product detail over the shop page; while (or if) the details fail, the list's data stands in. */
export function ProductDialog({
  store,
  product,
  onClose,
  onViewCart,
}: {
  store: PublicStoreView;
  product: PublicProductView | null;
  onClose: () => void;
  onViewCart: () => void;
}) {
  const details = useProductDetails(product?.id ?? '', product !== null);
  return (
    <Dialog open={product !== null} onClose={onClose} title={product?.name ?? 'Producto'} hideTitle size="large">
      {product && (
        <>
          <ProductDetail
            store={store}
            product={product}
            details={details.data}
            detailsLoading={details.isLoading}
            detailsFailed={details.isError}
            variant="dialog"
            onViewCart={onViewCart}
          />
          <p className="shop-detail__permalink">
            <Link to={productPath(store.subdomain, product.id)}>Ver página del producto</Link>
          </p>
        </>
      )}
    </Dialog>
  );
}
