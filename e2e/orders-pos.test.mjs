// Journey of issue 11: a shopper on a phone (375 px) fills a cart on /demo, checks out and gets the
// wa.me link with the itemised message; the owner finds the order on /orders, moves it to confirmed and
// on to completed, and reads its history; a POS sale at 375 px (scanned SKU, cash with change) shows
// 'Venta Registrada', its receipt view and its PDF. And the settings act on the shop: a store that
// asks for the address marks it required at checkout, and one that stops taking online orders hides it.
/* global localStorage -- evaluated in the page */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE_URL, expectToast, registerThroughApi, signIn, uniqueOwner, useBrowser, waitForShopApp, withPage } from './support/browser.mjs';

useBrowser();

const DEMO = { email: 'demo@tiendita.gt', password: 'Demo1234' };
const PHONE = { viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true };

/** Whether two boxes overlap. */
function overlaps(a, b) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

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

let placed = null;

test('a shopper at 375 px orders on /demo and gets the itemised WhatsApp message', async () => {
  await withPage('orders-shopper', PHONE, async (page, context) => {
    // wa.me is outside the test machine: answer it locally, and read the URL the shop opened.
    await context.route('https://wa.me/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<p>WhatsApp</p>' }));
    await page.goto('/demo');
    const products = await page.evaluate(async () => (await (await fetch('/api/public/products/demo?page=1&limit=100')).json()).products);
    const product = products.find((p) => p.stock >= 3 && p.discountPercentage > 0) ?? products.find((p) => p.stock >= 3);
    assert.ok(product, 'la tienda demo tiene un producto con existencias');

    await page.goto(`/demo/product/${product.id}`);
    await waitForShopApp(page);
    const add = page.getByRole('button', { name: 'Agregar al carrito' });
    await add.waitFor();
    await add.scrollIntoViewIfNeeded();
    // The floating cart never covers 'Agregar al carrito' on a phone.
    const fab = page.locator('.shop-fab:not(.shop-fab--assistant)');
    if (await fab.isVisible()) assert.ok(!overlaps(await fab.boundingBox(), await add.boundingBox()), 'el carrito flotante tapa "Agregar al carrito"');
    await page.getByRole('button', { name: 'Agregar uno' }).click();
    await add.click();
    await page.locator('.toast-region .toast', { hasText: 'Agregado al carrito' }).waitFor();

    await page.getByRole('button', { name: 'Ver carrito' }).click();
    const cart = page.getByRole('dialog', { name: 'Tu carrito' });
    await cart.getByText(product.name).waitFor();
    // The line shows the price the server charges (after discount).
    const finalText = await page.evaluate((n) => new Intl.NumberFormat('es-GT', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(n), product.finalPrice);
    assert.match(await cart.textContent(), new RegExp(`Q\\s?${finalText.replace(/[.,]/g, '\\$&')} c/u`));
    await cart.getByRole('button', { name: 'Realizar pedido' }).click();

    const checkout = page.getByRole('dialog', { name: 'Finalizar pedido' });
    // Name and phone are required.
    await checkout.getByRole('button', { name: 'Confirmar pedido por WhatsApp' }).click();
    await checkout.getByText('Datos incompletos: Por favor completa tu nombre y teléfono.').waitFor();
    const customer = `Lucía Journey ${Date.now().toString(36)}`;
    await checkout.getByLabel('Nombre *').fill(customer);
    await checkout.getByLabel('Teléfono *').fill('5551 2345');
    await checkout.getByLabel('Dirección (opcional)').fill('4a avenida 3-21, zona 1, Antigua');
    await checkout.getByLabel('Notas (opcional)').fill('Tocar el timbre');
    const [popup, response] = await Promise.all([
      context.waitForEvent('page'),
      page.waitForResponse((res) => res.url().includes('/api/public/orders/demo') && res.request().method() === 'POST'),
      checkout.getByRole('button', { name: 'Confirmar pedido por WhatsApp' }).click(),
    ]);
    assert.equal(response.status(), 201);
    assert.ok(response.request().headers()['idempotency-key'], 'el pedido lleva Idempotency-Key');
    const order = await response.json();
    assert.equal(order.status, 'pending');
    await page.locator('.toast-region .toast', { hasText: `¡Pedido confirmado!` }).first().waitFor({ state: 'attached' });
    await popup.waitForURL(/^https:\/\/wa\.me\//);
    const url = new URL(popup.url());
    assert.equal(url.pathname, '/50255555555');
    const message = url.searchParams.get('text') ?? '';
    assert.ok(message.includes(order.code), 'el mensaje lleva el código');
    assert.ok(message.includes(product.name), 'el mensaje lleva cada producto');
    assert.ok(message.includes(customer), 'el mensaje lleva el nombre del cliente');
    await page.getByRole('dialog', { name: '¡Pedido confirmado!' }).getByRole('link', { name: 'Abrir WhatsApp' }).waitFor();
    // The cart is empty after the order.
    assert.equal(await page.evaluate(() => localStorage.getItem('tiendita.cart.demo')), null);
    placed = { ...order, customer };
  });
});

