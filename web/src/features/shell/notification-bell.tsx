import { Button, Popover } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { OWNER_STOCK_LABELS, ownerStockLevel } from '@tiendita/contracts';
import { formatMoney } from '../../lib/format';
import { useStockAlerts } from '../inventory/api/inventory-api';
import { usePendingOrders } from '../orders/api/get-pending-orders';

/**
 * The bell: orders waiting for confirmation (from ordering) and products at or below their minimum
 * (from inventory), each polled every minute and on focus with one small indexed query. Each entry
 * links to its screen: the orders list filtered to pending, the inventory filtered to low stock.
 */
export function NotificationBell() {
  const alerts = useStockAlerts();
  const pending = usePendingOrders();
  const orders = pending.data?.orders ?? [];
  const waiting = pending.data?.total ?? 0;
  const low = alerts.data?.count ?? 0;
  const lowProducts = alerts.data?.products ?? [];
  const shortfalls = alerts.data?.shortfalls ?? [];
  const unread = waiting + low + shortfalls.length;
  const label = unread ? `Notificaciones: ${unread} sin leer` : 'Notificaciones';
  const content =
    unread === 0 ? (
      <p className="shell__empty">No tienes notificaciones nuevas.</p>
    ) : (
      <div className="shell__notifications">
        {waiting > 0 && (
          <ul className="shell__alerts" aria-label="Pedidos por confirmar">
            {orders.map((o) => (
              <li key={o.id}>
                <Link to="/orders?status=pending">
                  Pedido {o.code} por confirmar: {o.customerName || 'Sin nombre'} ({formatMoney(o.total)})
                </Link>
              </li>
            ))}
            {waiting > orders.length && (
              <li>
                <Link to="/orders?status=pending">Ver los {waiting} pedidos por confirmar</Link>
              </li>
            )}
          </ul>
        )}
        {shortfalls.length > 0 && (
          <ul className="shell__alerts" aria-label="Ventas sin existencias">
            {shortfalls.map((s) => (
              <li key={s.productId}>
                <Link to="/inventory">{s.message}</Link>
              </li>
            ))}
          </ul>
        )}
        {low > 0 && (
          <ul className="shell__alerts" aria-label="Alertas de stock bajo">
            {lowProducts.map((p) => (
              <li key={p.id}>
                <Link to="/inventory?stock=low">
                  {OWNER_STOCK_LABELS[ownerStockLevel(p.available, p.minimum)].label}: {p.name} ({p.available} {p.available === 1 ? 'unidad' : 'unidades'})
                </Link>
              </li>
            ))}
            {low > lowProducts.length && (
              <li>
                <Link to="/inventory?stock=low">Ver los {low} productos con stock bajo</Link>
              </li>
            )}
          </ul>
        )}
      </div>
    );
  return (
    <Popover trigger="click" placement="bottomRight" title="Notificaciones" content={content}>
      <Button type="text" shape="circle" aria-label={label} className="shell__bell">
        <span className="shell__bell-icon">
          <BellOutlined style={{ fontSize: 20 }} />
          {unread > 0 ? <span className="shell__badge" aria-hidden="true">{unread > 99 ? '99+' : unread}</span> : null}
        </span>
      </Button>
    </Popover>
  );
}
