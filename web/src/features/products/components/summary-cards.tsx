import { useId, useState } from 'react';
import { Button, Card, Skeleton } from 'antd';
import { AppstoreOutlined, CheckCircleOutlined, DollarOutlined, DownOutlined, PercentageOutlined, UpOutlined, WarningOutlined } from '@ant-design/icons';
import type { ProductView } from '@tiendita/contracts';
import { formatCount, formatMoney } from '../../../lib/format';
import { useProducts } from '../api/get-products';

/** Σ final price × stock, in centavos so the sum does not drift. */
export function inventoryValue(products: readonly ProductView[]): number {
  return products.reduce((sum, p) => sum + Math.round(p.finalPrice * 100) * p.stock, 0) / 100;
}

function SummaryCard({ icon, label, value, hint, tone }: { icon: React.ReactNode; label: string; value: React.ReactNode; hint: string; tone: string }) {
  return (
    <Card className={`summary-card summary-card--${tone}`} size="small">
      <div className="summary-card__icon" aria-hidden="true">
        {icon}
      </div>
      <div>
        <p className="summary-card__label">{label}</p>
        <p className="summary-card__value">{value}</p>
        <p className="summary-card__hint">{hint}</p>
      </div>
    </Card>
  );
}

/**
 * The five cards of spec 001 §2. Totals, active and low stock count the whole catalogue (the list's total
 * for that filter); 'con descuento' and the inventory value read the page shown, as the spec defines the value.
 * Low stock is each product at or below its own minimum (set in the inventory screen, 5 by default).
 * `foldable` (a phone): the cards fold into one line with the two counts that matter, so the products
 * come first on the screen; a tap unfolds them.
 */
export function SummaryCards({ pageProducts, loading, foldable = false }: { pageProducts: readonly ProductView[]; loading: boolean; foldable?: boolean }) {
  const all = useProducts({ limit: 1 });
  const active = useProducts({ limit: 1, isActive: true });
  const low = useProducts({ limit: 1, lowStock: true });
  const [unfolded, setUnfolded] = useState(false);
  const cardsId = useId();
  const count = (q: typeof all) => (q.data ? formatCount(q.data.total) : q.isError ? '—' : <Skeleton.Button active size="small" />);
  const discounted = pageProducts.filter((p) => p.discountPercentage > 0).length;

  if (foldable && !unfolded) {
    const line =
      all.data && low.data ? `${formatCount(all.data.total)} ${all.data.total === 1 ? 'producto' : 'productos'} · ${formatCount(low.data.total)} con stock bajo` : 'Resumen del catálogo';
    return (
      <Button block className="summary-fold" icon={<DownOutlined />} iconPlacement="end" aria-expanded={false} onClick={() => setUnfolded(true)}>
        {line}
      </Button>
    );
  }

  return (
    <>
      {foldable && (
        <Button block className="summary-fold" icon={<UpOutlined />} iconPlacement="end" aria-expanded aria-controls={cardsId} onClick={() => setUnfolded(false)}>
          Ocultar resumen
        </Button>
      )}
      <section id={cardsId} className="summary-cards" aria-label="Resumen del catálogo">
      <SummaryCard tone="blue" icon={<AppstoreOutlined />} label="Total de productos" value={count(all)} hint="En tu catálogo" />
      <SummaryCard tone="green" icon={<CheckCircleOutlined />} label="Activos" value={count(active)} hint="Visibles en tu tienda" />
      <SummaryCard tone="orange" icon={<WarningOutlined />} label="Stock bajo" value={count(low)} hint="En su mínimo o por debajo" />
      <SummaryCard tone="red" icon={<PercentageOutlined />} label="Con descuento" value={loading ? <Skeleton.Button active size="small" /> : formatCount(discounted)} hint="En esta página" />
      <SummaryCard
        tone="purple"
        icon={<DollarOutlined />}
        label="Valor del inventario"
        value={loading ? <Skeleton.Button active size="small" /> : formatMoney(inventoryValue(pageProducts))}
        hint="Precio con descuento × stock, en esta página"
      />
      </section>
    </>
  );
}
