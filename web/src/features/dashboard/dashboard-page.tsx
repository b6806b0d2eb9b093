import { Alert, Button, Space } from 'antd';
import { Chip, LoadingLines, Panel } from '../../components/panel/panel';
import {
  BarChartOutlined,
  DownloadOutlined,
  EnvironmentOutlined,
  ExportOutlined,
  InboxOutlined,
  MessageOutlined,
  ShareAltOutlined,
  ShopOutlined,
  ShoppingCartOutlined,
  ShoppingOutlined,
  WhatsAppOutlined,
} from '@ant-design/icons';
import { ORDER_STATUS_COLORS, ORDER_STATUS_LABELS, type CurrentUser, type OrderStatus, type StatsTrend } from '@tiendita/contracts';
import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { useStore } from '../store/api/get-store';
import { useProducts } from '../products/api/get-products';
import { serverMessageOr } from '../../lib/api-error';
import { formatCount, formatDateTime, formatLongDate, formatMoney } from '../../lib/format';
import { isUnauthorizedError } from '../../lib/query-client';
import { subscriptionsCsv, useRecentOrders, useSalesInsights, useStats, useSubscriptions } from './api/dashboard-api';
import { ConnectionBanner } from './components/connection-banner';
import { FelDashboardNotice } from '../fel/components/fel-dashboard-notice';
import { FirstSteps } from './components/first-steps';
import { markShopShared, shopShared } from './lib/first-steps';
import './dashboard.css';

// Dialogs opened on a click: their code (the AI caption contract and zod, the text area) loads then, not with the dashboard.
const ShareDialog = lazy(() => import('./components/share-dialog').then((m) => ({ default: m.ShareDialog })));
const CustomerAssistantDialog = lazy(() => import('./components/customer-assistant').then((m) => ({ default: m.CustomerAssistantDialog })));


function TrendText({ trend }: { trend: StatsTrend | undefined }) {
  if (!trend || trend.change === null) return <span className="stat__trend stat__trend--none">Sin datos de ayer a esta hora</span>;
  const up = trend.change >= 0;
  return (
    <span className={`stat__trend ${up ? 'stat__trend--up' : 'stat__trend--down'}`}>
      {up ? '+' : ''}
      {trend.change.toFixed(1)}% vs. ayer a esta hora
    </span>
  );
}

function StatCards() {
  const stats = useStats();
  // Four placeholders of the cards' size, so nothing below moves when the figures arrive.
  if (stats.isPending)
    return (
      <div className="dash-stats" aria-busy="true">
        {[0, 1, 2, 3].map((i) => (
          <Panel key={i} className="stat"><LoadingLines rows={3} label="Cargando el resumen de hoy" /></Panel>
        ))}
      </div>
    );
  if (stats.isError) return null;
  const s = stats.data;
  return (
    <div className="dash-stats" aria-label="Resumen de hoy">
      <Panel className="stat"><ShoppingCartOutlined className="stat__icon" /><div><p className="stat__label">Pedidos Hoy</p><p className="stat__value" data-testid="stat-today-orders">{formatCount(s.todayOrders)}</p><TrendText trend={s.trends.todayOrders} /></div></Panel>
      <Panel className="stat"><BarChartOutlined className="stat__icon" /><div><p className="stat__label">Ventas Hoy</p><p className="stat__value" data-testid="stat-today-sales">{formatMoney(s.todaySales)}</p><TrendText trend={s.trends.todaySales} /></div></Panel>
      <Panel className="stat"><ShoppingOutlined className="stat__icon" /><div><p className="stat__label">Productos</p><p className="stat__value">{formatCount(s.totalProducts)}</p><span className={s.lowStockProducts > 0 ? 'stat__trend stat__trend--down' : 'stat__trend stat__trend--none'}>{s.lowStockProducts} con stock bajo</span></div></Panel>
      <Panel className="stat"><WhatsAppOutlined className="stat__icon stat__icon--wa" /><div><p className="stat__label">WhatsApp</p><p className="stat__value">{formatCount(s.whatsappOrders)}</p><span className="stat__trend stat__trend--none">pedidos pendientes</span></div></Panel>
    </div>
  );
}

