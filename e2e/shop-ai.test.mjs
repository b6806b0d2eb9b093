/* global document, PerformanceObserver -- evaluated in the page */
// Journey of issue 15: a shopper on the demo shop at 375 px types in the search box, sees AI
// suggestions after the pause (accents and typos forgiven), opens one, finds it among the recent
// searches, and asks the virtual assistant a question that it answers with the store's products.
// With E2E_SCREENSHOTS=<dir>, the screens along the way are kept there (to look at them).
// Before it, the first screen of /demo: in the HTML the gateway serves, and replaced by the app
// without moving anything.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { BASE_URL, useBrowser, withPage } from './support/browser.mjs';

useBrowser();

const SHOTS = process.env.E2E_SCREENSHOTS ?? '';
async function shot(page, name) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

/** Where the first screen's parts are on the page (CSS px), by selector: the static screen's, or the app's once it took over. */
function firstScreenBoxes() {
  const selectors = ['.shop-header', '.shop-header__name', '.shop-info', '.shop-search', '.shop-section-title', '.shop-fab', '.shop-fab--assistant'];
  for (let i = 1; i <= 4; i++) selectors.push(`.shop-grid > li:nth-child(${i})`, `.shop-grid > li:nth-child(${i}) img`, `.shop-grid > li:nth-child(${i}) .shop-price`, `.shop-grid > li:nth-child(${i}) .shop-button`);
  const shown = (el) => el.getClientRects().length > 0;
  return Object.fromEntries(
    selectors.map((selector) => {
      const box = [...document.querySelectorAll(selector)].find(shown)?.getBoundingClientRect();
      return [selector, box ? [box.x, box.y, box.width, box.height].map(Math.round).join(' ') : null];
    }),
  );
}

test('the first screen of /demo comes with its HTML; the app takes it over with nothing moving, one header, no sideways scroll (375 px)', async () => {
  // What a phone paints before any JavaScript: the header and the first four cards, before the app's root.
  const html = await (await fetch(`${BASE_URL}/demo`)).text();
  const body = html.slice(html.indexOf('<body'));
  assert.ok(body.indexOf('<div id="shop-first-screen"') !== -1 && body.indexOf('<div id="shop-first-screen"') < body.indexOf('<div id="root">'), 'la primera pantalla va antes de #root');
  assert.match(body, /<h1 class="shop-header__name">Tienda Demo<\/h1>/);
  assert.equal((body.match(/<li class="shop-card">/g) ?? []).length, 4);
  assert.match(html.slice(0, html.indexOf('</head>')), /#shop-first-screen ~ #root\{display:none\}/);

  const phone = { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
  let staticBoxes;
  await withPage('primera-pantalla-sin-js', { ...phone, javaScriptEnabled: false }, async (page) => {
    await page.goto('/demo');
    await page.getByRole('heading', { name: 'Tienda Demo', level: 1 }).waitFor();
    await shot(page, '0-primera-pantalla-sin-js');
    staticBoxes = await page.evaluate(firstScreenBoxes);
    assert.ok(staticBoxes['.shop-grid > li:nth-child(4)'], 'cuatro tarjetas');
    // Its cards are real links: they work before the app is there.
    await page.locator('.shop-card__open').first().click();
    await page.waitForURL(/\/demo\/product\/[0-9a-f-]{36}$/);
    await page.getByRole('heading', { level: 1 }).waitFor();
  });

  await withPage('primera-pantalla', phone, async (page) => {
    await page.goto('/demo');
    await page.locator('#shop-first-screen').waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: /^Productos · \d+ productos$/ }).waitFor();
    await page.waitForLoadState('networkidle');
    await shot(page, '0-primera-pantalla-app');
    assert.equal(await page.locator('.shop-header').count(), 1, 'un solo encabezado');
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 375, 'sin desplazamiento horizontal');
    assert.deepEqual(await page.evaluate(firstScreenBoxes), staticBoxes, 'la app ocupa los mismos lugares que la primera pantalla');
    const shifted = await page.evaluate(
      () =>
        new Promise((resolve) => {
          let sum = 0;
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries()) sum += entry.value;
          }).observe({ type: 'layout-shift', buffered: true });
          setTimeout(() => resolve(sum), 200);
        }),
    );
    assert.equal(shifted, 0, 'nada se movió');
  });
});

