// Journey 3: the owner's slide-out menu on a 375 px wide phone.
/* global document -- evaluated in the page */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { registerThroughApi, signIn, uniqueOwner, useBrowser, withPage } from './support/browser.mjs';

useBrowser();

test('on a 375 px phone the owner navigates with the slide-out menu, which closes at 768 px and logs out through /api/logout', async () => {
  await withPage('menu-movil', { viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true }, async (page) => {
    const owner = uniqueOwner('mov');
    await registerThroughApi(page, owner);
    await signIn(page, owner.email, owner.password);

    const openMenu = page.getByRole('button', { name: 'Abrir menú' });
    await openMenu.waitFor();
    assert.equal(await page.locator('.shell__nav').count(), 0, 'sin barra horizontal en el teléfono');
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 375, 'sin desplazamiento horizontal');

    await openMenu.click();
    const drawer = page.getByRole('dialog');
    await drawer.waitFor();
    const items = await drawer.getByRole('menuitem').allTextContents();
    assert.deepEqual(items, ['Dashboard', 'Productos', 'Pedidos', 'POS', 'Reportes', 'Inventario', 'Configuración']);
    await drawer.getByText(owner.email).waitFor();
    await drawer.getByRole('menuitem', { name: 'Inventario' }).click();
    await page.waitForURL('**/inventory');
    await drawer.waitFor({ state: 'hidden' });

    // Opened, then the viewport grows to 768 px: the menu closes and the top navigation appears.
    await openMenu.click();
    await drawer.waitFor();
    await page.setViewportSize({ width: 768, height: 740 });
    await drawer.waitFor({ state: 'hidden' });
    await page.locator('.shell__nav').waitFor();
    // At 768 px all seven entries fit on the top bar (none folded into an overflow menu).
    const topNav = page.getByRole('navigation', { name: 'Secciones' });
    await page.waitForTimeout(300); // antd measures the bar after layout before folding entries away
    for (const entry of ['Dashboard', 'Productos', 'Pedidos', 'POS', 'Reportes', 'Inventario', 'Configuración']) {
      assert.ok(await topNav.getByRole('link', { name: entry, exact: true }).isVisible(), `${entry} visible a 768 px`);
    }
    assert.equal(await page.getByRole('button', { name: 'Abrir menú' }).count(), 0);

    // Back on the phone, the menu's Cerrar Sesión navigates to /api/logout, which ends at /.
    await page.setViewportSize({ width: 375, height: 740 });
    await page.getByRole('button', { name: 'Abrir menú' }).click();
    await drawer.waitFor();
    await drawer.getByRole('link', { name: 'Cerrar Sesión' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('heading', { name: 'Transforma tu negocio al mundo digital' }).waitFor();
    const me = await page.evaluate(async () => (await fetch('/api/auth/user', { credentials: 'include' })).status);
    assert.equal(me, 401);
  });
});
