// Journey of issue 28: the POS keeps selling when the connection drops. The owner opens the POS once
// online (the service worker keeps the app, IndexedDB the catalogue), goes offline, reloads (it still
// opens), sells three cash sales (one of a product whose server stock went to 0 meanwhile), sees
// 'Sin conexión — 3 ventas por enviar', goes online, and each sale is on the server exactly once,
// the stock moved, the shortfall is an alert and the count is back to nothing. A second journey loses
// the answer of a queued sale mid-send: sent again, still one sale each.
/* global indexedDB, navigator -- evaluated in the page */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { registerThroughApi, signIn, uniqueOwner, useBrowser, withPage } from './support/browser.mjs';

useBrowser();

const PHONE = { viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true };

/** A same-origin JSON call from the page (the session cookie and CSRF as the app's). */
async function api(page, method, url, body) {
  return page.evaluate(
    async ({ method, url, body }) => {
      const res = await fetch(url, { method, credentials: 'include', headers: body ? { 'Content-Type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined });
      return { status: res.status, body: await res.json().catch(() => null) };
    },
    { method, url, body },
  );
}

/** How many products the device's catalogue holds (IndexedDB 'tiendita-pos'). */
function cachedProducts(page) {
  return page.evaluate(
    () =>
      new Promise((resolve) => {
        const req = indexedDB.open('tiendita-pos');
        req.onsuccess = () => {
          const db = req.result;
          if (!db.objectStoreNames.contains('catalog')) return resolve(0);
          const get = db.transaction('catalog').objectStore('catalog').get('products');
          get.onsuccess = () => resolve(get.result?.products?.length ?? 0);
          get.onerror = () => resolve(0);
        };
        req.onerror = () => resolve(0);
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

/** Sells one product (one per click) for cash with Q50 at the offline POS; answers the receipt's local number. */
async function sellOffline(page, name) {
  await page.getByRole('button', { name: `Agregar 1 de ${name}` }).click();
  await page.locator('.pos__bar').getByRole('button', { name: /^Cobrar/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Cobrar' });
  await dialog.getByRole('button', { name: 'Q50', exact: true }).click();
  await dialog.getByRole('button', { name: 'Confirmar venta' }).click();
  const done = page.getByRole('dialog', { name: 'Venta' });
  await done.getByText('Venta guardada sin conexión').waitFor();
  const number = await done.getByTestId('pos-local-number').textContent();
  await done.getByRole('button', { name: 'Nueva venta' }).click();
  await done.waitFor({ state: 'hidden' });
  return number;
}

test('offline, the POS reopens and sells; back online each sale reaches the server once', async () => {
  await withPage('pos-offline', PHONE, async (page, context) => {
    const owner = uniqueOwner('offline');
    await registerThroughApi(page, owner);
    await signIn(page, owner.email, owner.password);
    const made = [];
    for (const p of [
      { name: 'Café de altura', price: 20, stock: 5 },
      { name: 'Pan dulce', price: 5, stock: 1 },
    ]) {
      const res = await api(page, 'POST', '/api/products', { ...p, categoryId: 'none', images: [], isActive: true });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      made.push(res.body);
    }
    const [coffee, bread] = made;

    // Online once: the service worker takes the page, the catalogue lands on the device.
    await page.goto('/pos');
    await page.getByRole('button', { name: `Agregar 1 de ${coffee.name}` }).waitFor();
    await page.evaluate(() => navigator.serviceWorker.ready);
    await until(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller)), Boolean, 'el service worker controla la página');
    await until(() => cachedProducts(page), (n) => n === 2, 'el catálogo en el dispositivo');

    // Meanwhile the bread sells out at the shop (its server stock goes to 0).
    const adjusted = await api(page, 'POST', '/api/inventory/adjust', { productId: bread.id, newStock: 0, adjustmentType: 'correction', reason: 'Vendido en mostrador' });
    assert.equal(adjusted.status, 200, JSON.stringify(adjusted.body));

    await context.setOffline(true);
    await page.reload();
    await page.getByRole('button', { name: `Agregar 1 de ${coffee.name}` }).waitFor();
    const numbers = [await sellOffline(page, bread.name), await sellOffline(page, coffee.name), await sellOffline(page, coffee.name)];
    assert.equal(new Set(numbers).size, 3, `números locales distintos: ${numbers}`);
    await page.getByTestId('pos-offline-status').getByText('Sin conexión — 3 ventas por enviar').waitFor();

    // After a reload, still offline, the queue is still there.
    await page.reload();
    await page.getByTestId('pos-offline-status').getByText('Sin conexión — 3 ventas por enviar').waitFor();

    await context.setOffline(false);
    await page.getByTestId('pos-offline-status').waitFor({ state: 'detached', timeout: 30_000 });

    // The list is a projection: the three sales, accepted together, may reach it a moment after their answers.
    const offlineIn = (list) => (list.body?.orders ?? []).filter((o) => (o.notes ?? '').startsWith('Venta sin conexión'));
    const list = await until(() => api(page, 'GET', '/api/orders?limit=100'), (l) => l.status === 200 && offlineIn(l).length >= 3, 'las tres ventas en la lista de pedidos');
    const offlineOrders = offlineIn(list);
    for (const n of numbers) assert.equal(offlineOrders.filter((o) => o.notes.startsWith(`Venta sin conexión ${n}`)).length, 1, `la venta ${n} está una vez`);
    assert.equal(offlineOrders.length, 3);
    const products = await api(page, 'GET', '/api/products?limit=100');
    const stockOf = (id) => products.body.products.find((p) => p.id === id).stock;
    assert.equal(stockOf(coffee.id), 3);
    assert.equal(stockOf(bread.id), 0);
    const alerts = await until(() => api(page, 'GET', '/api/inventory/alerts'), (r) => r.body?.shortfalls?.length > 0, 'la alerta de faltante');
    assert.deepEqual(
      alerts.body.shortfalls.map((s) => s.message),
      ['Vendido sin existencias: Pan dulce, faltan 1'],
    );
    // The bell shows it to the owner.
    await page.getByRole('button', { name: /Notificaciones/ }).click();
    await page.getByText('Vendido sin existencias: Pan dulce, faltan 1').waitFor();
  });
});

test('the answer of a sale sent from the queue is lost mid-send: sent again, it is still one sale', async () => {
  await withPage('pos-offline-mid-send', PHONE, async (page, context) => {
    const owner = uniqueOwner('offline2');
    await registerThroughApi(page, owner);
    await signIn(page, owner.email, owner.password);
    const res = await api(page, 'POST', '/api/products', { name: 'Agua pura', price: 5, stock: 10, categoryId: 'none', images: [], isActive: true });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    await page.goto('/pos');
    await page.getByRole('button', { name: 'Agregar 1 de Agua pura' }).waitFor();
    await page.evaluate(() => navigator.serviceWorker.ready);
    await until(() => cachedProducts(page), (n) => n === 1, 'el catálogo en el dispositivo');

    await context.setOffline(true);
    const numbers = [await sellOffline(page, 'Agua pura'), await sellOffline(page, 'Agua pura')];
    await page.getByTestId('pos-offline-status').getByText('Sin conexión — 2 ventas por enviar').waitFor();

    // Back online, the server takes the first sale but its answer never arrives (the connection drops).
    let lost = 0;
    await page.route('**/api/orders', async (route) => {
      if (route.request().method() !== 'POST' || lost > 0) return route.fallback();
      lost++;
      await route.fetch();
      await route.abort('connectionreset');
    });
    await context.setOffline(false);
    await until(() => Promise.resolve(lost), (n) => n === 1, 'el envío interrumpido');
    // The second sale, sent beside it (a few at a time), went through: the first waits.
    await page.getByTestId('pos-offline-status').getByText('1 venta por enviar').waitFor();
    // Sent again: the same device id names the same order.
    await page.getByRole('button', { name: 'Enviar ahora' }).click();
    await page.getByTestId('pos-offline-status').waitFor({ state: 'detached', timeout: 30_000 });

    const list = await api(page, 'GET', '/api/orders?limit=100');
    const offlineOrders = list.body.orders.filter((o) => (o.notes ?? '').startsWith('Venta sin conexión'));
    assert.equal(offlineOrders.length, 2);
    for (const n of numbers) assert.equal(offlineOrders.filter((o) => o.notes === `Venta sin conexión ${n}`).length, 1, `la venta ${n} está una vez`);
    const products = await api(page, 'GET', '/api/products?limit=100');
    assert.equal(products.body.products[0].stock, 8);
  });
});
