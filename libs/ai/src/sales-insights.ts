import { SalesInsightsResponse } from '@tiendita/contracts';
import type { AiClient } from './client';
import { quetzalesFromCentavos } from './text';

/**
 * The figures the sales analysis is written from, as the reporting service computes them for one
 * store and period. Money is integer centavos; weekdays are days in America/Guatemala.
 */
export interface SalesFigures {
  /** Length of the period in days (e.g. 30), for the wording. */
  periodDays: number;
  /** Total sold in the period (all channels, orders not cancelled). */
  totalSalesCentavos: number;
  /** Orders in the period. */
  orders: number;
  /** The same figures for the period before, when known: gives the trend against it. */
  previousTotalSalesCentavos?: number;
  previousOrders?: number;
  /** Split by channel (spec: whatsapp vs pos). */
  channels: { whatsapp: { orders: number; salesCentavos: number }; pos: { orders: number; salesCentavos: number } };
  /** Best sellers, by units sold, highest first. */
  topProducts: { name: string; units: number; salesCentavos: number }[];
  /** Active products that sold little or nothing in the period (units sold ascending), with their stock. */
  slowMovers: { name: string; unitsSold: number; stock: number }[];
  /** Active products with stock of 5 or less. */
  lowStockCount: number;
  /** Sales per day of the week: weekday 0 = domingo … 6 = sábado. Missing days count as 0. */
  salesByWeekday: { weekday: number; orders: number; salesCentavos: number }[];
}

const WEEKDAYS = ['domingo', 'lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado'];

const pct = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0);
const pctText = (n: number) => `${n.toLocaleString('es-GT', { maximumFractionDigits: 1 })}%`;
const plural = (n: number, one: string, many: string) => `${n.toLocaleString('es-GT')} ${n === 1 ? one : many}`;

/**
 * The deterministic sales analysis: insights, recommendations and trends in Spanish, each
 * sentence carrying a real figure from `figures` (best sellers, slow movers, low stock, channel
 * split, day-of-week pattern, change against the previous period). Pure: same figures, same text.
 */
