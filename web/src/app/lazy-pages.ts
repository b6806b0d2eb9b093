import { lazy } from 'react';

// Every screen is its own chunk: the entry holds only React, the router, react-query and the toaster,
// so a visitor downloads just the page they asked for, and the owner app (antd) never reaches the landing.
export const loadLandingPage = () => import('../features/landing/landing-page');
export const LandingPage = lazy(() => loadLandingPage().then((m) => ({ default: m.LandingPage })));
export const LoginPage = lazy(() => import('../features/auth/pages/login-page').then((m) => ({ default: m.LoginPage })));
export const RegisterPage = lazy(() => import('../features/auth/pages/register-page').then((m) => ({ default: m.RegisterPage })));
export const ForgotPasswordPage = lazy(() =>
  import('../features/auth/pages/forgot-password-page').then((m) => ({ default: m.ForgotPasswordPage })),
);
export const ResetPasswordPage = lazy(() =>
  import('../features/auth/pages/reset-password-page').then((m) => ({ default: m.ResetPasswordPage })),
);
export const loadOwnerApp = () => import('../features/shell/owner-app');
export const OwnerApp = lazy(() => loadOwnerApp().then((m) => ({ default: m.OwnerApp })));

/**
 * An owner page opened directly (a reload, a bookmark) asks for the owner app while the session lookup
 * is still in flight, instead of after it. (Its screen's chunk waits for the owner app: a table of the
 * screens' imports here would grow the entry, which the shop loads too.)
 */
export function preloadOwnerScreen(): void {
  void loadOwnerApp().catch(() => undefined);
}
// The public shop: its own chunk, with no antd and no owner code.
export const loadShopApp = () => import('../shop/shop-app');
export const ShopApp = lazy(() => loadShopApp().then((m) => ({ default: m.ShopApp })));
