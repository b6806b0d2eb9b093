// Journey of issue 25 (FEL): the owner turns electronic invoices on in Configuración › Facturación
// (FEL) with the sandbox certifier ('pruebas'), sells at the POS on a phone (375 px), and the
// receipt's FEL block goes from 'Factura en proceso de certificación' to the certified invoice
// (series, number, authorisation, SAT's QR, 'DOCUMENTO DE PRUEBA — sin validez fiscal'); the receipt
// PDF carries the same block, and 'Facturas' lists the document as certified. scripts/e2e.mjs makes
// the sandbox answer after 4 s (FEL_SANDBOX_DELAY_MS), so the pending state is there to be seen.
// A second journey sells with the till offline (issue 28): the receipt prints the contingency's
// access number, and once the sale is sent its certified DTE carries that same NumeroAcceso.
/* global document, window -- evaluated in the page */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { expectToast, registerThroughApi, signIn, uniqueOwner, useBrowser, withPage } from './support/browser.mjs';

useBrowser();

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 375, height: 740 };

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

/** The text a receipt PDF shows: pdfkit (uncompressed) writes each run as hex of WinAnsi bytes (0x97: the em dash). */
function pdfText(buffer) {
  const body = buffer.toString('latin1');
  return [...body.matchAll(/\[((?:<[0-9a-fA-F]*>\s*-?[\d.]*\s*)+)\]\s*TJ/g)]
    .map((m) => [...m[1].matchAll(/<([0-9a-fA-F]*)>/g)].map((h) => Buffer.from(h[1], 'hex').toString('latin1').replace(/\x97/g, '—')).join(''))
    .join('\n')
    .replace(/\s*\n\s*/g, ' ');
}

