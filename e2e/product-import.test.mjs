/* global document -- evaluated in the page */
// Issue 12's import journey: the owner uploads a small CSV from the Products page, reads the preview
// (new, update and a bad row with its reason), confirms, and sees the products in the list, their
// stock in the inventory and the new category; then the Products page on a phone: the first product
// on the first screen, number pads on the price fields, and the price history inside its dialog.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BASE_URL, registerThroughApi, signIn, uniqueOwner, useBrowser, withPage } from './support/browser.mjs';

useBrowser();

async function createProduct(page, body) {
  const res = await page.context().request.post('/api/products', {
    headers: { Origin: BASE_URL },
    data: { description: 'Producto de prueba', discountPercentage: 0, categoryId: 'none', images: [], isActive: true, ...body },
  });
  if (res.status() !== 201) throw new Error(`producto: ${res.status()} ${await res.text()}`);
  return (await res.json()).id;
}

test('import: upload a CSV, read the preview, confirm, and see the products', async () => {
  await withPage('importar-productos', { viewport: { width: 1280, height: 900 } }, async (page) => {
    const owner = uniqueOwner('imp');
    await registerThroughApi(page, owner);
    await signIn(page, owner.email, owner.password);
    await createProduct(page, { name: 'Arroz', sku: 'ARZ-1', price: 10, stock: 20 });

    const dir = mkdtempSync(join(tmpdir(), 'tiendita-import-'));
    const file = join(dir, 'productos.csv');
    writeFileSync(
      file,
      [
        'Nombre,SKU,Precio,Descuento,Stock,Categoría,Descripción',
        'Café de Cobán 500 g,CAF-1,45.50,10,24,Bebidas,Tostado y molido',
        'Arroz blanco,ARZ-1,11,,30,,',
        'Leche entera,LEC-1,,,10,,',
      ].join('\n'),
    );

    await page.goto('/products');
    await page.getByText('Arroz', { exact: true }).first().waitFor();
    await page.getByRole('button', { name: 'Importar' }).click();
    const dialog = page.getByRole('dialog', { name: 'Importar productos' });
    await dialog.locator('input[type=file]').setInputFiles(file);

    // The preview: nothing written yet, every row with its verdict.
    await dialog.getByText('productos.csv · 3 filas').waitFor();
    assert.equal((await dialog.locator('.import-preview__summary').textContent()).replace(/\s+/g, ' ').trim(), '1 nuevo1 por actualizar0 sin cambios1 con errores');
    await dialog.getByText('Se crearán las categorías: Bebidas.').waitFor();
    // Opened on the errors, since there is one.
    const errorRow = dialog.locator('tr', { hasText: 'Leche entera' });
    assert.match(await errorRow.textContent(), /Error.*Falta el precio\./);
    await dialog.getByText('Todas (3)').click();
    assert.match(await dialog.locator('tr', { hasText: 'Arroz blanco' }).textContent(), /Actualizar.*Nombre: Arroz → Arroz blanco.*Precio: Q10\.00 → Q11\.00.*Stock: 20 → 30/);
    assert.match(await dialog.locator('tr', { hasText: 'Café de Cobán 500 g' }).textContent(), /Nuevo.*Q\s?45\.50.*24/);

    await dialog.getByRole('button', { name: 'Importar 2 productos' }).click();
    await dialog.getByText('Importación terminada').waitFor();
    assert.match(await dialog.locator('.ant-alert-success').textContent(), /1 producto creado, 1 actualizado, 0 sin cambios\./);
    await page.locator('.toast-region', { hasText: 'Productos importados' }).waitFor();
    await dialog.locator('.ant-modal-footer').getByRole('button', { name: 'Cerrar' }).click();

    // The list shows them without a reload (the import refreshed it).
    await page.getByRole('heading', { name: 'Café de Cobán 500 g' }).waitFor();
    await page.getByRole('heading', { name: 'Arroz blanco' }).waitFor();
    const cafe = page.locator('.product-card', { hasText: 'Café de Cobán 500 g' });
    assert.match(await cafe.textContent(), /Bebidas.*SKU: CAF-1.*Q\s?40\.95.*Stock alto · 24/i);
    assert.match(await page.locator('.product-card', { hasText: 'Arroz blanco' }).textContent(), /Q\s?11\.00.*Stock alto · 30/);

    // The stock change is in inventory's ledger, as a restock by the import.
    await page.goto('/inventory');
    await page.getByRole('button', { name: 'Historial de Arroz blanco' }).click();
    const history = page.getByRole('dialog', { name: 'Historial de Arroz blanco' });
    assert.match(await history.locator('tr', { hasText: 'Importación de productos' }).textContent(), /20.*30.*\+10/);
  });
});

test('the Products page on a phone: the first product on the first screen, number pads, the price history inside its dialog', async () => {
  await withPage('productos-telefono', { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true }, async (page) => {
    const owner = uniqueOwner('tel');
    await registerThroughApi(page, owner);
    await signIn(page, owner.email, owner.password);
    const id = await createProduct(page, { name: 'Tortillas de maíz', sku: 'TOR-1', price: 5, stock: 3 });
    await page.context().request.put(`/api/products/${id}`, { headers: { Origin: BASE_URL }, data: { price: 6, changeReason: 'Subió el maíz' } });

    await page.goto('/products');
    const card = page.locator('.product-card', { hasText: 'Tortillas de maíz' });
    await card.waitFor();
    // The summary folds into one line and the filters behind a button: the card starts on the first screen.
    await page.getByRole('button', { name: '1 producto · 1 con stock bajo' }).waitFor();
    const top = await card.evaluate((el) => el.getBoundingClientRect().top);
    assert.ok(top < 812 / 2, `la primera tarjeta empieza en ${top}px`);
    const filters = page.getByRole('search');
    assert.equal(await filters.getByLabel('Categoría').count(), 0);
    await page.getByRole('button', { name: 'Filtros' }).click();
    await filters.getByLabel('Categoría').waitFor();
    assert.match(await card.textContent(), /Stock bajo · 3/);

    await page.getByRole('button', { name: 'Editar Tortillas de maíz' }).click();
    const dialog = page.getByRole('dialog', { name: 'Editar Producto' });
    await dialog.getByRole('tab', { name: 'Precios e inventario' }).click();
    assert.equal(await dialog.getByLabel('Precio (Q)').getAttribute('inputmode'), 'decimal');
    assert.equal(await dialog.getByLabel('Descuento (%)').getAttribute('inputmode'), 'decimal');
    assert.equal(await dialog.getByLabel('Stock (unidades)').getAttribute('inputmode'), 'numeric');

    await dialog.getByRole('tab', { name: 'Historial de precios' }).click();
    await dialog.getByText('Razón: Subió el maíz').waitFor();
    // The table fits the dialog: nothing to scroll sideways.
    const fits = await dialog.locator('.price-history').evaluate((el) => {
      const body = el.querySelector('.ant-table-body') ?? el.querySelector('.ant-table-content');
      const modal = el.closest('.ant-modal-container') ?? el.closest('.ant-modal-content');
      return { scroll: body.scrollWidth - body.clientWidth, right: el.getBoundingClientRect().right, modalRight: modal.getBoundingClientRect().right };
    });
    assert.ok(fits.scroll <= 1, `el historial se desplaza ${fits.scroll}px de lado`);
    assert.ok(fits.right <= fits.modalRight, 'el historial sale del diálogo');
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 375), 'la página se desplaza de lado');
  });
});
