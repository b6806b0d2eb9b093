import { App as AntApp, ConfigProvider } from 'antd';
import esES from 'antd/locale/es_ES';
import dayjs from 'dayjs';
import 'dayjs/locale/es';
import { lazy, Suspense, useMemo } from 'react';
import { Route, Routes } from 'react-router';
import type { CurrentUser } from '@tiendita/contracts';
import { OwnerShell } from './owner-shell';
import { PlaceholderPage } from './placeholder-page';
import { NotFoundPage } from './not-found-page';
import { DashboardPage } from '../dashboard/dashboard-page';
import { PageLoader } from '../../components/page-loader';
import { useMediaQuery } from './use-media-query';

// Each feature screen is its own chunk, loaded inside the shell.
const ProductsPage = lazy(() => import('../products/products-page').then((m) => ({ default: m.ProductsPage })));
const ReviewsPage = lazy(() => import('../reviews/pages/reviews-page').then((m) => ({ default: m.ReviewsPage })));

dayjs.locale('es');

const theme = {
  token: {
    colorPrimary: '#0ea5e9',
    colorLink: '#0284c7',
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
  const appTheme = useMemo(() => ({ ...theme, token: { ...theme.token, motion: !reducedMotion } }), [reducedMotion]);
  return (
    <ConfigProvider locale={esES} theme={appTheme}>
      <AntApp>
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
              element={<PlaceholderPage title="Pedidos" description="Los pedidos de tu tienda en línea y de WhatsApp, con su estado." />}
            />
            <Route
              path="pos"
              element={<PlaceholderPage title="Punto de Venta" description="Cobra en tu local, emite facturas y calcula el cambio." />}
            />
            <Route
              path="reports"
              element={<PlaceholderPage title="Reportes" description="Tus ventas por día, semana y mes, y los productos que más se venden." />}
            />
            <Route
              path="inventory"
              element={<PlaceholderPage title="Inventario" description="Existencias, entradas, salidas, ajustes y alertas de bajo stock." />}
            />
            <Route
              path="settings"
              element={<PlaceholderPage title="Configuración" description="Los datos de tu tienda, tu perfil, WhatsApp, pagos e impresión de recibos." />}
            />
            <Route path="*" element={<NotFoundPage />} />
          </Route>
        </Routes>
      </AntApp>
    </ConfigProvider>
  );
}
