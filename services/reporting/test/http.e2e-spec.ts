/* eslint-disable @typescript-eslint/no-explicit-any -- answers are read loosely, like fetch().json() */
import ExcelJS from 'exceljs';
import { registerAndLogin, type Stack, type StackClient, startStack } from '../../../gateway/test/support/stack';
import { orderingStore, orderPlaced, place } from './support/orders';
import { pdfText } from './support/pdf-text';
import { randomUUID } from 'node:crypto';

/** Reporting through the gateway over real HTTP: the session's store filters every answer. */
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ services: ['identity', 'reporting'] });
}, 60_000);
afterAll(() => stack?.stop());

async function download(client: StackClient, path: string): Promise<{ status: number; type: string | null; disposition: string | null; body: Buffer }> {
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const res = await fetch(stack.url + path, { headers: { cookie } });
  return { status: res.status, type: res.headers.get('content-type'), disposition: res.headers.get('content-disposition'), body: Buffer.from(await res.arrayBuffer()) };
}

it('answers 401 without a session', async () => {
  const res = await stack.client().get('/api/stats');
  expect(res.status).toBe(401);
});

it("shows a POS sale in the owner's /api/stats within a second, and nothing of it to another store", async () => {
  const owner = stack.client();
  const other = stack.client();
  const a = await registerAndLogin(owner);
  await registerAndLogin(other);
  const before = (await owner.get('/api/stats')).body;
  expect(before).toMatchObject({ todayOrders: 0, todaySales: 0, totalProducts: 0, lowStockProducts: 0, whatsappOrders: 0 });
  expect(before.trends).toEqual({ todayOrders: { previous: 0, change: null }, todaySales: { previous: 0, change: null } });

  const ordering = orderingStore(stack.pool);
  await ordering.migrate();
  const sale = orderPlaced({ storeId: a.storeId, orderType: 'pos', paymentMethod: 'cash', placedAt: new Date().toISOString(), lines: [{ productId: randomUUID(), productName: 'Café molido', quantity: 2, unitPrice: 6175 }] });
  const started = Date.now();
  await place(ordering, sale);
  let stats: any;
  do {
    stats = (await owner.get('/api/stats')).body;
    if (stats.todayOrders === 1) break;
    await new Promise((r) => setTimeout(r, 25));
  } while (Date.now() - started < 3000);
  const elapsed = Date.now() - started;
  expect(stats).toMatchObject({ todayOrders: 1, todaySales: 123.5 });
  expect(elapsed).toBeLessThan(1000);
  expect((await other.get('/api/stats')).body).toMatchObject({ todayOrders: 0, todaySales: 0 });

  const report = (await owner.get('/api/reports?period=today')).body;
  expect(report).toMatchObject({ totalSales: 123.5, orderCount: 1, posOrders: 1, posPercentage: 100, whatsappPercentage: 0 });
  expect(report.recentOrders).toEqual([expect.objectContaining({ id: sale.orderId, code: sale.code, total: 123.5, orderType: 'pos' })]);
  expect((await other.get('/api/reports?period=today')).body).toMatchObject({ totalSales: 0, orderCount: 0, recentOrders: [] });

  // Excel: read back with a spreadsheet reader.
  const xlsx = await download(owner, '/api/reports/export.xlsx?period=today');
  expect(xlsx.status).toBe(200);
  expect(xlsx.type).toContain('spreadsheetml');
  expect(xlsx.disposition).toMatch(/attachment; filename="reporte-today-\d{4}-\d{2}-\d{2}\.xlsx"/);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(xlsx.body as unknown as ArrayBuffer);
  const summary = wb.getWorksheet('Resumen')!;
  expect(String(summary.getCell('A1').value)).toContain(a.registration.storeName);
  const totalRow = summary.getRows(1, summary.rowCount)!.find((r) => r.getCell(1).value === 'Ventas totales')!;
  expect(totalRow.getCell(2).value).toBe(123.5);
  expect(totalRow.getCell(2).numFmt).toBe('"Q"#,##0.00');
  const orders = wb.getWorksheet('Pedidos')!;
  expect(orders.getRow(1).values).toEqual([undefined, 'Código', 'Fecha', 'Cliente', 'Canal', 'Estado', 'Método de pago', 'Estado de pago', 'Pagado', 'Total']);
  expect(orders.rowCount).toBe(3); // the sale and the totals row
  expect(orders.getRow(2).getCell(1).value).toBe(sale.code);
  expect(orders.getRow(2).getCell(6).value).toBe('Efectivo');
  expect(orders.getRow(2).getCell(9).value).toBe(123.5);

  // PDF: the totals in its text.
  const pdf = await download(owner, '/api/reports/export.pdf?period=today');
  expect(pdf.status).toBe(200);
  expect(pdf.type).toBe('application/pdf');
  expect(pdf.body.subarray(0, 5).toString()).toBe('%PDF-');
  const text = pdfText(pdf.body);
  expect(text).toContain(`${a.registration.storeName}\n`);
  expect(text).toContain('Ventas totales\nQ\u00a0123.50\nPedidos\n1\n');
  expect(text).toContain('Pedidos (1)');
  expect(text).toContain(sale.code);

  // The sales analysis computed from these figures.
  const insights = await owner.get('/api/ai/sales-insights');
  expect(insights.status).toBe(200);
  expect(insights.body.insights[0]).toBe('En los últimos 7 días vendiste Q\u00a0123.50 en 1 pedido, con un ticket promedio de Q\u00a0123.50.');
  for (const sentence of [...insights.body.insights, ...insights.body.recommendations, ...insights.body.trends]) expect(sentence).toMatch(/\d/);

  // The cash close of today through the gateway.
  const today = report.to;
  const close = await owner.post('/api/reports/cash-close', { date: today, countedCash: 120, note: 'Cuadre del día' });
  expect(close.status).toBe(201);
  expect(close.body).toMatchObject({ date: today, expectedCash: 123.5, countedCash: 120, difference: -3.5, note: 'Cuadre del día' });
  expect((await other.get(`/api/reports/cash-close?date=${today}`)).body).toMatchObject({ expectedCash: 0, countedCash: null });
}, 30_000);
