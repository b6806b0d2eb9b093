import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { AppRoot } from './app/app-root';
import { loadLandingPage, loadShopApp } from './app/lazy-pages';
import { isOwnerOnlyPath, PUBLIC_PATHS } from './app/paths';
import { isShopPath } from './app/shop-route';
import { Toaster } from './components/toast/toaster';
import { createQueryClient } from './lib/query-client';
import { preloadShop } from './shop/preload';
import './styles/base.css';

const queryClient = createQueryClient();

// Most anonymous visits land on the landing page: fetch its chunk while the session lookup is in flight.
const { pathname } = window.location;
const isAuthScreen = (Object.values(PUBLIC_PATHS) as string[]).includes(pathname);
if (!isShopPath(window.location) && !isOwnerOnlyPath(pathname) && !isAuthScreen) void loadLandingPage();
// A shop page asks for its chunk, store and products together instead of one after the other.
preloadShop(queryClient, window.location, loadShopApp);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <AppRoot />
      </BrowserRouter>
      <Toaster />
    </QueryClientProvider>
  </StrictMode>,
);