export function salesInsightsFallback(figures: SalesFigures): SalesInsightsResponse {
  const insights: string[] = [];
  const recommendations: string[] = [];
  const trends: string[] = [];
  const period = figures.periodDays === 1 ? 'hoy' : `los últimos ${figures.periodDays} días`;
  const total = figures.totalSalesCentavos;

  if (figures.orders === 0) {
    insights.push(`No hay ventas registradas en ${period}: 0 pedidos y ${quetzalesFromCentavos(0)} vendidos.`);
    recommendations.push('Comparte el enlace de tu tienda por WhatsApp y redes sociales para conseguir tus primeros pedidos del período.');
  } else {
    const average = Math.round(total / figures.orders);
    insights.push(`En ${period} vendiste ${quetzalesFromCentavos(total)} en ${plural(figures.orders, 'pedido', 'pedidos')}, con un ticket promedio de ${quetzalesFromCentavos(average)}.`);
  }

  const top = figures.topProducts.filter((p) => p.units > 0);
  if (top.length > 0) {
    const best = top[0];
    insights.push(`Tu producto más vendido es ${best.name}: ${plural(best.units, 'unidad', 'unidades')} por ${quetzalesFromCentavos(best.salesCentavos)}${total > 0 ? ` (${pctText(pct(best.salesCentavos, total))} de las ventas)` : ''}.`);
    if (top.length > 1) insights.push(`Le siguen ${top.slice(1, 3).map((p) => `${p.name} (${plural(p.units, 'unidad', 'unidades')})`).join(' y ')}.`);
    recommendations.push(`Mantén suficiente inventario de ${best.name} y destácalo en tu tienda: vendiste ${plural(best.units, 'unidad', 'unidades')} en ${period}.`);
  }

  const wa = figures.channels.whatsapp;
  const pos = figures.channels.pos;
  const channelOrders = wa.orders + pos.orders;
  if (channelOrders > 0) {
    const waShare = pct(wa.orders, channelOrders);
    insights.push(`El ${pctText(waShare)} de los pedidos llegó por WhatsApp (${plural(wa.orders, 'pedido', 'pedidos')}) y el ${pctText(Math.round((100 - waShare) * 10) / 10)} en el punto de venta (${plural(pos.orders, 'pedido', 'pedidos')}).`);
    if (waShare < 30) recommendations.push(`Solo el ${pctText(waShare)} de tus pedidos llega por WhatsApp: comparte tu catálogo en línea con tus clientes de mostrador.`);
    else if (waShare > 70) recommendations.push(`El ${pctText(waShare)} de tus pedidos llega por WhatsApp: responde rápido y mantén tu catálogo en línea al día.`);
  }

  if (figures.lowStockCount > 0) {
    insights.push(`Tienes ${plural(figures.lowStockCount, 'producto', 'productos')} con stock bajo (en su mínimo o por debajo).`);
    recommendations.push(`Reabastece ${figures.lowStockCount === 1 ? 'el producto' : `los ${figures.lowStockCount} productos`} con stock bajo antes de quedarte sin existencias.`);
  }

  const slow = figures.slowMovers.filter((p) => p.stock > 0).slice(0, 3);
  if (slow.length > 0) {
    const names = slow.map((p) => `${p.name} (${plural(p.unitsSold, 'venta', 'ventas')}, ${plural(p.stock, 'unidad', 'unidades')} en stock)`).join(', ');
    recommendations.push(`Estos productos se mueven poco: ${names}. Considera una promoción o un descuento para rotarlos.`);
  }

  const days = new Map<number, { orders: number; salesCentavos: number }>();
  for (const d of figures.salesByWeekday) days.set(d.weekday, { orders: d.orders, salesCentavos: d.salesCentavos });
  const ranked = [...Array(7).keys()].map((weekday) => ({ weekday, ...(days.get(weekday) ?? { orders: 0, salesCentavos: 0 }) })).sort((a, b) => b.salesCentavos - a.salesCentavos || a.weekday - b.weekday);
  if (ranked[0].salesCentavos > 0) {
    const best = ranked[0];
    // The weakest day: least sold, the first such day of the week on a tie.
    const worst = ranked.reduce((w, d) => (d.salesCentavos < w.salesCentavos || (d.salesCentavos === w.salesCentavos && d.weekday < w.weekday) ? d : w));
    trends.push(`El ${WEEKDAYS[best.weekday]} es tu mejor día: ${quetzalesFromCentavos(best.salesCentavos)} en ${plural(best.orders, 'pedido', 'pedidos')}${total > 0 ? ` (${pctText(pct(best.salesCentavos, total))} del total)` : ''}.`);
    trends.push(`El ${WEEKDAYS[worst.weekday]} es el día más flojo, con ${quetzalesFromCentavos(worst.salesCentavos)} en ventas.`);
    recommendations.push(`Programa tus promociones para el ${WEEKDAYS[worst.weekday]} (${quetzalesFromCentavos(worst.salesCentavos)} en ventas) y ten personal y stock listos para el ${WEEKDAYS[best.weekday]} (${quetzalesFromCentavos(best.salesCentavos)}).`);
  }

  if (figures.previousTotalSalesCentavos !== undefined) {
    const prev = figures.previousTotalSalesCentavos;
    if (prev > 0) {
      const change = Math.round(((total - prev) / prev) * 1000) / 10;
      const word = change > 0 ? 'subieron' : change < 0 ? 'bajaron' : 'se mantuvieron';
      trends.push(`Tus ventas ${word}${change !== 0 ? ` un ${pctText(Math.abs(change))}` : ''} frente al período anterior (${quetzalesFromCentavos(prev)} → ${quetzalesFromCentavos(total)}).`);
    } else if (total > 0) {
      trends.push(`Vendiste ${quetzalesFromCentavos(total)} frente a ${quetzalesFromCentavos(0)} del período anterior.`);
    }
    if (figures.previousOrders !== undefined) trends.push(`Pedidos: ${figures.previousOrders.toLocaleString('es-GT')} en el período anterior y ${figures.orders.toLocaleString('es-GT')} en este.`);
  }
  if (trends.length === 0) trends.push(`Aún no hay suficientes ventas en ${period} para ver una tendencia: ${plural(figures.orders, 'pedido', 'pedidos')} registrados.`);
  if (recommendations.length === 0) recommendations.push(`Con ${plural(figures.orders, 'pedido', 'pedidos')} en ${period}, sigue compartiendo tu tienda para crecer.`);

  return { insights: insights.slice(0, 10), recommendations: recommendations.slice(0, 10), trends: trends.slice(0, 10) };
}

/** The analysis from the model when configured and valid (it gets the same figures), else the fallback. */
export async function salesInsights(ai: AiClient, figures: SalesFigures): Promise<SalesInsightsResponse & { source: 'model' | 'fallback' }> {
  const system =
    'Eres analista de ventas de tiendas pequeñas de Guatemala (moneda: quetzales, Q). Con las cifras dadas escribe en español frases breves; ' +
    'cada frase debe citar una cifra real de los datos, sin inventar otras. Responde solo con un objeto JSON ' +
    '{"insights": string[], "recommendations": string[], "trends": string[]} (de 1 a 5 frases cada una).';
  const answer = await ai.json(SalesInsightsResponse, system, JSON.stringify({ cifras: figures, moneda: 'centavos de quetzal' }), 'sales-insights');
  if (answer && answer.insights.length > 0) return { ...answer, source: 'model' };
  return { ...salesInsightsFallback(figures), source: 'fallback' };
}
