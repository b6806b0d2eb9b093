// Issue 24's journeys on a phone (375 px): a WhatsApp order placed through the public API shows on the
// demo owner's /orders as a card; one tap on 'Marcar como pagado' records its balance in cash, the card
// reads 'Pagado' and the detail lists the payment with the owner's name. And a POS sale the server
// refuses (the stock went while the cart was open) shows the server's 'Sin Stock: …', not a generic failure.
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE_URL, expectToast, registerThroughApi, signIn, uniqueOwner, useBrowser, withPage } from './support/browser.mjs';

useBrowser();

const DEMO = { email: 'demo@tiendita.gt', password: 'Demo1234' };
const PHONE = { viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true };

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

/** Whether the page scrolls sideways (something wider than the phone). */
async function scrollsSideways(page) {
  return page.evaluate(() => globalThis.document.documentElement.scrollWidth > globalThis.innerWidth + 1);
}

test('at 375 px the demo owner marks a WhatsApp order paid in cash: Pagado, and the payment with her name', async () => {
  await withPage('order-payments-phone', PHONE, async (page, context) => {
    const api = context.request;
    // A shopper's order through the public API (as the shop's checkout sends it).
    const products = (await (await api.get('/api/public/products/demo?page=1&limit=100')).json()).products;
    const product = products.find((p) => p.stock >= 2);
    assert.ok(product, 'la tienda demo tiene un producto con existencias');
    const customer = `Rosa Pago ${Date.now().toString(36)}`;
    const placed = await api.post('/api/public/orders/demo', {
      headers: { Origin: BASE_URL, 'Idempotency-Key': randomUUID() },
      data: { customerData: { name: customer, phone: '5551 7788', address: '2a calle 5-10, zona 1', notes: '' }, items: [{ productId: product.id, quantity: 1 }] },
    });
    assert.equal(placed.status(), 201, await placed.text());
    const order = await placed.json();

    await signIn(page, DEMO.email, DEMO.password);
    const me = await (await api.get('/api/auth/user')).json();
    const ownerName = `${me.firstName} ${me.lastName}`;
    await openOwnerPath(page, '/orders');
    // On a phone the filters wait in a sheet: the search stays on the page.
    // The orders screen is a lazy chunk: on a loaded machine its first paint can take a while.
    await page.getByRole('button', { name: 'Filtros' }).waitFor({ timeout: 45_000 });
    assert.equal(await page.getByLabel('Estado de pago').count(), 0, 'los filtros no ocupan la pantalla');
    await page.getByLabel('Buscar pedidos').fill(order.code);
    const card = page.getByRole('article', { name: `Pedido ${order.code}` });
    await card.waitFor();
    assert.equal(await page.locator('.orders-table').count(), 0, 'en un teléfono no hay tabla');
    assert.ok(!(await scrollsSideways(page)), 'la lista no se desplaza de lado');
    assert.match(await card.textContent(), new RegExp(customer));
    await card.getByText('Pago: Pendiente', { exact: true }).waitFor();
    // The next step is one tap.
    await card.getByRole('button', { name: /^Confirmar: pedido/ }).waitFor();

    const [payment] = await Promise.all([
      page.waitForResponse((res) => res.url().endsWith(`/api/orders/${order.id}/payments`) && res.request().method() === 'POST'),
      card.getByRole('button', { name: `Marcar como pagado el pedido ${order.code}` }).click(),
    ]);
    assert.equal(payment.status(), 201, await payment.text());
    assert.ok(payment.request().headers()['idempotency-key'], 'el pago lleva Idempotency-Key');
    const paid = await payment.json();
    assert.equal(paid.paymentStatus, 'paid');
    assert.equal(paid.balanceDue, 0);
    await page.locator('.toast-region .toast', { hasText: 'Pago registrado' }).first().waitFor();
    await card.getByText('Pago: Pagado', { exact: true }).waitFor();
    assert.equal(await card.getByRole('button', { name: `Marcar como pagado el pedido ${order.code}` }).count(), 0);

    // The detail: lines, the payment (method, amount, who and when) and the history.
    await card.getByRole('button', { name: `Ver pedido ${order.code}` }).click();
    const detail = page.getByRole('dialog', { name: `Pedido ${order.code}` });
    await detail.getByText(product.name).waitFor();
    const payments = detail.getByRole('region', { name: 'Pagos' });
    const line = payments.locator('.order-payment').first();
    await line.getByText('Efectivo').waitFor();
    assert.match(await line.textContent(), new RegExp(ownerName));
    const amount = await page.evaluate((n) => new Intl.NumberFormat('es-GT', { style: 'currency', currency: 'GTQ' }).format(n), order.total);
    assert.ok((await line.textContent()).includes(amount), `el pago muestra ${amount}`);
    await payments.getByText('Pagado', { exact: true }).waitFor();
    await detail.getByText('Pedido creado').waitFor();
    assert.ok(!(await scrollsSideways(page)), 'el detalle cabe en el teléfono');

    // The list filters by payment status: 'Pagado' keeps the order, 'Pendiente' drops it.
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Filtros' }).click();
    const sheet = page.getByRole('dialog', { name: 'Filtrar pedidos' });
    await sheet.getByLabel('Estado de pago').click();
    await page.locator('.ant-select-item-option', { hasText: /^Pendiente$/ }).last().click();
    await sheet.getByRole('button', { name: 'Ver pedidos' }).click();
    await page.getByText('No se encontraron pedidos').waitFor();
    await page.getByRole('button', { name: 'Filtros' }).click();
    await sheet.getByLabel('Estado de pago').click();
    await page.locator('.ant-select-item-option', { hasText: /^Pagado$/ }).last().click();
    await sheet.getByRole('button', { name: 'Ver pedidos' }).click();
    await card.waitFor();
  });
});

