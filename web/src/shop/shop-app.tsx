import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { usePublicStore } from './api/get-public-store';
import { CartDialog } from './cart/cart-dialog';
import { FloatingCart } from './cart/floating-cart';
import { HelpDialog } from './components/help-dialog';
import { StoreHeader } from './components/store-header';
import type { PublicStoreView } from './lib/contracts';
import { ShopMessages } from './lib/messages';
import { storeTheme } from './lib/theme';
import { NotFoundPage } from './pages/not-found-page';
import { ProductPage } from './pages/product-page';
import { StorePage } from './pages/store-page';
import { DEFAULT_STORE, matchShopRoute } from './shop-route';
import { PageLoader } from '../components/page-loader';
import './shop.css';

/**
 * The public shop: its own lazy chunk (no antd, no owner code), mounted for the paths of spec 001 §2.
 * The store comes from the path or ?store=; showCart=true opens the cart once and leaves the URL.
 */
export function ShopApp() {
  const location = useLocation();
  const route = matchShopRoute(location) ?? { store: DEFAULT_STORE, productId: null };
  const store = usePublicStore(route.store);

  if (store.isPending) return <PageLoader />;
  if (store.isError) {
    if (/^404: /.test(store.error.message)) {
      return (
        <div className="shop">
          <NotFoundPage title={ShopMessages.storeNotFound} hint={ShopMessages.storeNotFoundHint} backTo="/" backLabel="Ir a Tiendita" />
        </div>
      );
    }
    return (
      <div className="shop">
        <main className="shop-empty shop-empty--page">
          <p>{ShopMessages.loadFailed}</p>
          <button type="button" className="shop-button" onClick={() => void store.refetch()}>
            Reintentar
          </button>
        </main>
      </div>
    );
  }
  return <Shop key={store.data.id} store={store.data} productId={route.productId} />;
}

function Shop({ store, productId }: { store: PublicStoreView; productId: string | null }) {
  const [cartOpen, setCartOpen] = useState(false);
  const [helpOpen, setHelpOpen] = useState(false);
  const location = useLocation();
  const navigate = useNavigate();

  useEffect(() => {
    const params = new URLSearchParams(location.search);
    if (params.get('showCart') !== 'true') return;
    setCartOpen(true);
    params.delete('showCart');
    const search = params.toString();
    navigate({ pathname: location.pathname, search: search ? `?${search}` : '' }, { replace: true });
  }, [location.pathname, location.search, navigate]);

  // A block body: Chromium's scrollTo now answers a promise, which React would take for a cleanup.
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [productId]);

  const openCart = () => setCartOpen(true);
  return (
    <div className="shop" style={storeTheme(store)}>
      <StoreHeader store={store} compact={productId !== null} onHelp={() => setHelpOpen(true)} onCart={openCart} />
      {productId ? <ProductPage store={store} productId={productId} onViewCart={openCart} /> : <StorePage store={store} onViewCart={openCart} />}
      <footer className="shop-footer">
        <p>
          {store.name} · Tienda creada con <a href="/">Tiendita</a>
        </p>
      </footer>
      <FloatingCart store={store.subdomain} onOpen={openCart} />
      <CartDialog store={store.subdomain} open={cartOpen} onClose={() => setCartOpen(false)} />
      <HelpDialog store={store} open={helpOpen} onClose={() => setHelpOpen(false)} />
    </div>
  );
}