test('the owner confirms the order on /orders, moves it to completed and reads its history', async () => {
  assert.ok(placed, 'el pedido del comprador existe');
  await withPage('orders-owner', {}, async (page) => {
    await signIn(page, DEMO.email, DEMO.password);
    await openOwnerPath(page, '/orders');
    await page.getByRole('tab', { name: 'Lista de pedidos' }).waitFor();
    await page.getByLabel('Buscar pedidos').fill(placed.code);
    const row = page.locator('.orders-table tbody tr', { hasText: placed.code });
    await row.waitFor();
    assert.ok((await row.textContent()).includes(placed.id.slice(-8)));
    assert.ok((await row.textContent()).includes(placed.customer));

    const steps = ['Confirmado', 'En preparación', 'Listo', 'En camino', 'Entregado', 'Completado'];
    for (const label of steps) {
      await row.getByRole('button', { name: `Cambiar estado del pedido ${placed.code}` }).click();
      const dialog = page.getByRole('dialog', { name: 'Cambiar estado del pedido' });
      await dialog.getByRole('radio', { name: label }).check();
      if (label === 'Confirmado') await dialog.getByLabel('Nota (opcional)').fill('Confirmado por teléfono');
      await dialog.getByRole('button', { name: 'Confirmar' }).click();
      await expectToast(page, `Estado actualizado: ${placed.code}: ${label}`);
      // One tap to tell the customer, with the message already written.
      const wa = dialog.getByRole('link', { name: 'Avisar al cliente por WhatsApp' });
      const href = await wa.getAttribute('href');
      assert.match(href, /^https:\/\/wa\.me\/50255512345\?text=/);
      assert.ok(decodeURIComponent(href).includes(placed.code));
      await dialog.locator('.ant-modal-footer').getByRole('button', { name: 'Cerrar' }).click();
      await row.getByText(label, { exact: true }).waitFor();
    }
    // Completed cannot move any more.
    assert.ok(await row.getByRole('button', { name: `Cambiar estado del pedido ${placed.code}` }).isDisabled());

    await row.getByRole('button', { name: `Historial del pedido ${placed.code}` }).click();
    const history = page.getByRole('dialog', { name: `Historial del pedido ${placed.code}` });
    await history.getByText('Pedido creado').waitFor();
    await history.getByText('Pendiente → Confirmado').waitFor();
    await history.getByText('Confirmado por teléfono').waitFor();
    await history.getByText('Entregado → Completado').waitFor();
    await history.getByText('Tocar el timbre').waitFor();
  });
});

