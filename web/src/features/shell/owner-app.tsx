import { ConfigProvider } from 'antd';
import esES from 'antd/locale/es_ES';
import dayjs from 'dayjs';
import 'dayjs/locale/es';
import { lazy, type ReactNode, Suspense, useEffect, useMemo } from 'react';
import { Route, Routes } from 'react-router';
import type { CurrentUser } from '@tiendita/contracts';
import { OwnerShell } from './owner-shell';
import { OWNER_THEME } from './owner-theme';
import { DashboardPage } from '../dashboard/dashboard-page';
import { PageLoader } from '../../components/page-loader';
import { useMediaQuery } from './use-media-query';
import { useOwnerOfflineApp } from '../pos/offline/register-sw';
import { useOwnerFirstScreenTakeover } from '../../app/owner-first-screen';
import { prefetchRoutes } from '../../app/route-chunks';

// Each feature screen is its own chunk, loaded inside the shell.
const loadProductsPage = () => import('../products/products-page');
const loadOrdersPage = () => import('../orders/pages/orders-page');
const loadPosPage = () => import('../pos/pos-page');
const ProductsPage = lazy(() => loadProductsPage().then((m) => ({ default: m.ProductsPage })));
const SettingsPage = lazy(() => import('../settings/settings-page').then((m) => ({ default: m.SettingsPage })));
const InventoryPage = lazy(() => import('../inventory/inventory-page').then((m) => ({ default: m.InventoryPage })));
const ReportsPage = lazy(() => import('../reports/reports-page').then((m) => ({ default: m.ReportsPage })));
const ReviewsPage = lazy(() => import('../reviews/pages/reviews-page').then((m) => ({ default: m.ReviewsPage })));
const OrdersPage = lazy(() => loadOrdersPage().then((m) => ({ default: m.OrdersPage })));
const ReceiptPage = lazy(() => import('../orders/pages/receipt-page').then((m) => ({ default: m.ReceiptPage })));
const PosPage = lazy(() => loadPosPage().then((m) => ({ default: m.PosPage })));

/**
 * Once the first screen is idle, the screens an owner most likely opens next are fetched into the
 * cache (link rel=prefetch, from the build's list), so moving there is quick; none of their code runs
 * until they open (importing them ran zod's schemas and antd's Table on the phone's thread at once).
 */
function usePrefetchLikelyScreens(): void {
  useEffect(() => {
    const prefetch = () => prefetchRoutes(['/orders', '/pos', '/products']);
    if (typeof window.requestIdleCallback !== 'function') {
      const timer = setTimeout(prefetch, 2000);
      return () => clearTimeout(timer);
    }
    const handle = window.requestIdleCallback(prefetch, { timeout: 4000 });
    return () => window.cancelIdleCallback(handle);
  }, []);
}
const NotFoundPage = lazy(() => import('./not-found-page').then((m) => ({ default: m.NotFoundPage })));
const ProfilePage = lazy(() => import('../profile/profile-page').then((m) => ({ default: m.ProfilePage })));
const InvoicesPage = lazy(() => import('../fel/invoices-page').then((m) => ({ default: m.InvoicesPage })));

dayjs.locale('es');

/** Takes over from the first screen (owner-first-screen.ts) as the screen renders. */
function TakeOver() {
  useOwnerFirstScreenTakeover();
  return null;
}

/** A screen of the shell: its chunk's loader, then the screen, which replaces the first screen. */
function screen(page: ReactNode) {
  return (
    <Suspense fallback={<PageLoader />}>
      <TakeOver />
      {page}
    </Suspense>
  );
}

/** The signed-in owner's app (antd, Spanish locale): the shell and the screens of spec 000 §2. */
export function OwnerApp({ user }: { user: CurrentUser }) {
  // A person who asked their system for less motion gets antd's dialogs, drawers and previews
  // without their zoom and fade: they open and close at once.
  const reducedMotion = useMediaQuery('(prefers-reduced-motion: reduce)');
  usePrefetchLikelyScreens();
  const appTheme = useMemo(() => ({ ...OWNER_THEME, token: { ...OWNER_THEME.token, motion: !reducedMotion } }), [reducedMotion]);
  useOwnerOfflineApp();
  return (
    <ConfigProvider locale={esES} theme={appTheme}>
        <Routes>
          <Route element={<OwnerShell user={user} />}>
            <Route index element={screen(<DashboardPage user={user} />)} />
            <Route path="dashboard" element={screen(<DashboardPage user={user} />)} />
            <Route path="products" element={screen(<ProductsPage />)} />
            <Route path="products/reviews" element={screen(<ReviewsPage />)} />
            <Route path="orders" element={screen(<OrdersPage />)} />
            <Route path="orders/:id/receipt" element={screen(<ReceiptPage />)} />
            <Route path="pos" element={screen(<PosPage />)} />
            <Route path="reports" element={screen(<ReportsPage />)} />
            <Route path="invoices" element={screen(<InvoicesPage />)} />
            <Route path="inventory" element={screen(<InventoryPage />)} />
            <Route path="settings" element={screen(<SettingsPage />)} />
            <Route path="profile" element={screen(<ProfilePage />)} />
            <Route path="*" element={screen(<NotFoundPage />)} />
          </Route>
        </Routes>
    </ConfigProvider>
  );
}
