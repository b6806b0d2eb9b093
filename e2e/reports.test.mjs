// Journeys of issue 14: an owner sells at the POS and the dashboard's stat cards move; the reports page
// for today shows the sale in its hourly chart and in the recent activity; the Excel download starts
// and is a real workbook; the cash close counts the sale's cash (Spanish names, es-GT date); a year is
// charted by month. Then the dashboard and the reports page at 375 px: nothing wider than the
// phone, the cards and the chart readable (screenshots in test-results/ for review).
/* global document -- evaluated in the page */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { registerThroughApi, signIn, uniqueOwner, useBrowser, withPage } from './support/browser.mjs';

useBrowser();

const DESKTOP = { viewport: { width: 1280, height: 900 } };
const PHONE = { viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true };
const SHOTS = join(process.cwd(), 'test-results');
const owner = uniqueOwner('reportes');
let sale = null;

/** Opens an owner path right after signing in: the dashboard's own redirect may abort the first try. */
async function openOwnerPath(page, path) {
  for (let attempt = 1; ; attempt++) {
    try {
      await page.goto(path);
      return;
    } catch (error) {
      if (attempt >= 3 || !/ERR_ABORTED|interrupted/.test(String(error))) throw error;
      await page.waitForTimeout(500);
    }
  }
}

/** Q amounts as the screens write them (es-GT, GTQ). */
function money(page, amount) {
  return page.evaluate((n) => new Intl.NumberFormat('es-GT', { style: 'currency', currency: 'GTQ' }).format(n), amount);
}

async function shot(page, name) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

