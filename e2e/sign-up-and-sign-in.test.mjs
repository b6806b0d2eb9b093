// Journey 1: landing → register (both steps, a validation error shown and corrected) → login →
// owner shell → logout, then a signed-out visit to an owner page.
/* global document -- evaluated in the page */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { expectToast, uniqueOwner, useBrowser, withPage } from './support/browser.mjs';

useBrowser();

test('a visitor registers a store from the landing page, signs in, sees the owner shell and signs out', async () => {
  await withPage('registro-y-sesion', { viewport: { width: 1280, height: 800 } }, async (page) => {
    const owner = uniqueOwner('reg');

    await page.goto('/');
    await page.getByRole('heading', { name: 'Transforma tu negocio al mundo digital' }).waitFor();
    for (const title of ['Catálogo Digital', 'Pedidos por WhatsApp', 'Sistema POS', 'Control de Inventario', 'Reportes y Analytics', '100% Móvil']) {
      assert.equal(await page.getByRole('heading', { name: title, exact: true }).count(), 1, `tarjeta ${title}`);
    }
    await page.getByRole('navigation', { name: 'Cuenta' }).getByRole('link', { name: 'Comenzar' }).click();
    await page.waitForURL('**/register');

    // Step 1: nothing filled, then a bad e-mail, each shown with the spec's message, then corrected.
    await page.getByRole('button', { name: 'Continuar' }).click();
    await page.getByText('El nombre es requerido').waitFor();
    assert.equal(await page.getByText('El apellido es requerido').count(), 1);
    assert.equal(await page.getByText('La contraseña debe tener al menos 6 caracteres').count(), 1);
    await page.getByLabel('Nombre', { exact: true }).fill(owner.firstName);
    await page.getByLabel('Apellido').fill(owner.lastName);
    await page.getByLabel('Email').fill('ana-sin-arroba.com');
    await page.getByLabel('Contraseña', { exact: true }).fill(owner.password);
    await page.getByRole('button', { name: 'Continuar' }).click();
    await page.getByText('Email inválido').waitFor();
    assert.equal(await page.getByLabel('Email').getAttribute('aria-invalid'), 'true');
    await page.getByLabel('Email').fill(owner.email);
    await page.keyboard.press('Enter');

    // Step 2: the subdomain follows the store name, and step 2's required fields are checked.
    const storeName = page.getByLabel('Nombre de la tienda');
    await storeName.waitFor();
    await storeName.fill(owner.storeName);
    assert.equal(await page.getByLabel('Subdominio').inputValue(), owner.subdomain);
    await page.getByText(`tienda/${owner.subdomain}`, { exact: true }).waitFor();
    assert.equal(await page.getByLabel('Tipo de negocio').locator('option').count(), 15, '14 tipos de negocio más la opción vacía');
    assert.equal(await page.getByLabel('Departamento').locator('option').count(), 23, '22 departamentos más la opción vacía');
    await page.getByRole('button', { name: 'Crear cuenta' }).click();
    await page.getByText('El tipo de negocio es requerido').waitFor();
    assert.equal(await page.getByText('El departamento es requerido').count(), 1);

    // Back keeps step 1 as typed.
    await page.getByRole('button', { name: 'Atrás' }).click();
    assert.equal(await page.getByLabel('Email').inputValue(), owner.email);
    await page.getByRole('button', { name: 'Continuar' }).click();

    await page.getByLabel('Tipo de negocio').selectOption(owner.businessType);
    await page.getByText('Categorías sugeridas: Granos Básicos, Lácteos, Bebidas y Limpieza.', { exact: false }).waitFor();
    await page.getByLabel('Departamento').selectOption(owner.storeDepartment);
    await page.getByLabel('WhatsApp').fill('5555-1234');
    await page.getByRole('button', { name: 'Crear cuenta' }).click();
    await page.waitForURL('**/login');
    await expectToast(page, '¡Registro Exitoso!: Tu cuenta y tienda han sido creadas. Puedes iniciar sesión ahora.');

    // A wrong password first: the server's message in the destructive toast.
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Contraseña', { exact: true }).fill('no-es-la-clave');
    await page.getByRole('button', { name: 'Iniciar Sesión' }).click();
    await expectToast(page, 'Error de Autenticación: Email o contraseña incorrectos');

    await page.getByLabel('Contraseña', { exact: true }).fill(owner.password);
    await page.getByRole('button', { name: 'Iniciar Sesión' }).click();
    await expectToast(page, 'Bienvenido: Has iniciado sesión exitosamente');
    await page.waitForURL('**/dashboard');

    // The owner shell: 7 entries, the store's name and department, no invented notification count.
    const nav = page.getByRole('navigation', { name: 'Secciones' });
    await nav.waitFor();
    const entries = await nav.getByRole('link').allTextContents();
    assert.deepEqual(entries, ['Dashboard', 'Productos', 'Pedidos', 'POS', 'Reportes', 'Inventario', 'Configuración']);
    await page.getByRole('heading', { name: owner.storeName }).waitFor();
    await page.getByText(owner.storeDepartment, { exact: true }).waitFor();
    assert.equal(await page.locator('.shell__bell .shell__badge').count(), 0, 'sin notificaciones no hay número en la campana');

    await nav.getByRole('link', { name: 'Pedidos' }).click();
    await page.waitForURL('**/orders');
    await nav.getByRole('link', { name: 'Dashboard' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('heading', { name: owner.storeName }).waitFor();

    // Log out from the profile menu, by keyboard: POST /api/auth/logout, then the landing page at /.
    await page.getByRole('button', { name: /Menú de perfil/ }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('menuitem', { name: 'Mi Perfil' }).waitFor();
    // The menu takes the focus once it has opened (autoFocus), and its opening animation may hand
    // it to the first item again, so arrow down until 'Cerrar Sesión' has it, passing the divider.
    await page.waitForFunction(() => document.activeElement?.closest('[role="menu"]') !== null);
    const visited = [];
    for (let press = 0; press < 6; press++) {
      const active = await page.evaluate(() => document.activeElement?.textContent ?? '');
      visited.push(active);
      if (active === 'Cerrar Sesión') break;
      await page.keyboard.press('ArrowDown');
      await page.waitForTimeout(50);
    }
    assert.equal(visited.at(-1), 'Cerrar Sesión', `foco del teclado: ${visited.join(' → ')}`);
    assert.ok(visited.includes('Configuración'), `el teclado pasa por Configuración: ${visited.join(' → ')}`);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('heading', { name: 'Transforma tu negocio al mundo digital' }).waitFor();
    const me = await page.evaluate(async () => (await fetch('/api/auth/user', { credentials: 'include' })).status);
    assert.equal(me, 401);

    // Signed out, an owner page toasts (in Spanish, like the rest of the product) and sends the visitor to /login after 500 ms.
    await page.goto('/orders');
    await expectToast(page, 'No autorizado: Tu sesión terminó. Redirigiendo al inicio de sesión...');
    // The login comes back to the page asked for (issue 27).
    await page.waitForURL('**/login?next=%2Forders');
  });
});
