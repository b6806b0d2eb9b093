import { Alert, Empty, Table, Typography } from 'antd';
import type { TableProps } from 'antd';
import type { PriceHistoryEntry } from '@tiendita/contracts';
import { formatDateTime, formatMoney } from '../../../lib/format';
import { serverMessageOr } from '../../../lib/api';
import { useMediaQuery } from '../../shell/use-media-query';
import { usePriceHistory } from '../api/get-price-history';

const percent = (n: number) => `${n.toLocaleString('es-GT', { maximumFractionDigits: 2 })}%`;

function PriceChange({ entry: e }: { entry: PriceHistoryEntry }) {
  return (
    <span>
      {e.oldPrice === null ? 'Precio inicial: ' : `${formatMoney(e.oldPrice)} → `}
      <Typography.Text strong>{formatMoney(e.newPrice)}</Typography.Text>
    </span>
  );
}

const discountChange = (e: PriceHistoryEntry) =>
  e.oldDiscountPercentage === null ? percent(e.newDiscountPercentage) : `${percent(e.oldDiscountPercentage)} → ${percent(e.newDiscountPercentage)}`;

// The actor's name (identity's, as catalog copies it); never the raw user id.
const byName = (e: PriceHistoryEntry) => e.changedByName ?? 'Usuario';

const WIDE: TableProps<PriceHistoryEntry>['columns'] = [
  { title: 'Fecha', dataIndex: 'createdAt', render: (v: string) => formatDateTime(v), width: 150 },
  { title: 'Precio', key: 'price', render: (_, e) => <PriceChange entry={e} /> },
  { title: 'Descuento', key: 'discount', render: (_, e) => discountChange(e) },
  { title: 'Razón', dataIndex: 'changeReason', render: (v: string | null) => v || '—' },
  { title: 'Por', key: 'changedBy', width: 140, render: (_, e) => byName(e) },
];

/** On a phone every change is one cell with its lines stacked, so the table fits the dialog without scrolling sideways. */
const NARROW: TableProps<PriceHistoryEntry>['columns'] = [
  {
    title: 'Cambios de precio',
    key: 'change',
    render: (_, e) => (
      <div className="price-history__entry">
        <PriceChange entry={e} />
        <span>Descuento: {discountChange(e)}</span>
        {e.changeReason && <span>Razón: {e.changeReason}</span>}
        <Typography.Text type="secondary">
          {formatDateTime(e.createdAt)} · {byName(e)}
        </Typography.Text>
      </div>
    ),
  },
];

/** The product's price changes: old and new price and discount, the reason, who and when. */
export function PriceHistory({ productId, active }: { productId: string; active: boolean }) {
  const history = usePriceHistory(productId, active);
  const phone = useMediaQuery('(max-width: 640px)');
  if (history.isError) {
    return <Alert type="error" showIcon title="No se pudo cargar el historial de precios" description={serverMessageOr(history.error, 'Inténtalo de nuevo.')} />;
  }
  return (
    <Table<PriceHistoryEntry>
      size="small"
      rowKey="id"
      loading={history.isLoading}
      dataSource={history.data ?? []}
      pagination={false}
      scroll={phone ? { y: 360 } : { x: 560, y: 360 }}
      locale={{ emptyText: <Empty description="Sin cambios de precio registrados" /> }}
      columns={phone ? NARROW : WIDE}
      className="price-history"
    />
  );
}
