import { Alert, Button, Space } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useLogout } from '../../auth/api/logout';
import { useStats } from '../api/dashboard-api';

/** Shown only when the dashboard lost its connection to the server: retry, or sign out. */
export function ConnectionBanner() {
  const stats = useStats();
  const logout = useLogout();
  if (!stats.isError) return null;
  return (
    <Alert
      className="connection"
      type="error"
      showIcon
      title="Sin conexión con el servidor"
      description="Tus datos pueden no estar al día."
      action={
        <Space>
          <Button size="small" icon={<ReloadOutlined />} onClick={() => void stats.refetch()}>
            Reintentar
          </Button>
          <Button size="small" danger onClick={() => logout.mutate(undefined, { onSettled: () => window.location.assign('/') })}>
            Cerrar sesión
          </Button>
        </Space>
      }
    />
  );
}