test('a shopper on a phone finds a product through the AI search and asks the assistant', async () => {
  await withPage('tienda-ia', { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 }, async (page) => {
    await page.goto('/demo');
    await page.getByRole('heading', { name: 'Tienda Demo', level: 1 }).waitFor();
    await page.getByRole('heading', { name: /^Productos · \d+ productos$/ }).waitFor();
    await shot(page, '1-tienda');

    // Typed without its accent and with a typo: the suggestions still name it, after the 800 ms pause.
    const box = page.getByRole('searchbox', { name: 'Buscar productos' });
    await box.click();
    const typedAt = Date.now();
    await box.pressSequentially('cafe de antiga', { delay: 40 });
    const suggestions = page.getByRole('list', { name: 'Sugerencias' });
    await suggestions.waitFor();
    assert.ok(Date.now() - typedAt >= 800, 'las sugerencias esperan la pausa de 800 ms');
    const first = suggestions.getByRole('button').first();
    assert.match(await first.textContent(), /Café de Antigua 1 lb/);
    assert.match(await first.textContent(), /Q\s?67\.50/, 'con su precio final (10 % de descuento)');
    await shot(page, '2-sugerencias');

    // Opening a suggestion shows the product.
    await first.click();
    const detail = page.getByRole('dialog', { name: 'Café de Antigua 1 lb' });
    await detail.waitFor();
    await detail.getByText('SKU: BEB-001').waitFor();
    await shot(page, '3-producto');
    await detail.getByRole('button', { name: 'Cerrar' }).click();
    await detail.waitFor({ state: 'hidden' });

    // The search is remembered among the store's recent searches (kept in this browser).
    await box.fill('');
    await box.focus();
    const recent = page.getByRole('list', { name: 'Búsquedas recientes' });
    await recent.waitFor();
    assert.deepEqual((await recent.getByRole('button').allTextContents()).map((t) => t.replace('↺', '').trim()), ['cafe de antiga']);

    // The assistant answers a question with the store's products, after a short pause.
    await page.getByRole('button', { name: 'Abrir asistente virtual' }).click();
    const assistant = page.getByRole('region', { name: 'Asistente virtual' });
    await assistant.waitFor();
    await assistant.getByText('¡Hola! Soy el asistente de').waitFor();
    await assistant.getByLabel('Tu pregunta').fill('¿Tienen frijol?');
    const askedAt = Date.now();
    await assistant.getByRole('button', { name: 'Enviar' }).click();
    await assistant.getByText('Escribiendo…').waitFor();
    const answer = assistant.locator('.shop-assistant__msg--bot', { hasText: 'Esto es lo que encontré' });
    await answer.waitFor();
    const waited = Date.now() - askedAt;
    assert.ok(waited >= 1000, `el asistente responde tras al menos 1 s (tardó ${waited} ms)`);
    const frijol = answer.getByRole('link', { name: /^Frijol negro 2 lb — Q\s?16\.00$/ });
    await frijol.waitFor();
    await shot(page, '4-asistente');

    // A question with no match gets a helpful answer rather than silence.
    await assistant.getByLabel('Tu pregunta').fill('xqzwv');
    await assistant.getByRole('button', { name: 'Enviar' }).click();
    await assistant.getByText('No encontré productos con esa descripción.').waitFor();

    // A product it names opens its page; the conversation is still there when the assistant opens again.
    await frijol.click();
    await page.waitForURL(/\/demo\/product\/[0-9a-f-]{36}$/);
    await page.getByRole('heading', { name: 'Frijol negro 2 lb', level: 1 }).waitFor();
    await assistant.waitFor({ state: 'hidden' });
    await shot(page, '5-pagina-producto');
    await page.getByRole('button', { name: 'Abrir asistente virtual' }).click();
    await assistant.getByText('¿Tienen frijol?').waitFor();
    await assistant.getByRole('button', { name: 'Cerrar asistente' }).click();
    await assistant.waitFor({ state: 'hidden' });
  });
});
