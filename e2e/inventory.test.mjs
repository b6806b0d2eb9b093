/* global document -- evaluated in the page */
// Issue 12's journey: the owner adjusts a product to 2 units, sees it as low stock in the inventory
// filter and in the bell, and reads the adjustment in the product's history; then the page on a phone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE_URL, registerThroughApi, signIn, uniqueOwner, useBrowser, withPage } from './support/browser.mjs';

useBrowser();

async function createProduct(page, name, stock) {
  // The context's request shares the page's cookies; the Origin header passes the CSRF check.
  const res = await page.context().request.post('/api/products', {
    headers: { Origin: BASE_URL },
    data: { name, description: 'Producto de prueba', sku: `SKU-${Math.random().toString(36).slice(2, 8)}`, price: 10, discountPercentage: 0, stock, categoryId: 'none', images: [], isActive: true },
  });
  if (res.status() !== 201) throw new Error(`producto: ${res.status()} ${await res.text()}`);
}

test('inventory: adjust to 2 units, low stock in the filter and the bell, the adjustment in the history', async () => {
  await withPage('inventario', { viewport: { width: 1280, height: 800 } }, async (page) => {
    const owner = uniqueOwner('inv');
    await registerThroughApi(page, owner);
    await signIn(page, owner.email, owner.password);
    await createProduct(page, 'Frijol negro', 12);
    await createProduct(page, 'Café de Cobán', 30);

    await page.goto('/inventory');
    await page.getByText('Frijol negro').waitFor();
    await page.getByRole('button', { name: 'Ajustar Frijol negro' }).click();
    await page.getByLabel('Nuevo stock (unidades contadas)').fill('2');
    await page.getByLabel('Razón').fill('Conteo de estantería');
    await page.getByRole('button', { name: 'Guardar ajuste' }).click();
    await page.locator('.toast-region', { hasText: 'Inventario actualizado' }).waitFor();

    await page.getByText('Stock bajo', { exact: true }).first().click();
    await page.waitForURL('**/inventory?stock=low');
    const rows = page.locator('.ant-table-tbody tr.ant-table-row');
    await page.waitForFunction(() => document.querySelectorAll('.ant-table-tbody tr.ant-table-row').length === 1);
    assert.match(await rows.first().textContent(), /Frijol negro/);

    await page.getByRole('button', { name: /Notificaciones: 1 sin leer/ }).click();
    await page.getByRole('link', { name: 'Stock bajo: Frijol negro (2 unidades)' }).waitFor();
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Historial de Frijol negro' }).click();
    const dialog = page.getByRole('dialog', { name: 'Historial de Frijol negro' });
    await dialog.getByText('Conteo de estantería').waitFor();
    const line = await dialog.locator('tr', { hasText: 'Conteo de estantería' }).textContent();
    assert.match(line, /12/);
    assert.match(line, /-10/);
    await page.keyboard.press('Escape');

    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto('/inventory');
    // At 375 px the current stock fits the screen: product, available with its level under it, and
    // the actions, with nothing scrolling sideways.
    const frijol = page.locator('.ant-table-tbody tr', { hasText: 'Frijol negro' });
    await frijol.getByText('Stock bajo', { exact: true }).waitFor();
    await frijol.getByRole('button', { name: 'Ajustar Frijol negro' }).waitFor();
    const overflow = await page.evaluate(() => {
      const content = document.querySelector('.ant-table-content') ?? document.querySelector('.ant-table-body');
      return { page: document.documentElement.scrollWidth - document.documentElement.clientWidth, table: content ? content.scrollWidth - content.clientWidth : 0 };
    });
    assert.deepEqual(overflow, { page: 0, table: 0 }, 'la tabla de inventario no se desplaza de lado en un teléfono');
    await page.screenshot({ path: 'test-results/inventario-telefono.png' });
    await page.getByRole('tab', { name: 'Historial general' }).click();
    // At 375 px the ledger keeps date, product, movement, new and difference (the reason folds away).
    await page.locator('tr', { hasText: 'Frijol negro' }).filter({ hasText: '-10' }).first().waitFor();
  });
});
