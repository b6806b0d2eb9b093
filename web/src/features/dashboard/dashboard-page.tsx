import { Alert, Card, Result, Skeleton } from 'antd';
import { EnvironmentOutlined, ShopOutlined, ToolOutlined } from '@ant-design/icons';
import type { CurrentUser } from '@tiendita/contracts';
import { useStore } from '../store/api/get-store';
import { serverMessageOr } from '../../lib/api-error';
import { formatLongDate } from '../../lib/format';

/** The dashboard: the welcome header with the store's name and department; its cards come in a later issue. */
export function DashboardPage({ user }: { user: CurrentUser }) {
  const store = useStore();
  return (
    <>
      {store.isPending ? (
        <Card style={{ marginBottom: 20 }}>
          <Skeleton active paragraph={{ rows: 1 }} />
        </Card>
      ) : store.isError ? (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 20 }}
          title="No se pudo cargar tu tienda"
          description={serverMessageOr(store.error, 'Inténtalo de nuevo en unos momentos.')}
        />
      ) : (
        <section className="welcome" aria-label="Bienvenida">
          <div>
            <p>
              ¡Hola, {user.firstName}! Hoy es {formatLongDate(new Date())}.
            </p>
            <h1>{store.data.name}</h1>
            <div className="welcome__meta">
              <span className="welcome__chip">
                <ShopOutlined aria-hidden="true" />
                tienda/{store.data.subdomain}
              </span>
              {store.data.department ? (
                <span className="welcome__chip">
                  <EnvironmentOutlined aria-hidden="true" />
                  {store.data.department}
                </span>
              ) : null}
            </div>
          </div>
        </section>
      )}
      <Card>
        <Result
          icon={<ToolOutlined style={{ color: '#0ea5e9' }} />}
          title="En construcción"
          subTitle="Aquí verás tus pedidos y ventas de hoy, tus productos con poco stock y los pedidos por WhatsApp. Estamos terminando esta sección."
        />
      </Card>
    </>
  );
}