test("a POS sale the server refuses shows its message: 'Sin Stock: …'", async () => {
  await withPage('order-payments-pos-refused', PHONE, async (page, context) => {
    const owner = uniqueOwner('cobro');
    await registerThroughApi(page, owner);
    await signIn(page, owner.email, owner.password);
    const api = context.request;
    const name = 'Queso fresco';
    const created = await api.post('/api/products', {
      headers: { Origin: BASE_URL },
      data: { name, description: 'De la finca', sku: 'QSO-1', price: 18, discountPercentage: 0, stock: 2, categoryId: 'none', images: [], isActive: true },
    });
    assert.equal(created.status(), 201, await created.text());
    const product = await created.json();

    await openOwnerPath(page, '/pos');
    await page.getByLabel('Buscar por nombre o SKU').waitFor({ timeout: 45_000 });
    const tile = page.getByRole('button', { name: `Agregar 1 de ${name}` });
    // The grid shows the product with its stock once inventory opened it.
    for (let attempt = 0; !(await tile.textContent().catch(() => '')).includes('Stock: 2'); attempt++) {
      if (attempt > 20) throw new Error('el producto no llegó al POS con stock');
      await page.waitForTimeout(500);
      await page.reload();
    }
    await tile.click();
    await tile.click();
    // While the cart is open, the last units go (a shelf count finds none).
    const adjusted = await api.post('/api/inventory/adjust', {
      headers: { Origin: BASE_URL },
      data: { productId: product.id, newStock: 0, reason: 'Conteo: no quedó ninguno', adjustmentType: 'correction' },
    });
    assert.ok(adjusted.ok(), await adjusted.text());

    await page.locator('.pos__bar').getByRole('button', { name: /^Cobrar/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Cobrar' });
    await dialog.getByRole('button', { name: 'Exacto' }).click();
    const [response] = await Promise.all([
      page.waitForResponse((res) => res.url().endsWith('/api/orders') && res.request().method() === 'POST'),
      dialog.getByRole('button', { name: 'Confirmar venta' }).click(),
    ]);
    assert.equal(response.status(), 409);
    const { message } = await response.json();
    assert.match(message, /^Sin Stock: Queso fresco/);
    await dialog.getByText(message, { exact: true }).waitFor();
    await expectToast(page, `No se pudo registrar la venta: ${message}`);
  });
});
