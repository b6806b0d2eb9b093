import { Suspense, useDeferredValue, useEffect } from 'react';
import { Navigate, Route, Routes, useLocation, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import type { CurrentUser } from '@tiendita/contracts';
import { useCurrentUser } from '../features/auth/api/get-current-user';
import { authKeys } from '../features/auth/api/keys';
import { onSessionLost } from '../lib/query-client';
import { PageLoader } from '../components/page-loader';
import { LoggedOutRedirect } from './logged-out-redirect';
import { useOwnerFirstScreenTakeover } from './owner-first-screen';
import { isShopPath } from './shop-route';
import { ForgotPasswordPage, LandingPage, LoginPage, OwnerApp, RegisterPage, ResetPasswordPage, ShopApp } from './lazy-pages';
import { OWNER_ONLY_PATHS, PUBLIC_PATHS } from './paths';

/**
 * Picks what a path shows: the public shop first (its own chunk, no session lookup), then the owner
 * app when /api/auth/user answers with a user, else the public site.
 */
export function AppRoot() {
  const location = useLocation();
  if (isShopPath(location)) {
    return (
      <Suspense fallback={<PageLoader />}>
        <ShopApp />
      </Suspense>
    );
  }
  return <Site />;
}

function Site() {
  const { user, isLoading } = useCurrentUser();
  useSessionLostHandler();
  // The owner app's first render (the shell and the screen: on a phone, hundreds of milliseconds) runs
  // as a transition once the session answers, so React yields to the browser every few milliseconds
  // instead of holding the page in one long task; the loader (or the first screen) stays meanwhile.
  const signedInShown = useDeferredValue(Boolean(user));
  if (isLoading || (user && !signedInShown)) return <PageLoader />;
  return (
    <Suspense fallback={<PageLoader />}>
      <Routes>
        <Route path={PUBLIC_PATHS.forgotPassword} element={<ForgotPasswordPage />} />
        <Route path={PUBLIC_PATHS.resetPassword} element={<ResetPasswordPage />} />
        {user ? <Route path="*" element={<SignedIn user={user} />} /> : <Route path="*" element={<SignedOut />} />}
      </Routes>
    </Suspense>
  );
}

function SignedIn({ user }: { user: CurrentUser }) {
  return (
    <Routes>
      <Route path={PUBLIC_PATHS.login} element={<Navigate to="/dashboard" replace />} />
      <Route path={PUBLIC_PATHS.register} element={<Navigate to="/dashboard" replace />} />
      <Route path="*" element={<OwnerApp user={user} />} />
    </Routes>
  );
}

function SignedOut() {
  // An owner page opened without a session: its first screen gives way to the login's redirect.
  useOwnerFirstScreenTakeover();
  return (
    <Routes>
      <Route path={PUBLIC_PATHS.login} element={<LoginPage />} />
      <Route path={PUBLIC_PATHS.register} element={<RegisterPage />} />
      {OWNER_ONLY_PATHS.map((path) => (
        <Route key={path} path={`${path}/*`} element={<LoggedOutRedirect />} />
      ))}
      <Route path="*" element={<LandingPage />} />
    </Routes>
  );
}

/**
 * A read answering 401 while signed in means the session ended elsewhere: forget the user, and let the
 * signed-out routes show the §6 toast and redirect (from `/` the dashboard path stands in for it).
 */
function useSessionLostHandler(): void {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  useEffect(
    () =>
      onSessionLost(() => {
        if (!queryClient.getQueryData(authKeys.user)) return;
        queryClient.setQueryData(authKeys.user, null);
        if (window.location.pathname === '/') navigate('/dashboard', { replace: true });
      }),
    [queryClient, navigate],
  );
}
