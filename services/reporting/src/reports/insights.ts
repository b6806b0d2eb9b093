import { formatDay, formatQuetzales, PAYMENT_METHOD_LABELS, type ReportResponse, type SalesInsightsResponse, type StatsResponse } from '@tiendita/contracts';

/** '1 pedido', '3 pedidos'. */
const orders = (n: number) => `${n} ${n === 1 ? 'pedido' : 'pedidos'}`;
/** '1 producto', '3 productos'. */
const products = (n: number) => `${n} ${n === 1 ? 'producto' : 'productos'}`;
const units = (n: number) => `${n} ${n === 1 ? 'unidad' : 'unidades'}`;
const money = formatQuetzales;
/** A payment method's Spanish name inside a sentence ('efectivo', 'tarjeta'). */
const methodName = (m: keyof typeof PAYMENT_METHOD_LABELS) => PAYMENT_METHOD_LABELS[m].toLowerCase();
const payments = (n: number) => `${n} ${n === 1 ? 'pago' : 'pagos'}`;

/**
 * The sales analysis computed from the store's own figures (the fallback of GET /api/ai/sales-insights
 * when no AI model is configured): Spanish sentences, each with a real figure of the last 7 days or of today.
 */
export function salesInsights(week: ReportResponse, stats: StatsResponse): SalesInsightsResponse {
  const insights: string[] = [];
  const recommendations: string[] = [];
  const trends: string[] = [];
  if (week.orderCount === 0) {
    insights.push(`No hay ventas registradas en los últimos 7 días (${money(0)} en 0 pedidos).`);
    // Published = active (what the shop shows); inactive products wait for nothing.
    if (week.activeProducts > 0)
      recommendations.push(`Comparte tu tienda por WhatsApp y redes sociales: tienes ${products(week.activeProducts)} ${week.activeProducts === 1 ? 'publicado' : 'publicados'} esperando su primera venta.`);
    else recommendations.push(`Publica tus primeros productos con foto y precio: tu tienda tiene 0 productos activos.`);
  } else {
    insights.push(`En los últimos 7 días vendiste ${money(week.totalSales)} en ${orders(week.orderCount)}, con un ticket promedio de ${money(week.averageTicket)}.`);
    insights.push(`El ${week.whatsappPercentage.toFixed(1)} % de los pedidos llegó por WhatsApp y el ${week.posPercentage.toFixed(1)} % se vendió en el punto de venta.`);
    const best = week.topProductsByAmount[0];
    if (best) insights.push(`Tu producto más vendido por monto es ${best.name}: ${units(best.units)} por ${money(best.amount)}.`);
    const bestDay = [...week.series].sort((a, b) => b.amount - a.amount)[0];
    if (bestDay && bestDay.amount > 0) trends.push(`Tu mejor día de la semana fue el ${formatDay(bestDay.label)}, con ${money(bestDay.amount)} en ${orders(bestDay.orders)}.`);
    const method = week.salesByPaymentMethod[0];
    if (method) trends.push(`El método de pago más usado fue ${methodName(method.paymentMethod)}: ${payments(method.payments)} por ${money(method.amount)}.`);
  }
  const change = stats.trends.todaySales.change;
  if (change !== null) trends.push(`Hoy llevas ${money(stats.todaySales)} en ventas, ${change >= 0 ? '+' : ''}${change.toFixed(1)} % frente a las mismas horas de ayer (${money(stats.trends.todaySales.previous)}).`);
  else trends.push(`Hoy llevas ${money(stats.todaySales)} en ventas en ${orders(stats.todayOrders)}.`);
  if (stats.lowStockProducts > 0)
    recommendations.push(
      `Reabastece inventario: ${products(stats.lowStockProducts)} ${stats.lowStockProducts === 1 ? 'está' : 'están'} en su mínimo de stock o por debajo.`,
    );
  if (stats.whatsappOrders > 0)
    recommendations.push(
      stats.whatsappOrders === 1
        ? 'Atiende el 1 pedido de WhatsApp pendiente para no perder ventas.'
        : `Atiende los ${stats.whatsappOrders} pedidos de WhatsApp pendientes para no perder ventas.`,
    );
  if (week.orderCount > 0 && week.whatsappPercentage < 20) recommendations.push(`Solo el ${week.whatsappPercentage.toFixed(1)} % de tus pedidos viene de la tienda en línea: compártela con tus clientes.`);
  if (recommendations.length === 0) recommendations.push(`Mantén tus ${week.activeProducts} productos activos con fotos y precios al día para sostener las ventas.`);
  return { insights, recommendations, trends };
}
