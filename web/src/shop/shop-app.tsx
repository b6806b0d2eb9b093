import { lazy, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { usePublicStore } from './api/get-public-store';
import { FloatingCart } from './cart/floating-cart';
import { Assistant } from './components/assistant';
import { Deferred } from './components/deferred';
import { hasFirstScreen, useFirstScreenSafety, useFirstScreenTakeover } from './first-screen';
import { StoreHeader } from './components/store-header';
import type { PublicStoreView } from './lib/contracts';
import { requiresAddress, takesOnlineOrders } from './lib/online-orders';
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
 * It takes over from the first screen the gateway wrote into the page (first-screen.ts) once the
 * page has rendered with its data (StorePage, ProductPage) or the store could not be shown.
 */
export function ShopApp() {
  const location = useLocation();
  const route = matchShopRoute(location) ?? { store: DEFAULT_STORE, productId: null };
  const store = usePublicStore(route.store);
  useFirstScreenSafety(location.pathname);
  useFirstScreenTakeover(store.isError);

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
  return <Shop key={store.data.id} store={store.data} productId={route.productId} asked={route.store} />;
}

// The dialogs are their own chunks, fetched when the page is idle: the first screen does not run them.
const loadCartDialog = () => import('./cart/cart-dialog');
const loadCheckoutDialog = () => import('./cart/checkout-dialog');
const loadHelpDialog = () => import('./components/help-dialog');
const loadSubscribeDialog = () => import('./components/subscribe-dialog');
const loadSubscriptionLinkDialog = () => import('./components/subscription-link-dialog');
const CartDialog = lazy(() => loadCartDialog().then((m) => ({ default: m.CartDialog })));
const CheckoutDialog = lazy(() => loadCheckoutDialog().then((m) => ({ default: m.CheckoutDialog })));
const HelpDialog = lazy(() => loadHelpDialog().then((m) => ({ default: m.HelpDialog })));
const SubscribeDialog = lazy(() => loadSubscribeDialog().then((m) => ({ default: m.SubscribeDialog })));
const SubscriptionLinkDialog = lazy(() => loadSubscriptionLinkDialog().then((m) => ({ default: m.SubscriptionLinkDialog })));

/** A subscription mail's link: ?suscripcion=confirmar|cancelar&token=… on the store's page. */
function subscriptionLinkOf(search: string): { action: 'confirmar' | 'cancelar'; token: string } | null {
  const params = new URLSearchParams(search);
  const action = params.get('suscripcion');
  const token = params.get('token');
  return (action === 'confirmar' || action === 'cancelar') && token ? { action, token } : null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The path under the store's current subdomain when the URL named one it left (a changed subdomain
 * keeps working for 90 days: the server still finds the store by it), else null.
 */
export function currentStorePath(pathname: string, asked: string, subdomain: string): string | null {
  const key = asked.toLowerCase();
  if (key === subdomain || UUID.test(key)) return null;
  const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const next = pathname.replace(new RegExp(`^/(tienda/)?${escaped}(?=/|$)`, 'i'), (_all, tienda: string | undefined) => `/${tienda ?? ''}${subdomain}`);
  return next === pathname ? null : next;
}

function Shop({ store, productId, asked }: { store: PublicStoreView; productId: string | null; asked: string }) {
  const [cartOpen, setCartOpen] = useState(false);
  const [checkoutOpen, setCheckoutOpen] = useState(false);
  const [helpOpen, setHelpOpen] = useState(false);
  const [subscribeOpen, setSubscribeOpen] = useState(false);
  const [assistantOpen, setAssistantOpen] = useState(false);
  const location = useLocation();
  const navigate = useNavigate();

  // /{old} → /{new}: the address bar (and what gets shared next) shows the store's current subdomain.
  useEffect(() => {
    const next = currentStorePath(location.pathname, asked, store.subdomain);
    if (next) navigate({ pathname: next, search: location.search, hash: location.hash }, { replace: true });
  }, [asked, store.subdomain, location.pathname, location.search, location.hash, navigate]);

  useEffect(() => {
    const params = new URLSearchParams(location.search);
    if (params.get('showCart') !== 'true') return;
    setCartOpen(true);
    params.delete('showCart');
    const search = params.toString();
    navigate({ pathname: location.pathname, search: search ? `?${search}` : '' }, { replace: true });
  }, [location.pathname, location.search, navigate]);

  // Another page of the shop starts at its top. Not the page the gateway's first screen stands for:
  // the visitor may be scrolling it already, and the page loads at its top anyway.
  const firstScreenPage = useRef(hasFirstScreen() ? productId : undefined);
  // A block body: Chromium's scrollTo now answers a promise, which React would take for a cleanup.
  useEffect(() => {
    if (productId === firstScreenPage.current) return;
    firstScreenPage.current = undefined;
    window.scrollTo(0, 0);
  }, [productId]);

  const openCart = () => setCartOpen(true);
  const ordersOpen = takesOnlineOrders(store);
  const subscriptionLink = subscriptionLinkOf(location.search);
  // Closing the dialog leaves the token out of the address bar.
  const closeSubscriptionLink = () => navigate({ pathname: location.pathname, search: '' }, { replace: true });
  return (
    <div className="shop" style={storeTheme(store)}>
      <StoreHeader
        store={store}
        compact={productId !== null}
        assistantOpen={assistantOpen}
        onHelp={() => setHelpOpen(true)}
        onCart={openCart}
        onSubscribe={() => setSubscribeOpen(true)}
        onAssistant={() => setAssistantOpen((o) => !o)}
      />
      {productId ? <ProductPage store={store} productId={productId} onViewCart={openCart} /> : <StorePage store={store} onViewCart={openCart} />}
      <footer className="shop-footer">
        <p>
          {store.name} · Tienda creada con <a href="/">Tiendita</a>
        </p>
      </footer>
      <FloatingCart store={store.subdomain} onOpen={openCart} onProductPage={productId !== null} />
      <Assistant store={store.subdomain} storeName={store.name} onProductPage={productId !== null} open={assistantOpen} onToggle={setAssistantOpen} />
      <Deferred open={cartOpen} preload={loadCartDialog}>
        <CartDialog
          store={store.subdomain}
          open={cartOpen}
          ordersOpen={ordersOpen}
          onClose={() => setCartOpen(false)}
          onCheckout={() => {
            setCartOpen(false);
            setCheckoutOpen(true);
          }}
        />
      </Deferred>
      {ordersOpen && (
        <Deferred open={checkoutOpen} preload={loadCheckoutDialog}>
          <CheckoutDialog store={store.subdomain} open={checkoutOpen} addressRequired={requiresAddress(store)} onClose={() => setCheckoutOpen(false)} />
        </Deferred>
      )}
      <Deferred open={helpOpen} preload={loadHelpDialog}>
        <HelpDialog store={store} open={helpOpen} onClose={() => setHelpOpen(false)} />
      </Deferred>
      <Deferred open={subscribeOpen} preload={loadSubscribeDialog}>
        <SubscribeDialog store={store} open={subscribeOpen} onClose={() => setSubscribeOpen(false)} />
      </Deferred>
      {subscriptionLink && (
        <Deferred open preload={loadSubscriptionLinkDialog}>
          <SubscriptionLinkDialog store={store} action={subscriptionLink.action} token={subscriptionLink.token} onClose={closeSubscriptionLink} />
        </Deferred>
      )}
    </div>
  );
}
