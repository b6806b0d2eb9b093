import { ConfigProvider } from 'antd';
import esES from 'antd/locale/es_ES';
import dayjs from 'dayjs';
import 'dayjs/locale/es';
import { lazy, Suspense, useEffect, useMemo } from 'react';
import { Route, Routes } from 'react-router';
import type { CurrentUser } from '@tiendita/contracts';
import { OwnerShell } from './owner-shell';
import { DashboardPage } from '../dashboard/dashboard-page';
import { PageLoader } from '../../components/page-loader';
import { useMediaQuery } from './use-media-query';
import { useOwnerOfflineApp } from '../pos/offline/register-sw';

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

/** Once the first screen is idle, the screens an owner most likely opens next are fetched, so moving there is quick. */
function usePrefetchLikelyScreens(): void {
  useEffect(() => {
    const prefetch = () => {
      for (const load of [loadOrdersPage, loadPosPage, loadProductsPage]) void load().catch(() => undefined);
    };
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

const theme = {
  token: {
    // Dark enough for white text on buttons and for links and secondary text on white (WCAG AA 4.5:1).
    colorPrimary: '#0369a1',
    colorLink: '#0369a1',
    colorTextSecondary: 'rgba(0, 0, 0, 0.66)',
    colorTextTertiary: 'rgba(0, 0, 0, 0.62)',
    colorTextDescription: 'rgba(0, 0, 0, 0.62)',
    colorTextPlaceholder: 'rgba(0, 0, 0, 0.56)',
    colorError: '#dc2626',
    borderRadius: 8,
    fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
  },
};

/** The signed-in owner's app (antd, Spanish locale): the shell and the screens of spec 000 §2. */
export function OwnerApp({ user }: { user: CurrentUser }) {
  // A person who asked their system for less motion gets antd's dialogs, drawers and previews
  // without their zoom and fade: they open and close at once.
  const reducedMotion = useMediaQuery('(prefers-reduced-motion: reduce)');
  usePrefetchLikelyScreens();
  const appTheme = useMemo(() => ({ ...theme, token: { ...theme.token, motion: !reducedMotion } }), [reducedMotion]);
  useOwnerOfflineApp();
  return (
    <ConfigProvider locale={esES} theme={appTheme}>
        <Routes>
          <Route element={<OwnerShell user={user} />}>
            <Route index element={<DashboardPage user={user} />} />
            <Route path="dashboard" element={<DashboardPage user={user} />} />
            <Route
              path="products"
              element={
                <Suspense fallback={<PageLoader />}>
                  <ProductsPage />
                </Suspense>
              }
            />
            <Route
              path="products/reviews"
              element={
                <Suspense fallback={<PageLoader />}>
                  <ReviewsPage />
                </Suspense>
              }
            />
            <Route
              path="orders"
              element={
                <Suspense fallback={<PageLoader />}>
                  <OrdersPage />
                </Suspense>
              }
            />
            <Route
              path="orders/:id/receipt"
              element={
                <Suspense fallback={<PageLoader />}>
                  <ReceiptPage />
                </Suspense>
              }
            />
            <Route
              path="pos"
              element={
                <Suspense fallback={<PageLoader />}>
                  <PosPage />
                </Suspense>
              }
            />
            <Route
              path="reports"
              element={
                <Suspense fallback={<PageLoader />}>
                  <ReportsPage />
                </Suspense>
              }
            />
            <Route
              path="invoices"
              element={
                <Suspense fallback={<PageLoader />}>
                  <InvoicesPage />
                </Suspense>
              }
            />
            <Route
              path="inventory"
              element={
                <Suspense fallback={<PageLoader />}>
                  <InventoryPage />
                </Suspense>
              }
            />
            <Route
              path="settings"
              element={<SettingsPage />}
            />
            <Route
              path="profile"
              element={
                <Suspense fallback={<PageLoader />}>
                  <ProfilePage />
                </Suspense>
              }
            />
            <Route
              path="*"
              element={
                <Suspense fallback={<PageLoader />}>
                  <NotFoundPage />
                </Suspense>
              }
            />
          </Route>
        </Routes>
    </ConfigProvider>
  );
}