test('a POS sale at 375 px: scanned SKU, cash with change, Venta Registrada and its receipt', async () => {
  await withPage('orders-pos', PHONE, async (page) => {
    await signIn(page, DEMO.email, DEMO.password);
    await openOwnerPath(page, '/pos');
    const search = page.getByLabel('Buscar por nombre o SKU');
    await search.waitFor();
    const products = await page.evaluate(async () => (await (await fetch('/api/products?limit=100&isActive=true')).json()).products);
    const product = products.find((p) => p.sku && p.stock >= 2 && p.finalPrice > 0 && p.finalPrice * 2 < 500);
    assert.ok(product, 'hay un producto con SKU, existencias y precio bajo');
    // Quantity per click 2, then a scanner types the SKU and Enter.
    await page.getByText('2', { exact: true }).first().click();
    await search.fill(product.sku);
    await search.press('Enter');
    const cart = page.getByRole('complementary', { name: 'Carrito' });
    await cart.getByText(product.name).waitFor();
    assert.equal(await cart.getByLabel(`Cantidad de ${product.name}`).inputValue(), '2');

    await page.locator('.pos__bar').getByRole('button', { name: /^Cobrar/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Cobrar' });
    await dialog.getByText('Próximamente').first().waitFor();
    await dialog.getByLabel('Efectivo recibido').fill('0.01');
    await dialog.getByRole('button', { name: 'Confirmar venta' }).click();
    await dialog.getByText('Pago Insuficiente: El monto recibido es menor al total de la venta').waitFor();
    await dialog.getByRole('button', { name: 'Q500' }).click();
    await dialog.getByLabel('NIT').fill('1234567-9');
    const [response] = await Promise.all([
      page.waitForResponse((res) => res.url().endsWith('/api/orders') && res.request().method() === 'POST'),
      dialog.getByRole('button', { name: 'Confirmar venta' }).click(),
    ]);
    assert.equal(response.status(), 201);
    const sale = await response.json();
    const expectedChange = Math.round(50000 - Math.round(sale.total * 100)) / 100;
    assert.equal(sale.change, expectedChange);
    const done = page.getByRole('dialog', { name: 'Venta' });
    await done.getByText('Venta Registrada').waitFor();
    await done.getByText(`Pedido ${sale.code}`).waitFor();
    // The cart and customer fields are cleared after the sale.
    await cart.getByText('El carrito está vacío').waitFor();

    await done.getByRole('button', { name: 'Ver recibo' }).click();
    await page.waitForURL(`**/orders/${sale.id}/receipt`);
    const receipt = page.getByRole('article', { name: `Recibo del pedido ${sale.code}` });
    await receipt.getByText('1234567-9').waitFor();
    await receipt.getByText('Cliente en tienda').waitFor();
    // The print view is 72 mm of an 80 mm roll.
    const width = await receipt.evaluate((el) => el.getBoundingClientRect().width);
    assert.ok(Math.abs(width - (72 * 96) / 25.4) < 2, `ancho del recibo ${width}px`);
    const pdf = await page.request.get(`/api/orders/${sale.id}/receipt.pdf`);
    assert.equal(pdf.status(), 200);
    assert.match(pdf.headers()['content-type'], /application\/pdf/);
    assert.equal((await pdf.body()).subarray(0, 5).toString(), '%PDF-');
  });
});

test("a store's settings act on its shop at 375 px: address required, then no online orders and no checkout", async () => {
  await withPage('orders-settings-shop', PHONE, async (page, context) => {
    await context.route('https://wa.me/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<p>WhatsApp</p>' }));
    const owner = uniqueOwner('pedidos');
    await registerThroughApi(page, owner);
    await signIn(page, owner.email, owner.password);
    const api = context.request;
    const store = await (await api.get('/api/store')).json();
    const put = await api.put(`/api/store/${store.id}`, { headers: { Origin: BASE_URL }, data: { whatsappNumber: '5555 8888', allowOnlineOrders: true, requireCustomerInfo: true } });
    assert.equal(put.status(), 200, await put.text());
    const created = await api.post('/api/products', {
      headers: { Origin: BASE_URL },
      data: { name: 'Pan de banano', description: 'Recién horneado', sku: 'PAN-1', price: 12, discountPercentage: 0, stock: 8, categoryId: 'none', images: [], isActive: true },
    });
    assert.equal(created.status(), 201, await created.text());

    // The shop shows the product with its stock once inventory opened it.
    for (let attempt = 0; ; attempt++) {
      await page.goto(`/${owner.subdomain}`);
      await page.getByRole('heading', { name: 'Pan de banano' }).waitFor();
      if (await page.getByRole('button', { name: 'Agregar', exact: true }).isEnabled()) break;
      if (attempt > 20) throw new Error('el producto no llegó a la tienda con stock');
      await page.waitForTimeout(500);
    }
    await page.getByRole('button', { name: 'Agregar', exact: true }).click();
    await page.getByRole('button', { name: /^Carrito \(/ }).click();
    await page.getByRole('dialog', { name: 'Tu carrito' }).getByRole('button', { name: 'Realizar pedido' }).click();
    const checkout = page.getByRole('dialog', { name: 'Finalizar pedido' });
    await checkout.getByLabel('Nombre *').fill('Marta Juárez');
    await checkout.getByLabel('Teléfono *').fill('5550 1111');
    // The store asks for the address: marked required, and refused without it.
    const address = checkout.getByLabel('Dirección *');
    assert.equal(await address.getAttribute('required'), '');
    await checkout.getByRole('button', { name: 'Confirmar pedido por WhatsApp' }).click();
    await checkout.getByText('Datos incompletos: Por favor completa tu dirección de entrega.').waitFor();
    await address.fill('3a calle 4-10, zona 2, Xela');
    const [popup, response] = await Promise.all([
      context.waitForEvent('page'),
      page.waitForResponse((res) => res.url().includes(`/api/public/orders/${owner.subdomain}`) && res.request().method() === 'POST'),
      checkout.getByRole('button', { name: 'Confirmar pedido por WhatsApp' }).click(),
    ]);
    assert.equal(response.status(), 201);
    await popup.waitForURL(/^https:\/\/wa\.me\/50255558888/);

    // Online orders off: the cart keeps its lines but offers no checkout, and says why.
    const off = await api.put(`/api/store/${store.id}`, { headers: { Origin: BASE_URL }, data: { allowOnlineOrders: false } });
    assert.equal(off.status(), 200, await off.text());
    const cart = page.getByRole('dialog', { name: 'Tu carrito' });
    const closed = cart.getByText('Esta tienda no está aceptando pedidos en línea por ahora.');
    // The shop reads the store from catalog's copy, which follows the change a moment later.
    for (let attempt = 0; ; attempt++) {
      await page.goto(`/${owner.subdomain}`);
      if (attempt === 0) await page.getByRole('button', { name: 'Agregar', exact: true }).click();
      await page.getByRole('button', { name: /^Carrito \(/ }).click();
      await cart.getByText('Pan de banano').waitFor();
      if (await closed.isVisible()) break;
      if (attempt > 20) throw new Error('la tienda sigue ofreciendo el checkout');
      await page.waitForTimeout(500);
    }
    assert.equal(await cart.getByRole('button', { name: 'Realizar pedido' }).count(), 0);
  });
});