test('FEL on with the sandbox certifier: a POS sale at 375 px, its receipt from pending to certified, and Facturas', async () => {
  await withPage('fel', { viewport: DESKTOP }, async (page) => {
    const owner = uniqueOwner('fel');
    await registerThroughApi(page, owner);
    await signIn(page, owner.email, owner.password);
    const product = await api(page, 'POST', '/api/products', { name: 'Café de altura 400 g', price: 45.5, stock: 20, categoryId: 'none', images: [], isActive: true });
    assert.equal(product.status, 201, JSON.stringify(product.body));

    // Configuración › Facturación (FEL), on the dashboard's width.
    await page.goto('/settings#fel');
    await page.getByRole('tab', { name: 'Facturación (FEL)', selected: true }).waitFor();
    const tab = page.getByRole('tabpanel', { name: 'Facturación (FEL)' });
    await tab.getByLabel('NIT del emisor').fill('1252133-7');
    await tab.getByLabel('Nombre o razón social').fill('Ana Pérez, S.A.');
    await tab.getByLabel('Nombre comercial').fill(owner.storeName);
    await tab.getByLabel('Dirección del establecimiento').fill('4a avenida 3-21, zona 1');
    await tab.getByRole('switch', { name: 'Facturación electrónica (FEL)' }).click();
    // The sandbox certifier is the one chosen (a new store's default).
    await tab.locator('.ant-form-item', { hasText: 'Certificador' }).getByText('Pruebas (sin validez fiscal)').waitFor();
    await tab.getByRole('button', { name: 'Guardar facturación' }).click();
    await expectToast(page, 'Facturación guardada: Cada venta pagada se certificará ante la SAT.');
    await page.screenshot({ path: 'test-results/fel-settings.png', fullPage: false }).catch(() => undefined);
    const settings = await api(page, 'GET', '/api/fel/settings');
    assert.equal(settings.body.enabled, true);
    assert.equal(settings.body.certifier, 'pruebas');

    // A POS sale on a phone.
    await page.setViewportSize(PHONE);
    await page.goto('/pos');
    await page.getByRole('button', { name: 'Agregar 1 de Café de altura 400 g' }).click();
    await page.locator('.pos__bar').getByRole('button', { name: /^Cobrar/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Cobrar' });
    await dialog.getByRole('button', { name: 'Q50', exact: true }).click();
    await dialog.getByLabel('NIT').fill('1234567-9');
    const [response] = await Promise.all([
      page.waitForResponse((res) => res.url().endsWith('/api/orders') && res.request().method() === 'POST'),
      dialog.getByRole('button', { name: 'Confirmar venta' }).click(),
    ]);
    assert.equal(response.status(), 201);
    const sale = await response.json();
    const done = page.getByRole('dialog', { name: 'Venta' });
    await done.getByText('Venta Registrada').waitFor();
    await done.getByRole('link', { name: 'Ver recibo' }).click();
    await page.waitForURL(`**/orders/${sale.id}/receipt`);

    // The receipt: pending first (the sandbox answers after 4 s), then certified, without a reload.
    const receipt = page.getByRole('article', { name: `Recibo del pedido ${sale.code}` });
    const fel = receipt.getByTestId('receipt-fel');
    await fel.getByText('Factura en proceso de certificación').waitFor({ timeout: 20_000 });
    await fel.getByText('FACTURA', { exact: true }).waitFor();
    assert.equal(await fel.getAttribute('data-status'), 'pending');
    await page.screenshot({ path: 'test-results/fel-receipt-pending.png', fullPage: true }).catch(() => undefined);
    await fel.getByText('DOCUMENTO DE PRUEBA — sin validez fiscal').waitFor();
    await page.waitForFunction(() => document.querySelector('[data-testid="receipt-fel"]')?.getAttribute('data-status') === 'certified', null, { timeout: 30_000 });
    const invoice = await api(page, 'GET', `/api/orders/${sale.id}/invoice`);
    assert.equal(invoice.body.status, 'certified');
    await fel.getByText(invoice.body.series, { exact: true }).waitFor();
    await fel.getByText(invoice.body.number, { exact: true }).waitFor();
    await fel.getByText(invoice.body.authorization, { exact: true }).waitFor();
    assert.match(await fel.textContent(), /Receptor\s*12345679 — /);
    await fel.getByText('Sujeto a pagos trimestrales ISR').waitFor();
    await fel.getByText(/Certificador: CERTIFICADOR DE PRUEBAS TIENDITA, NIT 12345679/).waitFor();
    assert.equal(await fel.getByText('Factura en proceso de certificación').count(), 0);
    await fel.getByRole('img', { name: 'Código QR de verificación en la SAT' }).or(fel.locator('.receipt__fel-qr svg')).first().waitFor();
    // Nothing of the receipt is wider than the phone.
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), 'el recibo no cabe en 375 px');
    await page.screenshot({ path: 'test-results/fel-receipt-certified.png', fullPage: true }).catch(() => undefined);

    // The PDF receipt carries the same block.
    const pdf = await page.request.get(`/api/orders/${sale.id}/receipt.pdf`);
    assert.equal(pdf.status(), 200);
    const text = pdfText(await pdf.body());
    for (const expected of ['FACTURA', 'DOCUMENTO DE PRUEBA — sin validez fiscal', invoice.body.series, invoice.body.authorization, 'Sujeto a pagos trimestrales ISR', '12345679 — ']) {
      assert.ok(text.includes(expected), `el PDF lleva «${expected}»`);
    }

    // Facturas lists it as certified.
    await page.setViewportSize(DESKTOP);
    await page.goto('/invoices');
    const row = page.locator('.ant-table-tbody tr', { hasText: sale.code });
    await row.waitFor();
    await row.getByText('Certificada').waitFor();
    await row.getByText(`${invoice.body.series} · ${invoice.body.number}`).waitFor();
    await page.screenshot({ path: 'test-results/fel-invoices.png', fullPage: false }).catch(() => undefined);
  });
});

