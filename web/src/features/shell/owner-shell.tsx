import { lazy, Suspense, useEffect, useState } from 'react';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { Avatar, Button, Dropdown, Layout, Menu, type MenuProps } from 'antd';
import { LogoutOutlined, MenuOutlined, SettingOutlined, UserOutlined } from '@ant-design/icons';
import type { CurrentUser } from '@tiendita/contracts';
import { Logo } from '../../components/brand/logo';
import { toast } from '../../components/toast/toast-store';
import { serverMessageOr } from '../../lib/api';
import { ToastMessages } from '../../lib/messages';
import { OWNER_NAV } from '../../app/paths';
import { useLogout } from '../auth/api/logout';
import { NotificationBell } from './notification-bell';
import { useMediaQuery } from './use-media-query';
import './shell.css';

// The phone's slide-out menu (antd's Drawer) loads the first time it opens.
const MobileMenu = lazy(() => import('./mobile-menu').then((m) => ({ default: m.MobileMenu })));

/** Below this width the navigation moves into the slide-out menu (spec 000 §9). */
export const MOBILE_MENU_BREAKPOINT_PX = 768;

function selectedNavKey(pathname: string): string {
  if (pathname === '/' || pathname.startsWith('/dashboard')) return '/';
  return OWNER_NAV.find((item) => item.path !== '/' && pathname.startsWith(item.path))?.path ?? '';
}

const navItems: MenuProps['items'] = OWNER_NAV.map((item) => ({ key: item.path, label: <Link to={item.path}>{item.label}</Link> }));

function useLoadedOnce(flag: boolean): boolean {
  const [loaded, setLoaded] = useState(flag);
  useEffect(() => {
    if (flag) setLoaded(true);
  }, [flag]);
  return loaded || flag;
}

/** The owner's frame: top navigation with 7 entries, bell and profile menu; a slide-out menu on phones. */
export function OwnerShell({ user }: { user: CurrentUser }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const wide = useMediaQuery(`(min-width: ${MOBILE_MENU_BREAKPOINT_PX}px)`);
  const [mobileOpen, setMobileOpen] = useState(false);
  // Mounted from the first opening on, so it slides out and back in as antd's Drawer does.
  const menuLoaded = useLoadedOnce(mobileOpen);
  const logout = useLogout();

  useEffect(() => {
    if (wide) setMobileOpen(false);
  }, [wide]);

  const signOut = () =>
    logout.mutate(undefined, {
      onSuccess: () => window.location.assign('/'),
      onError: (error) => toast({ title: ToastMessages.logoutFailed.title, description: serverMessageOr(error, ToastMessages.logoutFailed.fallback), variant: 'destructive' }),
    });

  const profileItems: MenuProps['items'] = [
    { key: 'profile', icon: <UserOutlined />, label: 'Mi Perfil', onClick: () => navigate('/profile') },
    { key: 'settings', icon: <SettingOutlined />, label: 'Configuración', onClick: () => navigate('/settings') },
    { type: 'divider' },
    { key: 'logout', icon: <LogoutOutlined />, label: 'Cerrar Sesión', danger: true, onClick: signOut },
  ];

  const fullName = `${user.firstName} ${user.lastName}`.trim();
  const selected = selectedNavKey(pathname);
  const avatar = (
    <Avatar src={user.profileImageUrl ?? undefined} style={{ background: '#0ea5e9', flex: 'none' }} alt="">
      {user.firstName.charAt(0).toUpperCase()}
    </Avatar>
  );

  return (
    <Layout className="shell">
      <Layout.Header className="shell__header">
        {!wide ? (
          <Button
            type="text"
            className="shell__hamburger"
            icon={<MenuOutlined />}
            aria-label="Abrir menú"
            aria-expanded={mobileOpen}
            aria-controls="menu-movil"
            onClick={() => setMobileOpen(true)}
          />
        ) : null}
        <Link to="/" className="shell__brand" aria-label="Tiendita, ir al Dashboard">
          <Logo size={28} />
        </Link>
        {wide ? (
          <nav className="shell__nav" aria-label="Secciones">
            <Menu mode="horizontal" selectedKeys={[selected]} items={navItems} className="shell__menu" />
          </nav>
        ) : (
          <span className="shell__spacer" />
        )}
        <div className="shell__tools">
          <NotificationBell />
          <Dropdown menu={{ items: profileItems }} trigger={['click']} placement="bottomRight" autoFocus>
            <Button type="text" className="shell__profile" aria-label={`Menú de perfil de ${fullName}`}>
              {avatar}
              {wide ? <span className="shell__profile-name">{user.firstName}</span> : null}
            </Button>
          </Dropdown>
        </div>
      </Layout.Header>
      {menuLoaded ? (
        <Suspense fallback={null}>
          <MobileMenu user={user} avatar={avatar} selected={selected} open={mobileOpen && !wide} onClose={() => setMobileOpen(false)} />
        </Suspense>
      ) : null}
      <Layout.Content className="shell__content">
        <Outlet />
      </Layout.Content>
    </Layout>
  );
}
