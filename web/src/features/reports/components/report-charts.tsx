import { Card, List } from 'antd';
import { formatDay, formatMonth, type ReportResponse } from '@tiendita/contracts';
import { Bar, BarChart, CartesianGrid, Cell, Pie, PieChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatMoney } from '../../../lib/format';
import { CHANNEL_LABELS, ordersText } from '../report-labels';

const CHANNEL_COLORS = ['#16a34a', '#0ea5e9'];
const SERIES_TITLE: Record<ReportResponse['granularity'], string> = { hour: 'Ventas por hora', day: 'Ventas por día', month: 'Ventas por mes' };

/** A bucket's label on the axis (short) and in the tooltip (whole): 14:00; 28/11 and 28/11/2026; nov 2026. */
function bucketLabels(granularity: ReportResponse['granularity'], label: string): { axis: string; full: string } {
  if (granularity === 'hour') return { axis: label, full: `${label} h` };
  if (granularity === 'month') return { axis: formatMonth(label), full: formatMonth(label) };
  const full = formatDay(label);
  return { axis: full.slice(0, 5), full };
}

/** The period's sales by hour, day or month (as the report groups them), and the split by channel. */
export function ReportCharts({ report }: { report: ReportResponse }) {
  const channel = report.salesByChannel.map((c) => ({ name: CHANNEL_LABELS[c.channel], value: c.orders, amount: c.amount }));
  const series = report.series.map((p) => ({ ...p, ...bucketLabels(report.granularity, p.label) }));
  return (
    <div className="reports__charts">
      <Card title={SERIES_TITLE[report.granularity]}>
        <div className="reports__chart" data-testid="sales-chart" data-granularity={report.granularity}>
          <ResponsiveContainer width="100%" height={260}>
            <BarChart data={series}>
              <CartesianGrid strokeDasharray="3 3" vertical={false} />
              <XAxis dataKey="axis" fontSize={11} />
              <YAxis fontSize={11} tickFormatter={(v: number) => `Q${v}`} width={60} />
              <Tooltip
                formatter={(v) => formatMoney(Number(v))}
                labelFormatter={(_, payload) => {
                  const p = payload?.[0]?.payload as { full?: string; orders?: number } | undefined;
                  return p?.full ? `${p.full} · ${ordersText(p.orders ?? 0)}` : '';
                }}
              />
              <Bar dataKey="amount" name="Ventas" fill="#0ea5e9" radius={[4, 4, 0, 0]} />
            </BarChart>
          </ResponsiveContainer>
        </div>
      </Card>
      <Card title="Ventas por canal">
        <ResponsiveContainer width="100%" height={200}>
          <PieChart>
            <Pie data={channel} dataKey="value" nameKey="name" innerRadius={45} outerRadius={80} isAnimationActive={false}>
              {channel.map((c, i) => <Cell key={c.name} fill={CHANNEL_COLORS[i]} />)}
            </Pie>
            <Tooltip />
          </PieChart>
        </ResponsiveContainer>
        <List
          size="small"
          dataSource={report.salesByChannel}
          renderItem={(c, i) => (
            <List.Item>
              <span>
                <span className="reports__swatch" style={{ background: CHANNEL_COLORS[i] }} aria-hidden="true" />
                {CHANNEL_LABELS[c.channel]}: {ordersText(c.orders)} ({c.percentage.toFixed(1)}%)
              </span>
              <strong>{formatMoney(c.amount)}</strong>
            </List.Item>
          )}
        />
      </Card>
    </div>
  );
}
