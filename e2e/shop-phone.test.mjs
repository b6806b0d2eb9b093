/* global document, window -- evaluated in the page */
// Journey of issue 27 (the shop on a phone): on /demo at 320, 375 and 430 px nothing covers an
// 'Agregar' button, wherever the page is scrolled to bring it into view (checked with
// elementFromPoint at the button's centre); the same for 'Agregar al carrito' on a product page; the
// whole card opens the product (its name too); and the checkout's 'Datos incompletos' goes away as
// soon as the fields are filled.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, withPage } from './support/browser.mjs';

useBrowser();

const phone = (width) => ({ viewport: { width, height: 740 }, isMobile: true, hasTouch: true });

/**
 * For each button the page shows with this exact name, scrolled into view at the top, the centre and
 * the bottom of the window: what elementFromPoint finds at its centre when it is not the button itself
 * (or something inside it). An empty list means nothing ever covered one.
 */
function coveredButtons(name) {
  const buttons = [...document.querySelectorAll('button')].filter((b) => b.textContent.trim() === name && b.getClientRects().length > 0);
  const covered = [];
  for (const [i, button] of buttons.entries()) {
    for (const block of ['start', 'center', 'end']) {
      button.scrollIntoView({ block, behavior: 'instant' });
      const box = button.getBoundingClientRect();
      const x = box.left + box.width / 2;
      const y = box.top + box.height / 2;
      if (y < 0 || y > window.innerHeight) {
        covered.push(`#${i} (${block}) fuera de la ventana`);
        continue;
      }
      const hit = document.elementFromPoint(x, y);
      if (!hit || !button.contains(hit)) covered.push(`#${i} (${block}) tapado por ${hit ? `${hit.tagName.toLowerCase()}.${[...hit.classList].join('.')}` : 'nada'}`);
    }
  }
  return { count: buttons.length, covered };
}

for (const width of [320, 375, 430]) {
  test(`nothing covers 'Agregar' in the demo shop at ${width} px, and the header fits the name`, async () => {
    await withPage(`tienda-telefono-${width}`, phone(width), async (page) => {
      await page.goto('/demo');
      await page.getByRole('heading', { name: 'Tienda Demo', level: 1 }).waitFor();
      await page.locator('.shop-grid .shop-button', { hasText: 'Agregar' }).first().waitFor();
      await page.waitForFunction(() => !document.getElementById('shop-first-screen'));

      const result = await page.evaluate(coveredButtons, 'Agregar');
      assert.ok(result.count >= 8, `al menos 8 botones 'Agregar' (hay ${result.count})`);
      assert.deepEqual(result.covered, []);

      // No sideways scroll, and the header's buttons are all on screen.
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'sin desplazamiento horizontal');
      for (const name of ['Ayuda', 'Suscribirse', 'Abrir asistente virtual', 'Carrito (0)']) {
        const box = await page.getByRole('button', { name, exact: true }).boundingBox();
        assert.ok(box && box.x >= 0 && box.x + box.width <= width, `${name} dentro de la pantalla`);
      }
    });
  });
}

test('at 375 px the card opens from its name, and nothing covers the product page\'s buy buttons', async () => {
  await withPage('tienda-telefono-producto', phone(375), async (page) => {
    await page.goto('/demo');
    const firstName = page.locator('.shop-grid .shop-card__name').first();
    await firstName.waitFor();
    await page.waitForFunction(() => !document.getElementById('shop-first-screen'));
    const name = (await firstName.textContent()).trim();

    // A tap on the name (not the picture) opens the product.
    await firstName.click();
    const dialog = page.getByRole('dialog', { name });
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    // Its own page: 'Agregar al carrito' and 'Ver carrito' are never under anything.
    const { products } = await (await page.request.get('/api/public/products/demo?limit=24')).json();
    const inStock = products.find((p) => p.stock > 0);
    await page.goto(`/demo/product/${inStock.id}`);
    await page.getByRole('heading', { name: inStock.name, level: 1 }).waitFor();
    await page.waitForFunction(() => !document.getElementById('shop-first-screen'));
    for (const label of ['Agregar al carrito', 'Ver carrito']) {
      const result = await page.evaluate(coveredButtons, label);
      assert.equal(result.count, 1, label);
      assert.deepEqual(result.covered, [], label);
    }
  });
});

test("at 375 px the checkout's 'Datos incompletos' goes away as soon as name and phone are filled", async () => {
  await withPage('tienda-telefono-checkout', phone(375), async (page) => {
    await page.goto('/demo');
    const add = page.locator('.shop-grid .shop-button', { hasText: 'Agregar' }).first();
    await add.waitFor();
    await page.waitForFunction(() => !document.getElementById('shop-first-screen'));
    await add.click();
    await page.getByRole('button', { name: 'Carrito (1)' }).click();
    await page.getByRole('dialog', { name: 'Tu carrito' }).getByRole('button', { name: 'Realizar pedido' }).click();
    const checkout = page.getByRole('dialog', { name: 'Finalizar pedido' });
    await checkout.getByRole('button', { name: 'Confirmar pedido por WhatsApp' }).click();
    const incomplete = checkout.getByText('Datos incompletos', { exact: false });
    await incomplete.waitFor();
    assert.equal(await checkout.getByLabel('Nombre *').getAttribute('aria-invalid'), 'true');

    await checkout.getByLabel('Nombre *').fill('Marta Juárez');
    assert.equal(await incomplete.count(), 1, 'falta el teléfono: el aviso sigue');
    await checkout.getByLabel('Teléfono *').fill('5550 1111');
    await incomplete.waitFor({ state: 'detached' });
    assert.equal(await checkout.getByLabel('Nombre *').getAttribute('aria-invalid'), 'false');
  });
});
