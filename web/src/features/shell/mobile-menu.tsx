import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { Button, Drawer, Menu } from 'antd';
import { LogoutOutlined } from '@ant-design/icons';
import type { CurrentUser } from '@tiendita/contracts';
import { Logo } from '../../components/brand/logo';
import { OWNER_NAV } from '../../app/paths';
import { LOGOUT_NAVIGATION_URL } from '../auth/api/logout';

/** The phone's slide-out menu (spec 000 §2): the owner, the seven sections and 'Cerrar Sesión' (GET /api/logout). */
export function MobileMenu({ user, avatar, selected, open, onClose }: { user: CurrentUser; avatar: ReactNode; selected: string; open: boolean; onClose: () => void }) {
  const navigate = useNavigate();
  const fullName = `${user.firstName} ${user.lastName}`.trim();
  return (
    <Drawer
      id="menu-movil"
      title={<Logo size={26} />}
      placement="left"
      size={280}
      open={open}
      onClose={onClose}
      className="shell__drawer"
      styles={{ body: { padding: 0, display: 'flex', flexDirection: 'column' } }}
    >
      <div className="shell__drawer-user">
        {avatar}
        <div>
          <strong>{fullName}</strong>
          <span>{user.email}</span>
        </div>
      </div>
      <nav aria-label="Secciones">
        <Menu
          mode="inline"
          selectedKeys={[selected]}
          items={OWNER_NAV.map((item) => ({ key: item.path, label: item.label }))}
          onClick={({ key }) => {
            onClose();
            navigate(key);
          }}
        />
      </nav>
      <div className="shell__drawer-footer">
        <Button block danger icon={<LogoutOutlined />} href={LOGOUT_NAVIGATION_URL}>
          Cerrar Sesión
        </Button>
      </div>
    </Drawer>
  );
}
