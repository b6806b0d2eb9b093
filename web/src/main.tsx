import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { AppRoot } from './app/app-root';
import { loadLandingPage, loadShopApp, preloadOwnerScreen } from './app/lazy-pages';
import { paintOwnerFirstScreen } from './app/owner-first-screen';
import { isOwnerOnlyPath, PUBLIC_PATHS } from './app/paths';
import { preloadRoutes, routeOf } from './app/route-chunks';
import { isShopPath } from './app/shop-route';
import { Toaster } from './components/toast/toaster';
import { showCarriedToast } from './components/toast/toast-store';
import { createQueryClient } from './lib/query-client';
import { removeFirstScreen } from './shop/first-screen';
import { preloadShop } from './shop/preload';
import './styles/base.css';

const queryClient = createQueryClient();

// Most anonymous visits land on the landing page: fetch its chunk while the session lookup is in flight.
const { pathname } = window.location;
const isAuthScreen = (Object.values(PUBLIC_PATHS) as string[]).includes(pathname);
if (!isShopPath(window.location) && !isOwnerOnlyPath(pathname) && !isAuthScreen) void loadLandingPage();
// An owner page opened directly most likely has a session: its first screen paints now, and the owner
// app and the screen's own chunks come together while the lookup is in flight (not one after the other).
if (isOwnerOnlyPath(pathname)) {
  paintOwnerFirstScreen(pathname);
  preloadRoutes(['/dashboard', routeOf(pathname)]);
  preloadOwnerScreen();
}
// A shop page asks for its chunk, store and products together instead of one after the other.
preloadShop(queryClient, window.location, loadShopApp);
// The gateway's first screen of a shop page stays until the shop replaces it; any other screen goes now.
if (!isShopPath(window.location)) removeFirstScreen();

// A toast the previous page of this tab left for this one (the login's 'Bienvenido' after its reload).
showCarriedToast();

const app = (
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <AppRoot />
      </BrowserRouter>
      <Toaster />
    </QueryClientProvider>
  </StrictMode>
);
const container = document.getElementById('root')!;
if (isShopPath(window.location)) {
  // A shop page starts in short tasks: the root (React listens to some 80 events on it) in a task of
  // its own after this module's, then the render as a transition, which yields to the browser every
  // few milliseconds instead of building the whole shop in one long task (on a phone, hundreds of
  // milliseconds in which a tap waits). The gateway's first screen stands in meanwhile.
  setTimeout(() => {
    const root = createRoot(container);
    startTransition(() => root.render(app));
  }, 0);
} else {
  createRoot(container).render(app);
}
