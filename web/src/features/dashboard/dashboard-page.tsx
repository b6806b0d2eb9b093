import { Alert, App, Button, Card, Empty, Input, List, Modal, Result, Skeleton, Space, Tag, Typography } from 'antd';
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
import { useState } from 'react';
import { Link } from 'react-router';
import { useStore } from '../store/api/get-store';
import { useProducts } from '../products/api/get-products';
import { serverMessageOr } from '../../lib/api-error';
import { formatCount, formatDateTime, formatLongDate, formatMoney } from '../../lib/format';
import { apiRequest, isUnauthorizedError } from '../../lib/query-client';
import { subscriptionsCsv, useRecentOrders, useSalesInsights, useStats, useSubscriptions } from './api/dashboard-api';
import { ConnectionBanner } from './components/connection-banner';
import { FelDashboardNotice } from '../fel/components/fel-dashboard-notice';
import { FirstSteps } from './components/first-steps';
import { ShareDialog } from './components/share-dialog';
import { markShopShared, shopShared } from './lib/first-steps';
import './dashboard.css';


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
  if (stats.isPending) return <Card><Skeleton active paragraph={{ rows: 2 }} /></Card>;
  if (stats.isError) return null;
  const s = stats.data;
  return (
    <div className="dash-stats" aria-label="Resumen de hoy">
      <Card className="stat"><ShoppingCartOutlined className="stat__icon" /><div><p className="stat__label">Pedidos Hoy</p><p className="stat__value" data-testid="stat-today-orders">{formatCount(s.todayOrders)}</p><TrendText trend={s.trends.todayOrders} /></div></Card>
      <Card className="stat"><BarChartOutlined className="stat__icon" /><div><p className="stat__label">Ventas Hoy</p><p className="stat__value" data-testid="stat-today-sales">{formatMoney(s.todaySales)}</p><TrendText trend={s.trends.todaySales} /></div></Card>
      <Card className="stat"><ShoppingOutlined className="stat__icon" /><div><p className="stat__label">Productos</p><p className="stat__value">{formatCount(s.totalProducts)}</p><span className={s.lowStockProducts > 0 ? 'stat__trend stat__trend--down' : 'stat__trend stat__trend--none'}>{s.lowStockProducts} con stock bajo</span></div></Card>
      <Card className="stat"><WhatsAppOutlined className="stat__icon stat__icon--wa" /><div><p className="stat__label">WhatsApp</p><p className="stat__value">{formatCount(s.whatsappOrders)}</p><span className="stat__trend stat__trend--none">pedidos pendientes</span></div></Card>
    </div>
  );
}

function InsightsCard() {
  const insights = useSalesInsights();
  return (
    <Card title="Análisis de ventas con IA" className="dash-card">
      {insights.isPending ? (
        <Skeleton active />
      ) : insights.isError ? (
        <Result
          status="warning"
          title="No se pudo cargar el análisis"
          subTitle={isUnauthorizedError(insights.error) ? 'Tu sesión terminó: vuelve a iniciar sesión.' : 'El servidor tiene un problema temporal. Inténtalo de nuevo en unos momentos.'}
          extra={<Button onClick={() => void insights.refetch()}>Reintentar</Button>}
        />
      ) : (
        <div className="insights">
          {([['Resumen', insights.data.insights], ['Recomendaciones', insights.data.recommendations], ['Tendencias', insights.data.trends]] as const).map(([title, items]) =>
            items.length ? (
              <div key={title}>
                <Typography.Text strong>{title}</Typography.Text>
                <ul>{items.map((i) => <li key={i}>{i}</li>)}</ul>
              </div>
            ) : null,
          )}
        </div>
      )}
    </Card>
  );
}

