import { Alert, Empty, Table, Typography } from 'antd';
import type { PriceHistoryEntry } from '@tiendita/contracts';
import { formatDateTime, formatMoney } from '../../../lib/format';
import { serverMessageOr } from '../../../lib/api-error';
import { usePriceHistory } from '../api/get-price-history';

const percent = (n: number) => `${n.toLocaleString('es-GT', { maximumFractionDigits: 2 })}%`;

/** The product's price changes: old and new price and discount, the reason, who and when. */
export function PriceHistory({ productId, active }: { productId: string; active: boolean }) {
  const history = usePriceHistory(productId, active);
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
      scroll={{ x: 560, y: 360 }}
      locale={{ emptyText: <Empty description="Sin cambios de precio registrados" /> }}
      columns={[
        { title: 'Fecha', dataIndex: 'createdAt', render: (v: string) => formatDateTime(v), width: 150 },
        {
          title: 'Precio',
          key: 'price',
          render: (_, e) => (
            <span>
              {e.oldPrice === null ? 'Precio inicial: ' : `${formatMoney(e.oldPrice)} → `}
              <Typography.Text strong>{formatMoney(e.newPrice)}</Typography.Text>
            </span>
          ),
        },
        { title: 'Descuento', key: 'discount', render: (_, e) => (e.oldDiscountPercentage === null ? percent(e.newDiscountPercentage) : `${percent(e.oldDiscountPercentage)} → ${percent(e.newDiscountPercentage)}`) },
        { title: 'Razón', dataIndex: 'changeReason', render: (v: string | null) => v || '—' },
        { title: 'Por', dataIndex: 'changedBy', width: 110 },
      ]}
    />
  );
}