function InsightsCard() {
  const insights = useSalesInsights();
  return (
    <Panel title="Análisis de ventas con IA" className="dash-card">
      {insights.isPending ? (
        <LoadingLines />
      ) : insights.isError ? (
        <Alert
          type="warning"
          showIcon
          title="No se pudo cargar el análisis"
          description={isUnauthorizedError(insights.error) ? 'Tu sesión terminó: vuelve a iniciar sesión.' : 'El servidor tiene un problema temporal. Inténtalo de nuevo en unos momentos.'}
          action={<Button size="small" onClick={() => void insights.refetch()}>Reintentar</Button>}
        />
      ) : (
        <div className="insights">
          {([['Resumen', insights.data.insights], ['Recomendaciones', insights.data.recommendations], ['Tendencias', insights.data.trends]] as const).map(([title, items]) =>
            items.length ? (
              <div key={title}>
                <p className="insights__title">{title}</p>
                <ul>{items.map((i) => <li key={i}>{i}</li>)}</ul>
              </div>
            ) : null,
          )}
        </div>
      )}
    </Panel>
  );
}

function CustomerAssistant({ customerName }: { customerName: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="small" icon={<MessageOutlined />} onClick={() => setOpen(true)}>Responder</Button>
      {open ? (
        <Suspense fallback={null}>
          <CustomerAssistantDialog customerName={customerName} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}

function RecentOrdersCard() {
  const orders = useRecentOrders();
  return (
    <Panel title="Pedidos recientes" className="dash-card" extra={<Link to="/orders">Ver todos</Link>}>
      {orders.isPending ? <LoadingLines /> : orders.isError ? <Alert type="error" title="No se pudieron cargar los pedidos" /> : orders.data.length === 0 ? (
        <p className="dash-empty">No se encontraron pedidos</p>
      ) : (
        <ul className="recent">
          {orders.data.map((o) => (
            <li key={o.id} className="recent__item">
              <div className="recent__meta">
                <p className="recent__title">{o.code} · {o.customerName}</p>
                <p className="recent__desc">{`${formatDateTime(o.createdAt)} · ${o.orderType === 'pos' ? 'POS' : 'WhatsApp'}`}</p>
              </div>
              <div className="recent__amount">
                <strong>{formatMoney(o.total)}</strong>
                <Chip color={ORDER_STATUS_COLORS[o.status as OrderStatus]}>{ORDER_STATUS_LABELS[o.status as OrderStatus] ?? o.status}</Chip>
              </div>
              <CustomerAssistant customerName={o.customerName} />
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}

function SubscriptionsCard() {
  const subs = useSubscriptions();
  const download = () => {
    const blob = new Blob([subscriptionsCsv(subs.data ?? [])], { type: 'text/csv;charset=utf-8' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = 'suscriptores.csv';
    a.click();
    URL.revokeObjectURL(a.href);
  };
  return (
    <Panel title="Suscriptores" className="dash-card" extra={<Button size="small" icon={<DownloadOutlined />} disabled={!subs.data?.length} onClick={download}>Exportar CSV</Button>}>
      {subs.isPending ? <LoadingLines /> : subs.isError ? <Alert type="warning" title="No se pudieron cargar los suscriptores" /> : subs.data.length === 0 ? (
        <p className="dash-empty">Aún no tienes suscriptores</p>
      ) : (
        <ul className="subs">
          {subs.data.slice(0, 5).map((s) => (
            <li key={s.id} className="subs__item">{s.name ?? s.email} · {s.email} <Chip>{s.provider}</Chip></li>
          ))}
        </ul>
      )}
    </Panel>
  );
}

function ProductsAndPreview({ storeName }: { storeName: string }) {
  // The preview shows what a shopper sees: active products only, at the price they pay.
  const products = useProducts({ page: 1, limit: 4, sortBy: 'createdAt', sortOrder: 'desc', isActive: true });
  const list = products.data ? ('products' in products.data ? products.data.products : (products.data as unknown as never[])) : [];
  return (
    <>
      <Panel title="Productos" className="dash-card" extra={<Link to="/products">Administrar</Link>}>
        <p>Agrega, edita y organiza los productos de tu tienda.</p>
        <Space wrap><Link to="/products"><Button type="primary">Gestionar productos</Button></Link><Link to="/inventory"><Button>Inventario</Button></Link></Space>
      </Panel>
      <Panel title="Vista del cliente" className="dash-card">
        <div className="phone" aria-label="Vista previa de la tienda en un teléfono">
          <div className="phone__bar">{storeName}</div>
          <div className="phone__grid">
            {list.slice(0, 4).map((p: { id: string; name: string; price: number; finalPrice: number; imageUrl: string | null }) => (
              <div key={p.id} className="phone__item">
                {p.imageUrl ? <img src={p.imageUrl} alt="" /> : <div className="phone__noimg"><InboxOutlined /></div>}
                <span>{p.name}</span>
                <strong>
                  {formatMoney(p.finalPrice)}
                  {p.finalPrice < p.price ? <s className="phone__was">{formatMoney(p.price)}</s> : null}
                </strong>
              </div>
            ))}
            {list.length === 0 ? <p className="phone__empty">No hay productos</p> : null}
          </div>
        </div>
      </Panel>
    </>
  );
}

/** The owner's dashboard (spec 000 §2): stats with computed trends, store header, reminders and cards. */
export function DashboardPage({ user }: { user: CurrentUser }) {
  const store = useStore();
  const [shareOpen, setShareOpen] = useState(false);
  const [shared, setShared] = useState(() => shopShared(user.storeId));
  const onShared = () => {
    markShopShared(user.storeId);
    setShared(true);
  };
  const [reminderHidden, setReminderHidden] = useState(() => sessionStorage.getItem('tiendita.whatsappReminder') === 'hidden');
  const storeUrl = store.data ? `${window.location.origin}/${store.data.subdomain}` : '';
  return (
    <div className="dashboard">
      <ConnectionBanner />
      {store.isError ? (
        <Alert type="error" showIcon style={{ marginBottom: 20 }} title="No se pudo cargar tu tienda" description={serverMessageOr(store.error, 'Inténtalo de nuevo en unos momentos.')} />
      ) : (
        // The greeting needs only the owner, so it shows at once (it is the screen's largest text); the
        // store's name, link and buttons fill in when the store answers.
          <section className="welcome" aria-label="Bienvenida" aria-busy={store.isPending}>
            <div>
              <p>¡Hola, {user.firstName}! Hoy es {formatLongDate(new Date())}.</p>
              {store.data ? (
                <>
                  <h1>{store.data.name}</h1>
                  <div className="welcome__meta">
                    <span className="welcome__chip">
                      <ShopOutlined aria-hidden="true" />
                      <a className="welcome__link" href={`/${store.data.subdomain}`} target="_blank" rel="noopener" onClick={onShared}>
                        {storeUrl.replace(/^https?:\/\//, '')}
                      </a>
                    </span>
                    {store.data.department ? <span className="welcome__chip"><EnvironmentOutlined aria-hidden="true" />{store.data.department}</span> : null}
                  </div>
                </>
              ) : (
                <div className="welcome__pending"><LoadingLines rows={2} label="Cargando tu tienda" /></div>
              )}
            </div>
            {store.data ? (
              <Space wrap>
                <Button icon={<ShareAltOutlined />} onClick={() => setShareOpen(true)}>Compartir</Button>
                <Button type="primary" icon={<ExportOutlined />} href={`/${store.data.subdomain}`} target="_blank" rel="noopener" onClick={onShared}>Ver mi tienda</Button>
              </Space>
            ) : null}
          </section>
      )}
      {store.data ? (
        <>
          {shareOpen ? (
            <Suspense fallback={null}>
              <ShareDialog open onClose={() => setShareOpen(false)} onShared={onShared} url={storeUrl} name={store.data.name} />
            </Suspense>
          ) : null}
          <FirstSteps storeId={user.storeId} shared={shared} onShare={onShared} />
          {!store.data.whatsappNumber && !reminderHidden ? (
            <Alert
              className="wa-reminder"
              type="warning"
              showIcon
              icon={<WhatsAppOutlined />}
              closable={{ onClose: () => { sessionStorage.setItem('tiendita.whatsappReminder', 'hidden'); setReminderHidden(true); } }}
              title="Configura tu WhatsApp"
              description={<>Tus clientes te envían los pedidos por WhatsApp. <Link to="/settings#whatsapp">Agregar número de WhatsApp</Link></>}
            />
          ) : null}
        </>
      ) : null}
      {/* The rest waits for the store: drawn under its placeholder, it was pushed down when the welcome and
          first steps arrived (Lighthouse counted a layout shift of 0.6). */}
      {store.isPending ? null : (
      <>
      <FelDashboardNotice />
      <StatCards />
      <div className="dash-grid">
        <div className="dash-col">
          <InsightsCard />
          <RecentOrdersCard />
          <SubscriptionsCard />
        </div>
        <div className="dash-col">
          <Panel title="Acciones rápidas" className="dash-card">
            <div className="quick">
              <Link to="/pos"><Button block icon={<ShoppingCartOutlined />}>Abrir POS</Button></Link>
              <Link to="/reports"><Button block icon={<BarChartOutlined />}>Generar reporte</Button></Link>
              <Link to="/inventory"><Button block icon={<InboxOutlined />}>Actualizar inventario</Button></Link>
              <Link to="/settings#whatsapp"><Button block icon={<WhatsAppOutlined />}>Configurar WhatsApp</Button></Link>
            </div>
          </Panel>
          <ProductsAndPreview storeName={store.data?.name ?? ''} />
        </div>
      </div>
      </>
      )}
    </div>
  );
}
