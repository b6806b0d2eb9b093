/** Owner screens of spec 000 §2, in navigation order. `/` is the dashboard too. */
export const OWNER_NAV = [
  { path: '/', label: 'Dashboard' },
  { path: '/products', label: 'Productos' },
  { path: '/orders', label: 'Pedidos' },
  { path: '/pos', label: 'POS' },
  { path: '/reports', label: 'Reportes' },
  { path: '/inventory', label: 'Inventario' },
  { path: '/settings', label: 'Configuración' },
] as const;

// 'Facturas' (/invoices, issue 25) is not a menu entry (spec 000 lists the menu's seven): Configuración › Facturación (FEL) and the dashboard's notice link to it.

/** Paths that only make sense signed in; a signed-out visit gets the toast and redirect of §6. */
export const OWNER_ONLY_PATHS = ['/dashboard', '/products', '/orders', '/pos', '/reports', '/invoices', '/inventory', '/settings', '/profile'] as const;

export const PUBLIC_PATHS = {
  login: '/login',
  register: '/register',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  demoShop: '/demo',
} as const;

export function isOwnerOnlyPath(pathname: string): boolean {
  const path = pathname.replace(/\/+$/, '') || '/';
  return OWNER_ONLY_PATHS.some((p) => path === p || path.startsWith(`${p}/`));
}

/**
 * The owner page a signed-out visit asked for (?next= on /login, set by LoggedOutRedirect), where the
 * login goes afterwards; only a path of this site (no '//host', no scheme), else null.
 */
export function nextPathFrom(search: string): string | null {
  const next = new URLSearchParams(search).get('next');
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return null;
  return isOwnerOnlyPath(next.split(/[?#]/)[0]) ? next : null;
}

/** /login with the page to return to. */
export function loginPathFor(next: string): string {
  return isOwnerOnlyPath(next.split(/[?#]/)[0]) ? `${PUBLIC_PATHS.login}?next=${encodeURIComponent(next)}` : PUBLIC_PATHS.login;
}
