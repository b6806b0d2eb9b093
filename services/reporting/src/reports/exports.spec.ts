import type { ReportOrder, ReportResponse } from '@tiendita/contracts';
import ExcelJS from 'exceljs';
import { pdfText } from '../../test/support/pdf-text';
import { reportXlsx } from './exports';
import { reportPdf } from './report-pdf';

const order = (over: Partial<ReportOrder>): ReportOrder => ({
  id: '00000000-0000-4000-8000-000000000001',
  code: 'P000001',
  customerName: 'María Pérez',
  orderType: 'whatsapp',
  status: 'delivered',
  paymentMethod: 'cash',
  paymentMethods: ['cash'],
  paymentStatus: 'paid',
  amountPaid: 136.75,
  total: 136.75,
  createdAt: '2026-11-28T17:05:00.000Z', // 11:05 in Guatemala
  ...over,
});

const ORDERS: ReportOrder[] = [
  order({ code: 'P000003', orderType: 'pos', customerName: 'Cliente de mostrador', status: 'cancelled', paymentMethods: ['cash'], paymentStatus: 'refunded', amountPaid: 0, total: 50, createdAt: '2026-11-28T18:00:00.000Z' }),
  order({ code: 'P000002', status: 'pending', paymentMethod: 'card', paymentMethods: ['card', 'transfer'], paymentStatus: 'partial', amountPaid: 60, total: 100, createdAt: '2026-11-28T16:00:00.000Z' }),
  order({}),
];

const REPORT: ReportResponse = {
  period: 'today',
  from: '2026-11-28',
  to: '2026-11-28',
  totalSales: 236.75,
  orderCount: 2,
  averageTicket: 118.38,
  cancelledOrders: 1,
  cancelledAmount: 50,
  whatsappOrders: 2,
  posOrders: 0,
  whatsappPercentage: 100,
  posPercentage: 0,
  activeProducts: 4,
  lowStockProducts: 1,
  activeCategories: 2,
  salesByChannel: [
    { channel: 'whatsapp', orders: 2, amount: 236.75, percentage: 100 },
    { channel: 'pos', orders: 0, amount: 0, percentage: 0 },
  ],
  salesByPaymentMethod: [
    { paymentMethod: 'cash', payments: 2, orders: 2, received: 186.75, refunds: 1, refunded: 50, amount: 136.75 },
    { paymentMethod: 'card', payments: 1, orders: 1, received: 40, refunds: 0, refunded: 0, amount: 40 },
    { paymentMethod: 'transfer', payments: 1, orders: 1, received: 20, refunds: 0, refunded: 0, amount: 20 },
  ],
  amountReceived: 196.75,
  topProductsByUnits: [],
  topProductsByAmount: [],
  granularity: 'hour',
  series: [],
  recentOrders: [],
};

const INPUT = { storeName: 'Abarrotería Doña Rosa', report: REPORT, orders: ORDERS, generatedAt: '2026-11-28T20:00:00.000Z' };
const ISO_DAY = /\d{4}-\d{2}-\d{2}/;

describe('report exports: Spanish names and es-GT dates', () => {
  it('the workbook names methods, statuses and channels in Spanish, writes dates as 28/11/2026, and keeps cancelled orders on their own sheet', async () => {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await reportXlsx(INPUT)) as unknown as ArrayBuffer);
    const summary = wb.getWorksheet('Resumen')!;
    const rows = summary.getSheetValues().filter(Boolean).map((r) => (r as unknown[]).slice(1));
    expect(rows).toContainEqual(['Periodo', 'Hoy (28/11/2026)']);
    expect(rows).toContainEqual(['Generado', '28/11/2026 14:00']);
    expect(rows).toContainEqual(['Ventas totales', 236.75]);
    expect(rows).toContainEqual(['Pedidos', 2]);
    expect(rows).toContainEqual(['Pedidos cancelados (no son ventas)', 50, 1]);
    expect(rows).toContainEqual(['Efectivo', 136.75, 2, 186.75, 50]);
    expect(rows).toContainEqual(['Tarjeta', 40, 1, 40, 0]);
    expect(rows).toContainEqual(['Transferencia', 20, 1, 20, 0]);

    const sales = wb.getWorksheet('Pedidos')!;
    const saleRows = sales.getSheetValues().filter(Boolean).map((r) => (r as unknown[]).slice(1));
    expect(saleRows).toEqual([
      ['Código', 'Fecha', 'Cliente', 'Canal', 'Estado', 'Método de pago', 'Estado de pago', 'Pagado', 'Total'],
      ['P000002', '28/11/2026 10:00', 'María Pérez', 'WhatsApp', 'Pendiente', 'Tarjeta, Transferencia', 'Pago parcial', 60, 100],
      ['P000001', '28/11/2026 11:05', 'María Pérez', 'WhatsApp', 'Entregado', 'Efectivo', 'Pagado', 136.75, 136.75],
      ['Total (2)', undefined, undefined, undefined, undefined, undefined, undefined, undefined, 236.75],
    ]);
    const cancelled = wb.getWorksheet('Cancelados')!.getSheetValues().filter(Boolean).map((r) => (r as unknown[]).slice(1));
    expect(cancelled[1]).toEqual(['P000003', '28/11/2026 12:00', 'Cliente de mostrador', 'Punto de venta', 'Cancelado', 'Efectivo', 'Reembolsado', 0, 50]);
    for (const sheet of wb.worksheets) sheet.eachRow((row) => row.eachCell((cell) => expect(String(cell.value)).not.toMatch(ISO_DAY)));
  });

  it('the PDF has the store, the period in es-GT, summary boxes whose count agrees with its table, payments by method in Spanish, and the cancelled apart', async () => {
    const text = pdfText(await reportPdf(INPUT, { compress: false }));
    expect(text).toContain('AD\nAbarrotería Doña Rosa\n'); // the initials stand in for a logo it has not got
    expect(text).toContain('Reporte de ventas · Hoy (28/11/2026)');
    expect(text).toContain('Ventas totales\nQ\u00a0236.75\nPedidos\n2\nTicket promedio\nQ\u00a0118.38\nCobrado (neto)\nQ\u00a0196.75\n');
    expect(text).toContain('Cancelados\n1\nQ\u00a050.00 (no son ventas)');
    expect(text).toContain('Efectivo\n2\nQ\u00a0186.75\nQ\u00a050.00\nQ\u00a0136.75\n');
    expect(text).toContain('Transferencia\n1\n');
    expect(text).toContain('Total\n4\nQ\u00a0246.75\nQ\u00a050.00\nQ\u00a0196.75\n');
    // Pedidos (2): the sales, each with its date, channel, status and how it was paid; their total.
    expect(text).toContain('Pedidos (2)');
    expect(text).toContain('28/11/2026 10:00\nP000002\nMaría Pérez\nWhatsApp\nPendiente\nTarjeta, Transferencia\nQ\u00a0100.00\n');
    expect(text).toContain('Total\nQ\u00a0236.75\n');
    // The cancelled order only in its own table.
    expect(text).toContain('Pedidos cancelados (1)');
    expect(text.indexOf('P000003')).toBeGreaterThan(text.indexOf('Pedidos cancelados (1)'));
    expect(text).toContain('Página 1 de 1');
    expect(text).not.toMatch(ISO_DAY);
    expect(text).not.toMatch(/\b(cash|card|transfer|delivered|pending)\b/);
  });
});