test('FEL on and the till offline (issue 28): the receipt shows the contingency access number, and the DTE sent later carries it', async () => {
  await withPage('fel-offline', { viewport: PHONE, isMobile: true, hasTouch: true }, async (page, context) => {
    const owner = uniqueOwner('feloff');
    await registerThroughApi(page, owner);
    await signIn(page, owner.email, owner.password);
    const product = await api(page, 'POST', '/api/products', { name: 'Pan dulce', price: 5, stock: 10, categoryId: 'none', images: [], isActive: true });
    assert.equal(product.status, 201, JSON.stringify(product.body));
    const on = await api(page, 'PUT', '/api/fel/settings', { enabled: true, issuerNit: '1252133-7', legalName: 'Ana Pérez, S.A.', commercialName: owner.storeName });
    assert.equal(on.status, 200, JSON.stringify(on.body));

    // Online once: the POS keeps the catalogue, and that FEL is on, on the device.
    await page.goto('/pos');
    await page.getByRole('button', { name: 'Agregar 1 de Pan dulce' }).waitFor();
    for (const deadline = Date.now() + 20_000; ; ) {
      if (await page.evaluate(() => globalThis.localStorage.getItem('tiendita.fel.enabled') === '1')) break;
      if (Date.now() > deadline) throw new Error('el dispositivo no guardó que FEL está activo');
      await page.waitForTimeout(250);
    }

    await context.setOffline(true);
    await page.getByRole('button', { name: 'Agregar 1 de Pan dulce' }).click();
    await page.locator('.pos__bar').getByRole('button', { name: /^Cobrar/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Cobrar' });
    await dialog.getByRole('button', { name: 'Q50', exact: true }).click();
    await dialog.getByRole('button', { name: 'Confirmar venta' }).click();
    const done = page.getByRole('dialog', { name: 'Venta' });
    await done.getByText('Venta guardada sin conexión').waitFor();
    const contingency = done.getByTestId('pos-fel-contingency');
    await contingency.getByText('Factura emitida en contingencia').waitFor();
    const shown = (await done.getByTestId('pos-access-number').textContent()) ?? '';
    const accessNumber = Number(/Número de acceso: (\d{9})$/.exec(shown.trim())?.[1]);
    assert.ok(accessNumber >= 100000000 && accessNumber <= 999999999, `número de acceso en el rango de la SAT: «${shown}»`);
    const localNumber = await done.getByTestId('pos-local-number').textContent();
    await page.screenshot({ path: 'test-results/fel-offline-receipt.png', fullPage: true }).catch(() => undefined);
    await done.getByRole('button', { name: 'Nueva venta' }).click();

    // Back online: the sale is sent, its DTE carries the same access number and is certified.
    await context.setOffline(false);
    let order = null;
    for (const deadline = Date.now() + 30_000; !order; ) {
      const list = await api(page, 'GET', '/api/orders?limit=20');
      order = (list.body?.orders ?? []).find((o) => (o.notes ?? '').startsWith(`Venta sin conexión ${localNumber}`)) ?? null;
      if (!order && Date.now() > deadline) throw new Error('la venta sin conexión no llegó al servidor');
      if (!order) await page.waitForTimeout(500);
    }
    let invoice = null;
    for (const deadline = Date.now() + 30_000; invoice?.status !== 'certified'; ) {
      const res = await api(page, 'GET', `/api/orders/${order.id}/invoice`);
      invoice = res.status === 200 ? res.body : null;
      if (invoice?.status !== 'certified' && Date.now() > deadline) throw new Error(`la factura en contingencia no se certificó: ${JSON.stringify(invoice)}`);
      if (invoice?.status !== 'certified') await page.waitForTimeout(500);
    }
    assert.equal(invoice.contingency.accessNumber, accessNumber);
    assert.equal(invoice.contingency.late, false);
    const xml = await page.request.get(`/api/orders/${order.id}/invoice.xml`);
    assert.ok((await xml.text()).includes(`NumeroAcceso="${accessNumber}"`), 'el DTE lleva el NumeroAcceso del recibo');
    // The receipt now prints the certified invoice with its access number.
    await page.goto(`/orders/${order.id}/receipt`);
    const fel = page.getByTestId('receipt-fel');
    await fel.getByText('Número de acceso').waitFor();
    await fel.getByText(String(accessNumber), { exact: true }).waitFor();
    await page.screenshot({ path: 'test-results/fel-offline-certified.png', fullPage: true }).catch(() => undefined);
  });
});
