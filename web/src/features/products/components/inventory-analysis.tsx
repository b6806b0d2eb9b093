import { Alert, Card, Empty, Progress, Table, Typography } from 'antd';
import { isLowStock, LOW_STOCK_THRESHOLD, OWNER_MEDIUM_MAX, OWNER_STOCK_LABELS, ownerStockLevel, type ProductView, type StockLevel } from '@tiendita/contracts';
import { formatCount, formatMoney } from '../../../lib/format';
import { serverMessageOr } from '../../../lib/api';
import { useProducts } from '../api/get-products';
import type { ProductListParams } from '../api/keys';
import { StockTag } from './stock-tag';
import { inventoryValue } from './summary-cards';

/** The analysis reads at most this many products, those with the least stock first (the API's largest page). */
const ANALYSIS_LIMIT = 100;
const LEVELS: StockLevel[] = ['out', 'low', 'medium', 'high'];
const LEVEL_COLORS: Record<StockLevel, string> = { out: '#ef4444', low: '#f97316', medium: '#eab308', high: '#22c55e' };

/** Stock levels, units and value under the current filters, and the products to restock first. */
export function InventoryAnalysis({ filterParams }: { filterParams: ProductListParams }) {
  const query = useProducts({ ...filterParams, page: 1, limit: ANALYSIS_LIMIT, sortBy: 'stock', sortOrder: 'asc' });
  if (query.isError) return <Alert type="error" showIcon title="No se pudo cargar el análisis de inventario" description={serverMessageOr(query.error, 'Inténtalo de nuevo.')} />;
  const products = query.data?.products ?? [];
  const total = query.data?.total ?? 0;
  const counts = Object.fromEntries(LEVELS.map((l) => [l, 0])) as Record<StockLevel, number>;
  for (const p of products) counts[ownerStockLevel(p.stock, p.stockMinimum)] += 1;
  const units = products.reduce((sum, p) => sum + p.stock, 0);
  const attention = products.filter((p) => isLowStock(p.stock, p.stockMinimum));

  return (
    <div className="inventory-analysis">
      <Typography.Paragraph type="secondary">
        {total > products.length
          ? `Análisis de los ${formatCount(products.length)} productos con menos stock de ${formatCount(total)} que cumplen los filtros.`
          : `Análisis de ${total === 1 ? 'tu único producto' : `tus ${formatCount(total)} productos`} con los filtros actuales.`}
      </Typography.Paragraph>
      <div className="inventory-analysis__grid">
        <Card title="Niveles de stock" size="small" loading={query.isLoading}>
          <ul className="stock-levels">
            {LEVELS.map((level) => (
              <li key={level}>
                <span>{OWNER_STOCK_LABELS[level].label}</span>
                <Progress
                  percent={products.length ? Math.round((counts[level] / products.length) * 100) : 0}
                  strokeColor={LEVEL_COLORS[level]}
                  format={() => formatCount(counts[level])}
                  aria-label={`${OWNER_STOCK_LABELS[level].label}: ${counts[level]}`}
                />
              </li>
            ))}
          </ul>
          <Typography.Text type="secondary">Agotado: 0 · Bajo: hasta el mínimo de cada producto ({LOW_STOCK_THRESHOLD} si no lo cambiaste) · Medio: hasta {OWNER_MEDIUM_MAX} · Alto: más de {OWNER_MEDIUM_MAX} unidades.</Typography.Text>
        </Card>
        <Card title="Totales" size="small" loading={query.isLoading}>
          <dl className="inventory-totals">
            <dt>Unidades en stock</dt>
            <dd>{formatCount(units)}</dd>
            <dt>Valor del inventario</dt>
            <dd>{formatMoney(inventoryValue(products))}</dd>
            <dt>Por reabastecer</dt>
            <dd>{formatCount(attention.length)}</dd>
          </dl>
        </Card>
      </div>
      <Card title="Productos por reabastecer (en su mínimo o por debajo)" size="small" style={{ marginTop: 16 }}>
        <Table<ProductView>
          size="small"
          rowKey="id"
          loading={query.isLoading}
          dataSource={attention}
          pagination={attention.length > 10 ? { pageSize: 10, showSizeChanger: false } : false}
          scroll={{ x: 600 }}
          locale={{ emptyText: <Empty description="Todo tu stock está en buen nivel" /> }}
          columns={[
            { title: 'Producto', dataIndex: 'name' },
            { title: 'Categoría', dataIndex: 'categoryName', render: (v: string | null) => v ?? 'Sin categoría' },
            { title: 'SKU', dataIndex: 'sku', render: (v: string | null) => v ?? '—' },
            { title: 'Stock', dataIndex: 'stock', render: (v: number, p) => <StockTag stock={v} minimum={p.stockMinimum} /> },
            { title: 'Precio final', dataIndex: 'finalPrice', render: (v: number) => formatMoney(v), align: 'right' },
          ]}
        />
      </Card>
    </div>
  );
}
