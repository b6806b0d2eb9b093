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

/** Paths that only make sense signed in; a signed-out visit gets the toast and redirect of §6. */
export const OWNER_ONLY_PATHS = ['/dashboard', '/products', '/orders', '/pos', '/reports', '/inventory', '/settings'] as const;

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