function CustomerAssistant({ customerName }: { customerName: string }) {
  const [open, setOpen] = useState(false);
  const [message, setMessage] = useState('');
  const [reply, setReply] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { message: toast } = App.useApp();
  const ask = async () => {
    setBusy(true);
    try {
      const res = await apiRequest('POST', '/api/ai/customer-response', { customerMessage: message, customerName, productName: '' });
      setReply(((await res.json()) as { suggestedResponse: string }).suggestedResponse);
    } catch {
      void toast.error('Error: No se pudo generar la respuesta. Intenta de nuevo.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button size="small" icon={<MessageOutlined />} onClick={() => setOpen(true)}>Responder</Button>
      <Modal open={open} onCancel={() => setOpen(false)} title={`Asistente de respuesta para ${customerName}`} okText="Sugerir respuesta" onOk={() => void ask()} confirmLoading={busy} okButtonProps={{ disabled: !message.trim() }}>
        <Input.TextArea rows={3} value={message} onChange={(e) => setMessage(e.target.value)} placeholder="Pega aquí el mensaje del cliente" />
        {reply ? <Typography.Paragraph copyable style={{ marginTop: 12 }}>{reply}</Typography.Paragraph> : null}
      </Modal>
    </>
  );
}

function RecentOrdersCard() {
  const orders = useRecentOrders();
  return (
    <Card title="Pedidos recientes" className="dash-card" extra={<Link to="/orders">Ver todos</Link>}>
      {orders.isPending ? <Skeleton active /> : orders.isError ? <Alert type="error" title="No se pudieron cargar los pedidos" /> : orders.data.length === 0 ? (
        <Empty description="No se encontraron pedidos" />
      ) : (
        <List
          dataSource={orders.data}
          renderItem={(o) => (
            <List.Item actions={[<CustomerAssistant key="a" customerName={o.customerName} />]}>
              {/* Not List.Item.Meta: its title is an h4, which would skip heading levels under the page's h1. */}
              <div className="recent__meta">
                <p className="recent__title">{o.code} · {o.customerName}</p>
                <p className="recent__desc">{`${formatDateTime(o.createdAt)} · ${o.orderType === 'pos' ? 'POS' : 'WhatsApp'}`}</p>
              </div>
              <Space direction="vertical" align="end" size={0}>
                <strong>{formatMoney(o.total)}</strong>
                <Tag color={ORDER_STATUS_COLORS[o.status as OrderStatus]}>{ORDER_STATUS_LABELS[o.status as OrderStatus] ?? o.status}</Tag>
              </Space>
            </List.Item>
          )}
        />
      )}
    </Card>
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
    <Card title="Suscriptores" className="dash-card" extra={<Button size="small" icon={<DownloadOutlined />} disabled={!subs.data?.length} onClick={download}>Exportar CSV</Button>}>
      {subs.isPending ? <Skeleton active /> : subs.isError ? <Alert type="warning" title="No se pudieron cargar los suscriptores" /> : subs.data.length === 0 ? (
        <Empty description="Aún no tienes suscriptores" />
      ) : (
        <List size="small" dataSource={subs.data.slice(0, 5)} renderItem={(s) => <List.Item>{s.name ?? s.email} · {s.email} <Tag>{s.provider}</Tag></List.Item>} />
      )}
    </Card>
  );
}

function ProductsAndPreview({ storeName }: { storeName: string }) {
  // The preview shows what a shopper sees: active products only, at the price they pay.
  const products = useProducts({ page: 1, limit: 4, sortBy: 'createdAt', sortOrder: 'desc', isActive: true });
  const list = products.data ? ('products' in products.data ? products.data.products : (products.data as unknown as never[])) : [];
  return (
    <>
      <Card title="Productos" className="dash-card" extra={<Link to="/products">Administrar</Link>}>
        <p>Agrega, edita y organiza los productos de tu tienda.</p>
        <Space wrap><Link to="/products"><Button type="primary">Gestionar productos</Button></Link><Link to="/inventory"><Button>Inventario</Button></Link></Space>
      </Card>
      <Card title="Vista del cliente" className="dash-card">
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
      </Card>
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
      {store.isPending ? (
        <Card style={{ marginBottom: 20 }}><Skeleton active paragraph={{ rows: 1 }} /></Card>
      ) : store.isError ? (
        <Alert type="error" showIcon style={{ marginBottom: 20 }} title="No se pudo cargar tu tienda" description={serverMessageOr(store.error, 'Inténtalo de nuevo en unos momentos.')} />
      ) : (
        <>
          <section className="welcome" aria-label="Bienvenida">
            <div>
              <p>¡Hola, {user.firstName}! Hoy es {formatLongDate(new Date())}.</p>
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
            </div>
            <Space wrap>
              <Button icon={<ShareAltOutlined />} onClick={() => setShareOpen(true)}>Compartir</Button>
              <Button type="primary" icon={<ExportOutlined />} href={`/${store.data.subdomain}`} target="_blank" rel="noopener" onClick={onShared}>Ver mi tienda</Button>
            </Space>
          </section>
          <ShareDialog open={shareOpen} onClose={() => setShareOpen(false)} onShared={onShared} url={storeUrl} name={store.data.name} />
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
      )}
      <FelDashboardNotice />
      <StatCards />
      <div className="dash-grid">
        <div className="dash-col">
          <InsightsCard />
          <RecentOrdersCard />
          <SubscriptionsCard />
        </div>
        <div className="dash-col">
          <Card title="Acciones rápidas" className="dash-card">
            <div className="quick">
              <Link to="/pos"><Button block icon={<ShoppingCartOutlined />}>Abrir POS</Button></Link>
              <Link to="/reports"><Button block icon={<BarChartOutlined />}>Generar reporte</Button></Link>
              <Link to="/inventory"><Button block icon={<InboxOutlined />}>Actualizar inventario</Button></Link>
              <Link to="/settings#whatsapp"><Button block icon={<WhatsAppOutlined />}>Configurar WhatsApp</Button></Link>
            </div>
          </Card>
          <ProductsAndPreview storeName={store.data?.name ?? ''} />
        </div>
      </div>
    </div>
  );
}
