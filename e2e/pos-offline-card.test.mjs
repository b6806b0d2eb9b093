// Journeys of issue 28: card sales while the POS is offline follow the owner's choice in Configuración,
// and the owner sees in Pedidos which offline sales wait for a card payment or used an old price.
// 1. By default a card sale offline is refused (a Spanish message; nothing is queued).
// 2. The owner chooses 'pago con tarjeta pendiente de confirmar' (Configuración › Avanzado); offline, a
//    card sale is queued and its receipt says so; the price changed online meanwhile, so the sale keeps
//    the price shown. Back online it reaches the server with its payment pending; Pedidos shows
//    'Tarjeta por confirmar' and 'Precio anterior', and 'Confirmar pago con tarjeta' records the payment.
/* global indexedDB, navigator -- evaluated in the page */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { registerThroughApi, signIn, uniqueOwner, useBrowser, withPage } from './support/browser.mjs';

useBrowser();

const PHONE = { viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true };
const SHOTS = process.env.E2E_SHOTS_DIR;
const shot = (page, name) => (SHOTS ? page.screenshot({ path: `${SHOTS}/${name}.png` }) : Promise.resolve());

async function api(page, method, url, body) {
  return page.evaluate(
    async ({ method, url, body }) => {
      const res = await fetch(url, { method, credentials: 'include', headers: body ? { 'Content-Type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined });
      return { status: res.status, body: await res.json().catch(() => null) };
    },
    { method, url, body },
  );
}

function cachedCatalog(page) {
  return page.evaluate(
    () =>
      new Promise((resolve) => {
        const req = indexedDB.open('tiendita-pos');
        req.onsuccess = () => {
          const db = req.result;
          if (!db.objectStoreNames.contains('catalog')) return resolve([]);
          const get = db.transaction('catalog').objectStore('catalog').get('products');
          get.onsuccess = () => resolve((get.result?.products ?? []).map((p) => ({ name: p.name, finalPrice: p.finalPrice })));
          get.onerror = () => resolve([]);
        };
        req.onerror = () => resolve([]);
      }),
  );
}

async function until(probe, ok, what, ms = 20_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`tiempo agotado esperando: ${what} (último valor ${JSON.stringify(v)})`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** A new owner with one product, the POS opened once online (the worker and the catalogue on the device). */
async function ownerAtPos(page, label, product) {
  const owner = uniqueOwner(label);
  await registerThroughApi(page, owner);
  await signIn(page, owner.email, owner.password);
  const made = await api(page, 'POST', '/api/products', { ...product, categoryId: 'none', images: [], isActive: true });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  return made.body;
}

async function openPosOnline(page, product) {
  await page.goto('/pos');
  await page.getByRole('button', { name: `Agregar 1 de ${product.name}` }).waitFor();
  await page.evaluate(() => navigator.serviceWorker.ready);
  await until(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller)), Boolean, 'el service worker controla la página');
  await until(() => cachedCatalog(page), (c) => c.length === 1, 'el catálogo en el dispositivo');
}

/** Puts one unit in the cart and opens 'Cobrar' with the card method chosen. */
async function cardCheckout(page, name) {
  await page.getByRole('button', { name: `Agregar 1 de ${name}` }).click();
  await page.locator('.pos__bar').getByRole('button', { name: /^Cobrar/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Cobrar' });
  await dialog.getByText('Tarjeta', { exact: true }).click();
  return dialog;
}

test('by default a card sale offline is refused in Spanish and nothing is queued', async () => {
  await withPage('pos-offline-card-refused', PHONE, async (page, context) => {
    const product = await ownerAtPos(page, 'card-refuse', { name: 'Jabón de coco', price: 12, stock: 5 });
    await openPosOnline(page, product);
    await context.setOffline(true);
    await page.reload();
    const dialog = await cardCheckout(page, product.name);
    const refused = 'Sin conexión: no se puede cobrar con tarjeta. Cobra en efectivo o espera a que vuelva la conexión.';
    await dialog.getByText(refused).first().waitFor();
    await dialog.getByRole('button', { name: 'Confirmar venta' }).click();
    await until(() => dialog.getByText(refused).count(), (n) => n >= 2, 'el rechazo al confirmar');
    await shot(page, 'card-refused-375');
    assert.equal(await page.getByTestId('pos-offline-status').textContent(), 'Sin conexión — 0 ventas por enviar');
  });
});

test("with 'pendiente de confirmar' chosen, a card sale offline is queued, kept at the price shown, and confirmed later in Pedidos", async () => {
  await withPage('pos-offline-card-pending', PHONE, async (page, context) => {
    const product = await ownerAtPos(page, 'card-pending', { name: 'Café de altura', price: 20, stock: 5 });

    // Configuración › Avanzado: the owner's choice.
    await page.goto('/settings#advanced');
    const choice = page.getByRole('radio', { name: 'Aceptarlas como pago con tarjeta pendiente de confirmar' });
    await choice.waitFor();
    await choice.check();
    await shot(page, 'settings-offline-card-375');
    await page.getByRole('button', { name: 'Guardar Cambios' }).click();
    await until(() => api(page, 'GET', '/api/store/settings'), (r) => r.body?.offlineCardPayments === 'pending', 'la opción guardada');

    await openPosOnline(page, product);
    // The price goes up at the shop while this device keeps the one it saw.
    const changed = await api(page, 'PUT', `/api/products/${product.id}`, { price: 25 });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));

    await context.setOffline(true);
    await page.reload();
    const dialog = await cardCheckout(page, product.name);
    await dialog.getByText('Sin conexión: la venta quedará como «pago con tarjeta pendiente de confirmar».').waitFor();
    await dialog.getByRole('button', { name: 'Confirmar venta' }).click();
    const done = page.getByRole('dialog', { name: 'Venta' });
    await done.getByText('Venta guardada sin conexión').waitFor();
    await done.getByTestId('pos-card-pending').getByText('Pago con tarjeta pendiente de confirmar').waitFor();
    await shot(page, 'card-pending-receipt-375');
    const number = await done.getByTestId('pos-local-number').textContent();
    await done.getByRole('button', { name: 'Nueva venta' }).click();
    await page.getByTestId('pos-offline-status').getByText('Sin conexión — 1 venta por enviar').waitFor();

    // The queue, at 375 px: the sale, its card pending, nothing failed.
    await page.getByRole('button', { name: 'Ver cola' }).click();
    const drawer = page.getByRole('dialog', { name: 'Ventas por enviar' });
    await drawer.getByText(number).waitFor();
    await drawer.getByText('Pago con tarjeta pendiente de confirmar').waitFor();
    const box = await drawer.boundingBox();
    assert.ok(box && box.width <= 375, `la cola cabe en el teléfono (${box?.width} px)`);
    await shot(page, 'queue-375');
    await drawer.getByRole('button', { name: /Cerrar|Close/ }).click();

    await context.setOffline(false);
    await page.getByTestId('pos-offline-status').waitFor({ state: 'detached', timeout: 30_000 });

    const list = await api(page, 'GET', '/api/orders?limit=100');
    const sold = list.body.orders.filter((o) => (o.notes ?? '').startsWith(`Venta sin conexión ${number}`));
    assert.equal(sold.length, 1, 'una venta en el servidor');
    const order = sold[0];
    assert.equal(order.notes, `Venta sin conexión ${number} — precio anterior usado: ${product.name}`);
    assert.deepEqual(
      { status: order.status, paymentMethod: order.paymentMethod, paymentStatus: order.paymentStatus, total: order.total, amountPaid: order.amountPaid, price: order.items[0].price, listPrice: order.items[0].listPrice },
      { status: 'completed', paymentMethod: 'card', paymentStatus: 'pending', total: 20, amountPaid: 0, price: 20, listPrice: 25 },
    );

    // Pedidos on the phone: the card waits for confirmation, the sale used an old price.
    await page.goto('/orders');
    const card = page.getByRole('article', { name: `Pedido ${order.code}` });
    await card.getByText('Tarjeta por confirmar').waitFor();
    await card.getByText('Precio anterior').waitFor();
    await shot(page, 'orders-offline-tags-375');
    await card.getByRole('button', { name: `Ver pedido ${order.code}` }).click();
    const detail = page.getByRole('dialog', { name: `Pedido ${order.code}` });
    await detail.getByText('Vendida sin conexión con un precio anterior').waitFor();
    await detail.getByText(`${product.name}: cobrado Q 20.00, precio de catálogo Q 25.00`).or(detail.getByText(/cobrado Q\s?20\.00, precio de catálogo Q\s?25\.00/)).first().waitFor();
    await shot(page, 'order-detail-offline-375');
    await detail.getByRole('button', { name: `Confirmar el pago con tarjeta del pedido ${order.code}` }).click();
    const paid = await until(() => api(page, 'GET', `/api/orders/${order.id}`), (r) => r.body?.paymentStatus === 'paid', 'el pago confirmado');
    assert.deepEqual(
      paid.body.payments.map((p) => ({ method: p.method, amount: p.amount })),
      [{ method: 'card', amount: 20 }],
    );
  });
});
