// The landing page of spec 000 §2 on a phone: the carousel's arrows, dots, wrapping and 6 s
// auto-advance; real destinations instead of '#'; and nothing wider than the screen.
/* global document -- evaluated in the page */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, withPage } from './support/browser.mjs';

useBrowser();

const currentSlide = (page) => page.locator('.hero__dot[aria-current="true"]').getAttribute('aria-label');

test('landing: the hero carousel wraps both ways and advances by itself; links go somewhere real; fits 360 px', async () => {
  await withPage('inicio', { viewport: { width: 360, height: 740 } }, async (page) => {
    await page.goto('/');
    await page.getByRole('heading', { name: 'Transforma tu negocio al mundo digital' }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 360, 'sin desplazamiento horizontal');
    assert.equal(await currentSlide(page), 'Ir a la diapositiva 1');

    // Previous from the first slide wraps to the third; next from the third wraps to the first.
    await page.getByRole('button', { name: 'Diapositiva anterior' }).click();
    assert.equal(await currentSlide(page), 'Ir a la diapositiva 3');
    await page.getByRole('heading', { name: 'Crece sin límites' }).waitFor();
    await page.getByRole('button', { name: 'Diapositiva siguiente' }).click();
    assert.equal(await currentSlide(page), 'Ir a la diapositiva 1');
    await page.getByRole('button', { name: 'Ir a la diapositiva 2' }).click();
    assert.equal(await currentSlide(page), 'Ir a la diapositiva 2');

    // Left alone (focus elsewhere), the next slide comes after 6 s.
    await page.evaluate(() => document.activeElement?.blur());
    const started = Date.now();
    await page.waitForFunction(() => document.querySelector('.hero__dot[aria-current="true"]')?.getAttribute('aria-label') === 'Ir a la diapositiva 3', null, { timeout: 9000 });
    const waited = Date.now() - started;
    assert.ok(waited > 4000 && waited < 7500, `avanzó a los ${waited} ms`);

    // Only the visible slide's buttons can be reached.
    assert.equal(await page.getByRole('link', { name: 'Ver Demo' }).count(), 1);
    assert.equal(await page.getByRole('link', { name: 'Ver Demo' }).getAttribute('href'), '/demo');

    // 'Ver más' opens more text; every link has a destination.
    const card = page.locator('.feature', { hasText: 'Sistema POS' });
    await card.getByText('Ver más').click();
    assert.equal(await card.locator('details').getAttribute('open'), '');
    const hrefs = await page.locator('a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    assert.ok(hrefs.length > 10);
    assert.deepEqual(hrefs.filter((h) => !h || h === '#'), []);
    assert.deepEqual(await page.locator('footer h2').allTextContents(), ['Producto', 'Soporte', 'Empresa']);
    for (const claim of ['2,500+', '150K+', 'Q5M+', '98%']) await page.locator('.stats').getByText(claim, { exact: true }).waitFor();
    for (const badge of ['Datos seguros', 'Hecho en Guatemala', 'Soporte 24/7']) await page.locator('.trust').getByText(badge, { exact: true }).waitFor();

    await page.locator('.cta').getByRole('link', { name: 'Comenzar' }).click();
    await page.waitForURL('**/register');
  });
});
