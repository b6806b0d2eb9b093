/* global document -- evaluated in the page */
// Journey of issue 27 (the first day): a new owner registers 'Abarrotería Doña Rosa', finds their
// e-mail already on the login form, and lands on a dashboard with a first-steps checklist (no
// 'Conectado' bar, the shop's address a real link). Each step is a link; doing them moves the
// progress, and the card is gone once all four are done. Signed out, /pos asks for the login and
// comes back to /pos. The shop's long name breaks between words at 375 px.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { BASE_URL, uniqueOwner, useBrowser, withPage } from './support/browser.mjs';

useBrowser();

const STORE_NAME = 'Abarrotería Doña Rosa';

test('a new owner finds their e-mail on the login form and a first-steps checklist that goes once done', async () => {
  const owner = { ...uniqueOwner('dia1'), storeName: STORE_NAME };
  await withPage('primer-dia', { viewport: { width: 1280, height: 800 } }, async (page) => {
    await page.goto('/register');
    await page.getByLabel('Nombre', { exact: true }).fill(owner.firstName);
    await page.getByLabel('Apellido').fill(owner.lastName);
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Contraseña', { exact: true }).fill(owner.password);
    await page.getByRole('button', { name: 'Continuar' }).click();
    await page.getByLabel('Nombre de la tienda').fill(owner.storeName);
    await page.getByLabel('Subdominio').fill(owner.subdomain);
    await page.getByLabel('Tipo de negocio').selectOption(owner.businessType);
    await page.getByLabel('Departamento').selectOption(owner.storeDepartment);
    await page.getByRole('button', { name: 'Crear cuenta' }).click();
    await page.waitForURL('**/login');

    // The e-mail comes along: only the password is left to type.
    assert.equal(await page.getByLabel('Email').inputValue(), owner.email);
    await page.getByLabel('Contraseña', { exact: true }).fill(owner.password);
    await page.getByRole('button', { name: 'Iniciar Sesión' }).click();
    await page.waitForURL('**/dashboard');

    const card = page.locator('.first-steps');
    await card.waitFor();
    await card.getByText('0 de 4 listos').waitFor();
    for (const [label, href] of [
      ['Agrega tu primer producto', '/products'],
      ['Configura tu número de WhatsApp', '/settings#whatsapp'],
      ['Abre y comparte tu tienda', `/${owner.subdomain}`],
      ['Haz tu primera venta', '/pos'],
    ]) {
      assert.equal(await card.getByRole('link', { name: label }).getAttribute('href'), href, label);
    }
    assert.equal(await page.getByText('Conectado: tus datos están al día').count(), 0, 'sin la barra técnica de conexión');
    const address = page.getByRole('link', { name: `${new URL(BASE_URL).host}/${owner.subdomain}` });
    assert.equal(await address.getAttribute('href'), `/${owner.subdomain}`);

    // Steps done elsewhere count when the owner comes back: a product, the WhatsApp number, a sale.
    const api = page.request;
    const headers = { Origin: BASE_URL };
    const product = await api.post('/api/products', { headers, data: { name: 'Frijol negro 1 lb', price: 12.5, stock: 20 } });
    assert.equal(product.status(), 201, await product.text());
    const productId = (await product.json()).id;
    const store = await (await api.get('/api/store')).json();
    const wa = await api.put(`/api/store/${store.id}`, { headers, data: { whatsappNumber: '50255551234' } });
    assert.equal(wa.status(), 200, await wa.text());
    await page.getByRole('link', { name: 'Pedidos', exact: true }).click();
    await page.getByRole('link', { name: 'Dashboard', exact: true }).click();
    await card.getByText('2 de 4 listos').waitFor();

    // Opening the shop from the checklist is the third step.
    const [shop] = await Promise.all([page.context().waitForEvent('page'), card.getByRole('link', { name: 'Abre y comparte tu tienda' }).click()]);
    await shop.close();
    await card.getByText('3 de 4 listos').waitFor();

    // The first sale, then the card is gone, and stays gone.
    for (let attempt = 0; ; attempt++) {
      const sale = await api.post('/api/orders', {
        headers: { ...headers, 'Idempotency-Key': randomUUID() },
        data: { items: [{ productId, quantity: 1 }], paymentMethod: 'cash', cashReceived: 20 },
      });
      if (sale.status() === 201) break;
      // Inventory learns of the new product a moment after catalog.
      if (attempt > 20) throw new Error(`la venta falló: ${sale.status()} ${await sale.text()}`);
      await page.waitForTimeout(300);
    }
    await page.getByRole('link', { name: 'Pedidos', exact: true }).click();
    await page.getByRole('link', { name: 'Dashboard', exact: true }).click();
    await page.getByRole('heading', { name: STORE_NAME, level: 1 }).waitFor();
    await card.waitFor({ state: 'detached' });
    await page.reload();
    await page.getByRole('heading', { name: STORE_NAME, level: 1 }).waitFor();
    assert.equal(await card.count(), 0, 'la lista no vuelve');
  });

  await withPage('primer-dia-tienda', { viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true }, async (page) => {
    await page.goto(`/${owner.subdomain}`);
    const name = page.locator('.shop-header__name');
    await name.waitFor();
    // Each word of the name sits on one line: no 'Abarroterí / a'.
    const splitWords = await name.evaluate((el) => {
      const text = el.firstChild;
      const split = [];
      for (const match of text.textContent.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(text, match.index);
        range.setEnd(text, match.index + match[0].length);
        if (range.getClientRects().length > 1) split.push(match[0]);
      }
      return split;
    });
    assert.deepEqual(splitWords, []);
  });
});

test('signed out, /pos asks for the login and comes back to /pos', async () => {
  await withPage('primer-dia-volver', { viewport: { width: 1280, height: 800 } }, async (page) => {
    await page.goto('/pos');
    await page.waitForURL('**/login?next=%2Fpos');
    await page.getByLabel('Email').fill('demo@tiendita.gt');
    await page.getByLabel('Contraseña', { exact: true }).fill('Demo1234');
    await page.getByRole('button', { name: 'Iniciar Sesión' }).click();
    await page.waitForURL((url) => url.pathname === '/pos');
    await page.getByRole('complementary', { name: 'Carrito' }).waitFor();
  });
});
