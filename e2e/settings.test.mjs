// Journeys of issue 13: the owner sets WhatsApp, online orders, the primary colour and the logo on
// /settings#whatsapp, saves once, and the shop shows the new colour and logo; a shopper subscribes on
// /demo (375 px) and the demo owner sees the subscription and downloads the CSV.
/* global document, getComputedStyle */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { DATA_DIR, expectToast, registerThroughApi, signIn, uniqueOwner, useBrowser, waitForShopApp, withPage } from './support/browser.mjs';
import { waitForMailLink } from './support/mail.mjs';

useBrowser();

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buffer) {
  let c = 0xffffffff;
  for (const byte of buffer) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}
/** A real 200x200 PNG of one colour (the advised logo size). */
function solidPng(size, [r, g, b]) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8;
  header[9] = 2;
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: size }, () => [r, g, b]).flat())]);
  const pixels = Buffer.concat(Array.from({ length: size }, () => row));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(pixels)), chunk('IEND', Buffer.alloc(0))]);
}

test('the owner sets WhatsApp, online orders, the primary colour and the logo in one save; the shop shows them', async () => {
  const owner = { ...uniqueOwner('cfg'), whatsappNumber: '' };
  await withPage('configuracion', { viewport: { width: 1280, height: 900 } }, async (page) => {
    await registerThroughApi(page, owner);
    await signIn(page, owner.email, owner.password);
    // The login's full-page redirect to /dashboard must be over before the owner types the address.
    await page.locator('.welcome').waitFor({ timeout: 60_000 });
    await page.waitForLoadState('networkidle');
    await page.goto('/settings#whatsapp');
    // The first visit loads the owner app and the settings chunk: generous on a busy machine.
    await page.getByRole('heading', { name: 'Configuración', level: 1 }).waitFor({ timeout: 60_000 });
    assert.equal(await page.getByRole('tab', { name: 'WhatsApp' }).getAttribute('aria-selected'), 'true');

    const onlineOrders = page.getByRole('switch', { name: 'Recibir pedidos en línea' });
    assert.equal(await onlineOrders.isDisabled(), true, 'the switch waits for a number');
    await page.getByLabel('Número de WhatsApp').fill('+502 5555-1234 abc');
    assert.equal(await page.getByLabel('Número de WhatsApp').inputValue(), '+502 5555-1234 ');
    await onlineOrders.click();
    assert.equal(await onlineOrders.getAttribute('aria-checked'), 'true');
    await page.getByLabel('Vista previa del mensaje de WhatsApp').getByText(/Quiero hacer un pedido/).waitFor();

    // The tab changes the hash.
    await page.getByRole('tab', { name: 'Personalización' }).click();
    await page.waitForURL(/#customization$/);
    await page.locator('[data-testid=logo-input]').setInputFiles([{ name: 'logo.png', mimeType: 'image/png', buffer: solidPng(200, [250, 200, 0]) }]);
    await page.getByRole('img', { name: 'Logo de la tienda' }).waitFor();

    await page.locator('.ant-color-picker-trigger').first().click();
    const hex = page.locator('.ant-color-picker-hex-input input').first();
    await hex.fill('ff5500');
    await hex.press('Enter');
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => document.querySelector('.settings-preview__button')?.getAttribute('style')?.includes('206, 68, 0') || document.querySelector('.settings-preview__button')?.getAttribute('style')?.includes('#ce4400'));
    await page.screenshot({ path: 'test-results/configuracion-personalizacion.png' });

    await page.getByRole('button', { name: /Guardar Cambios/ }).click();
    await expectToast(page, 'Configuración Guardada: Los cambios de tu tienda ya están publicados.');

    const store = await page.evaluate(async () => (await fetch('/api/store', { credentials: 'include' })).json());
    assert.equal(store.whatsappNumber, '+502 5555-1234');
    assert.equal(store.allowOnlineOrders, true);
    assert.equal(store.primaryColor, '#ff5500');
    assert.match(store.logoUrl, /^\/(objects|temp-uploads\/products)\//);

    await page.reload();
    await page.getByRole('tab', { name: 'Personalización' }).waitFor();
    assert.equal(await page.getByRole('tab', { name: 'Personalización' }).getAttribute('aria-selected'), 'true', 'the hash picks the tab after a reload');
    // A later visit keeps online orders on (opening the page used to switch them off, and the next save with it).
    await page.getByRole('tab', { name: 'WhatsApp' }).click();
    await onlineOrders.waitFor();
    assert.equal(await onlineOrders.getAttribute('aria-checked'), 'true');
    // The preview is the message an order sends (contracts' whatsappOrderMessage), with its wa.me link.
    await page.getByLabel('Vista previa del mensaje de WhatsApp').getByText(/\(Q25\.00 c\/u\) = Q50\.00/).waitFor();
    assert.match(await page.getByRole('link', { name: 'Probar el mensaje en WhatsApp' }).getAttribute('href'), /^https:\/\/wa\.me\/50255551234\?text=/);
  });

  await withPage('configuracion-tienda', { viewport: { width: 375, height: 780 } }, async (page) => {
    await page.goto(`/${owner.subdomain}`);
    await waitForShopApp(page);
    await page.locator('.shop-header').waitFor();
    const logo = page.locator('img.shop-logo');
    await logo.waitFor();
    assert.equal(await logo.evaluate((img) => img.complete && img.naturalWidth), 200);
    const primary = await page.locator('.shop').evaluate((el) => getComputedStyle(el).getPropertyValue('--shop-primary').trim());
    // The owner's #ff5500, darkened in the same hue just enough for white text on it to reach 4.5:1 (web/src/shop/lib/theme.ts).
    assert.equal(primary, '#ce4400');
    assert.equal(await page.locator('.shop-header').evaluate((el) => getComputedStyle(el).backgroundColor), 'rgb(206, 68, 0)');
    await page.screenshot({ path: 'test-results/configuracion-tienda.png' });
  });
});

test('a shopper subscribes on /demo, confirms with the mailed link; the demo owner sees it and downloads the CSV', async () => {
  const email = `cliente-${Date.now().toString(36)}@example.com`;
  const since = Date.now() - 1000;
  await withPage('suscripcion-tienda', { viewport: { width: 375, height: 780 } }, async (page) => {
    await page.goto('/demo');
    await page.getByRole('button', { name: 'Suscribirse' }).click();
    const dialog = page.getByRole('dialog', { name: /Suscríbete a/ });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Suscribirme' }).click();
    await dialog.getByRole('alert').getByText('Campos requeridos').waitFor();
    await dialog.getByLabel('Nombre *').fill('José Ñandú');
    await dialog.getByLabel('Correo electrónico *').fill(email);
    await dialog.getByLabel('Teléfono (opcional)').fill('5555 1234');
    await page.screenshot({ path: 'test-results/suscripcion-dialogo.png' });
    await dialog.getByRole('button', { name: 'Suscribirme' }).click();
    await dialog.getByText('¡Revisa tu correo!').first().waitFor();
    await dialog.getByRole('button', { name: 'Seguir comprando' }).click();

    // Double opt-in (issue 26): the mail's link opens the shop with a button; opening it changes nothing.
    const link = await waitForMailLink(DATA_DIR, email, since, /https?:\/\/[^\s"<>]+(\/tienda\/demo\?suscripcion=confirmar&(?:amp;)?token=[^\s"<>&]+)/);
    await page.goto(link.replace('&amp;', '&'));
    const confirm = page.getByRole('dialog', { name: 'Confirma tu suscripción' });
    await confirm.waitFor();
    await page.screenshot({ path: 'test-results/suscripcion-confirmar.png' });
    await confirm.getByRole('button', { name: 'Confirmar suscripción' }).click();
    await confirm.getByText('Tu suscripción está confirmada').waitFor();
    await confirm.getByRole('button', { name: 'Ver la tienda' }).click();

    // The same address again: the same answer as for anyone (no message tells that it is subscribed).
    await page.getByRole('button', { name: 'Suscribirse' }).click();
    await dialog.getByLabel('Nombre *').fill('José');
    await dialog.getByLabel('Correo electrónico *').fill(email);
    await dialog.getByRole('button', { name: 'Suscribirme' }).click();
    await dialog.getByText('¡Revisa tu correo!').first().waitFor();
  });

  await withPage('suscripcion-propietario', { viewport: { width: 1280, height: 900 }, acceptDownloads: true }, async (page) => {
    await signIn(page, 'demo@tiendita.gt', 'Demo1234');
    await page.locator('.welcome').waitFor({ timeout: 60_000 });
    await page.waitForLoadState('networkidle');
    await page.goto('/settings');
    const card = page.locator('.subscriptions-card');
    await card.getByText(email).waitFor({ timeout: 60_000 });
    await card.getByText('José Ñandú').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), card.getByRole('button', { name: /Exportar CSV/ }).click()]);
    const bytes = readFileSync(await download.path());
    assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
    const text = bytes.subarray(3).toString('utf8');
    assert.match(text, /^"Nombre","Email","Teléfono","Proveedor","Fecha de suscripción"\r\n/);
    assert.ok(text.includes(`"José Ñandú","${email}","5555 1234","email",`));
    await page.screenshot({ path: 'test-results/suscripcion-propietario.png', fullPage: true });
  });
});
