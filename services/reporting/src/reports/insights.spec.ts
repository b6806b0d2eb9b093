import type { ReportResponse, StatsResponse } from '@tiendita/contracts';
import { salesInsights } from './insights';

const emptyWeek = (activeProducts: number): ReportResponse => ({
  period: 'week',
  from: '2026-01-01',
  to: '2026-01-07',
  totalSales: 0,
  orderCount: 0,
  averageTicket: 0,
  cancelledOrders: 0,
  cancelledAmount: 0,
  whatsappOrders: 0,
  posOrders: 0,
  whatsappPercentage: 0,
  posPercentage: 0,
  activeProducts,
  lowStockProducts: 0,
  activeCategories: 0,
  salesByChannel: [],
  salesByPaymentMethod: [],
  amountReceived: 0,
  topProductsByUnits: [],
  topProductsByAmount: [],
  granularity: 'day',
  series: [],
  recentOrders: [],
});

const stats = (over: Partial<StatsResponse>): StatsResponse => ({
  todayOrders: 0,
  todaySales: 0,
  totalProducts: 0,
  lowStockProducts: 0,
  whatsappOrders: 0,
  trends: { todayOrders: { previous: 0, change: null }, todaySales: { previous: 0, change: null } },
  ...over,
});

describe('salesInsights (the fallback of GET /api/ai/sales-insights)', () => {
  it('counts as published only the active products, not the inactive ones the stats include', () => {
    const { recommendations } = salesInsights(emptyWeek(32), stats({ totalProducts: 33 }));
    expect(recommendations[0]).toBe('Comparte tu tienda por WhatsApp y redes sociales: tienes 32 productos publicados esperando su primera venta.');
  });

  it('writes one of a kind in the singular', () => {
    const { recommendations } = salesInsights(emptyWeek(1), stats({ totalProducts: 1, lowStockProducts: 1, whatsappOrders: 1 }));
    expect(recommendations).toEqual([
      'Comparte tu tienda por WhatsApp y redes sociales: tienes 1 producto publicado esperando su primera venta.',
      'Reabastece inventario: 1 producto está en su mínimo de stock o por debajo.',
      'Atiende el 1 pedido de WhatsApp pendiente para no perder ventas.',
    ]);
  });

  it('asks a store with nothing active to publish, with the figure', () => {
    const { recommendations } = salesInsights(emptyWeek(0), stats({ totalProducts: 2 }));
    expect(recommendations[0]).toBe('Publica tus primeros productos con foto y precio: tu tienda tiene 0 productos activos.');
    for (const sentence of recommendations) expect(sentence).toMatch(/\d/);
  });

  it('names the most used payment method in Spanish, from the payments', () => {
    const week: ReportResponse = {
      ...emptyWeek(3),
      totalSales: 30,
      orderCount: 2,
      averageTicket: 15,
      series: [{ label: '2026-01-05', orders: 2, amount: 30 }],
      salesByPaymentMethod: [{ paymentMethod: 'transfer', payments: 3, orders: 3, received: 30, refunds: 0, refunded: 0, amount: 30 }],
    };
    expect(salesInsights(week, stats({})).trends).toContain('El método de pago más usado fue transferencia: 3 pagos por Q\u00a030.00.');
  });
});