test('after a POS sale the dashboard cards move; today’s report shows it in the chart and the recent activity; the Excel download starts', async () => {
  await withPage('reports-journey', DESKTOP, async (page) => {
    await registerThroughApi(page, owner);
    await signIn(page, owner.email, owner.password);
    // A new store: nothing sold today.
    await openOwnerPath(page, '/dashboard');
    const orders = page.getByTestId('stat-today-orders');
    const sales = page.getByTestId('stat-today-sales');
    await orders.waitFor();
    assert.equal((await orders.textContent()).trim(), '0');
    assert.equal((await sales.textContent()).trim(), await money(page, 0));
    const created = await page.evaluate(async () => {
      const res = await fetch('/api/products', {
        method: 'POST',
        credentials: 'include',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Café de Antigua 1 lb', sku: 'CAF-E2E', price: 25, stock: 10, categoryId: 'none', images: [], isActive: true }),
      });
      return { status: res.status, body: await res.json() };
    });
    assert.equal(created.status, 201);
    await shot(page, 'reports-dashboard-before-desktop');

    // Two coffees at the POS, paid in cash.
    await page.getByRole('link', { name: 'POS', exact: true }).first().click();
    const search = page.getByLabel('Buscar por nombre o SKU');
    await search.waitFor();
    await search.fill('CAF-E2E');
    await search.press('Enter');
    const cart = page.getByRole('complementary', { name: 'Carrito' });
    await cart.getByText('Café de Antigua 1 lb').waitFor();
    await search.fill('CAF-E2E');
    await search.press('Enter');
    await page.waitForFunction(() => document.querySelector('[aria-label="Cantidad de Café de Antigua 1 lb"]')?.value === '2');
    await cart.getByRole('button', { name: /^Cobrar/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Cobrar' });
    await dialog.getByLabel('Efectivo recibido').fill('100');
    const [response] = await Promise.all([
      page.waitForResponse((res) => res.url().endsWith('/api/orders') && res.request().method() === 'POST'),
      dialog.getByRole('button', { name: 'Confirmar venta' }).click(),
    ]);
    assert.equal(response.status(), 201);
    sale = await response.json();
    assert.equal(sale.total, 50);
    await page.getByRole('dialog', { name: 'Venta' }).getByText('Venta Registrada').waitFor();
    await page.keyboard.press('Escape');

    // Back on the dashboard (through the menu, no reload): the cards moved.
    await page.getByRole('link', { name: 'Dashboard', exact: true }).first().click();
    await page.waitForFunction(() => document.querySelector('[data-testid="stat-today-orders"]')?.textContent?.trim() === '1');
    assert.equal((await sales.textContent()).trim(), await money(page, 50));
    await page.getByText(`${sale.code} · `).first().waitFor(); // the recent orders card
    await shot(page, 'reports-dashboard-after-desktop');

    // Reports, today: the hour of the sale has the only bar, the recent activity lists it.
    await page.getByRole('link', { name: 'Reportes', exact: true }).first().click();
    await page.waitForURL('**/reports');
    const chart = page.getByTestId('sales-chart');
    await chart.locator('.recharts-bar-rectangle').first().waitFor();
    const bars = await chart.locator('.recharts-bar-rectangle path').evaluateAll((paths) => paths.map((p) => p.getBoundingClientRect().height).filter((h) => h > 0));
    assert.equal(bars.length, 1, 'una sola barra con ventas');
    const hour = await page.evaluate(() => `${String(new Date(Date.now() - 6 * 3600 * 1000).getUTCHours()).padStart(2, '0')}:00`);
    await chart.locator('.recharts-bar-rectangle path').filter({ hasNot: page.locator('[height="0"]') }).last().hover();
    const tooltip = chart.locator('.recharts-tooltip-wrapper');
    await tooltip.getByText(hour).waitFor();
    await tooltip.getByText(await money(page, 50)).waitFor();
    const activity = page.locator('.ant-card', { has: page.getByText('Actividad reciente', { exact: true }) });
    const row = activity.getByRole('row', { name: new RegExp(sale.code) });
    await row.waitFor();
    assert.match(await row.textContent(), /Completado/);
    const cardValue = async (title) => (await page.locator('.ant-statistic', { hasText: title }).locator('.ant-statistic-content').textContent()).trim();
    assert.equal(await cardValue('Ventas totales'), await money(page, 50));
    assert.equal(await cardValue('Pedidos POS'), '1(100.0%)');
    await shot(page, 'reports-today-desktop');

    // The cash close counts the sale's cash from its payment, with Spanish names and an es-GT date.
    const today = await page.evaluate(() => new Date(Date.now() - 6 * 3600 * 1000).toISOString().slice(0, 10).split('-').reverse().join('/'));
    assert.equal((await page.getByTestId('report-period').textContent()).trim(), today);
    const ticket = page.getByTestId('cash-close');
    await ticket.getByText(`Corte del ${today}`).waitFor();
    assert.match(await ticket.textContent(), /Efectivo \(1 pago\)/);
    const expected = ticket.locator('.ticket__row', { hasText: 'Efectivo esperado en caja' });
    assert.equal((await expected.locator('strong').last().textContent()).trim(), await money(page, 50));
    const movement = page.locator('.cash-close__movements').getByRole('row', { name: new RegExp(sale.code) });
    assert.match(await movement.textContent(), /Efectivo/);
    await page.locator('.cash-close').screenshot({ path: join(SHOTS, 'reports-cash-close-desktop.png') });

    // A year is charted by month.
    await page.getByText('Último año', { exact: true }).click();
    await page.getByText('Ventas por mes', { exact: true }).waitFor();
    await page.getByText('Hoy', { exact: true }).click();
    await page.getByText('Ventas por hora', { exact: true }).waitFor();

    // Excel: the download starts, and it is a workbook (a zip) named after the period.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Excel' }).click()]);
    assert.match(download.suggestedFilename(), /^reporte-today-\d{4}-\d{2}-\d{2}\.xlsx$/);
    const file = await download.path();
    const { readFileSync } = await import('node:fs');
    assert.equal(readFileSync(file).subarray(0, 2).toString(), 'PK');
  });
});

test('the dashboard and the reports page read well on a 375 px phone', async () => {
  assert.ok(sale, 'the first journey made a sale');
  await withPage('reports-phone', PHONE, async (page) => {
    await signIn(page, owner.email, owner.password);
    // Against 375 itself: on a phone the browser widens its viewport to content that overflows.
    const noSideScroll = () => page.evaluate(() => document.scrollingElement.scrollWidth <= 375);

    await page.getByTestId('stat-today-orders').waitFor();
    await page.waitForFunction(() => document.querySelector('[data-testid="stat-today-orders"]')?.textContent?.trim() === '1');
    assert.ok(await noSideScroll(), 'el panel no se desborda a lo ancho');
    // The stat cards stack: none is cut at the right edge.
    for (const box of await page.locator('.dash-stats .stat').evaluateAll((cards) => cards.map((c) => c.getBoundingClientRect().right))) {
      assert.ok(box <= 375 + 1, `tarjeta cortada en ${box}px`);
    }
    await shot(page, 'reports-dashboard-phone');

    await openOwnerPath(page, '/reports');
    await page.getByTestId('sales-chart').locator('.recharts-bar-rectangle').first().waitFor();
    assert.ok(await noSideScroll(), 'los reportes no se desbordan a lo ancho');
    const chartWidth = await page.getByTestId('sales-chart').evaluate((el) => el.getBoundingClientRect().width);
    assert.ok(chartWidth > 250 && chartWidth <= 375, `ancho de la gráfica ${chartWidth}px`);
    // (The cash close lists the sale's payment too: the row of the recent activity.)
    const row = page.locator('.ant-card', { has: page.getByText('Actividad reciente', { exact: true }) }).getByRole('row', { name: new RegExp(sale.code) });
    await row.waitFor();
    // The recent activity shows each order whole, its total included, without scrolling sideways.
    const rowRight = await row.evaluate((r) => r.getBoundingClientRect().right);
    assert.ok(rowRight <= 375, `la fila del pedido termina en ${rowRight}px`);
    await shot(page, 'reports-today-phone');
    // The periods fit with their short names; the week is charted by day.
    await page.getByText('7 días', { exact: true }).click();
    await page.getByText('Ventas por día', { exact: true }).waitFor();
    assert.ok(await noSideScroll(), 'la semana no se desborda a lo ancho');
    await page.getByText('1 año', { exact: true }).click();
    await page.getByText('Ventas por mes', { exact: true }).waitFor();
    assert.ok(await noSideScroll(), 'el año no se desborda a lo ancho');
    await page.getByTestId('cash-close').scrollIntoViewIfNeeded();
    await shot(page, 'reports-year-phone');
  });
});
