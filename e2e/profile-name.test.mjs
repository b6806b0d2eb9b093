// Journey: 'Mi Perfil' changes the owner's name (issue 27); the header and a reload show the new one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { registerThroughApi, signIn, uniqueOwner, useBrowser, withPage } from './support/browser.mjs';

useBrowser();

test('the owner changes their first and last name on /profile; an empty last name is refused beside the field', async () => {
  await withPage('perfil-nombre', { viewport: { width: 1280, height: 800 } }, async (page) => {
    const owner = uniqueOwner('per');
    await registerThroughApi(page, owner);
    await signIn(page, owner.email, owner.password);

    await page.getByRole('button', { name: /Menú de perfil de/ }).click();
    await page.getByRole('menuitem', { name: 'Mi Perfil' }).click();
    await page.waitForURL('**/profile');

    const first = page.getByLabel('Nombre', { exact: true });
    const last = page.getByLabel('Apellido', { exact: true });
    assert.equal(await first.inputValue(), owner.firstName);
    assert.equal(await page.getByLabel('Email', { exact: true }).inputValue(), owner.email);

    await last.fill('   ');
    await page.getByRole('button', { name: 'Guardar nombre' }).click();
    await page.getByText('El apellido es requerido').waitFor();

    await first.fill('Rosa María');
    await last.fill('Pérez de León');
    await page.getByRole('button', { name: 'Guardar nombre' }).click();
    await page.getByText('Perfil actualizado').waitFor();
    // The header's profile button names the owner: it changed without a reload.
    await page.getByRole('button', { name: 'Menú de perfil de Rosa María Pérez de León' }).waitFor();

    await page.reload();
    await page.getByLabel('Nombre', { exact: true }).waitFor();
    assert.equal(await page.getByLabel('Nombre', { exact: true }).inputValue(), 'Rosa María');
    assert.equal(await page.getByLabel('Apellido', { exact: true }).inputValue(), 'Pérez de León');
  });
});
