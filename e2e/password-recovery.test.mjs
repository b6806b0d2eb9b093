// Journey 2: forgot password → the e-mail → reset → login with the new password.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DATA_DIR, expectToast, registerThroughApi, signIn, uniqueOwner, useBrowser, withPage } from './support/browser.mjs';
import { waitForResetLink } from './support/mail.mjs';

useBrowser();

test('an owner recovers the password through the mailed link and signs in with the new one', async () => {
  assert.ok(DATA_DIR, 'E2E_DATA_DIR must point at the running stack’s DATA_DIR to read its mail');
  await withPage('recuperar-contrasena', { viewport: { width: 1280, height: 800 } }, async (page) => {
    const owner = uniqueOwner('rec');
    await registerThroughApi(page, owner);

    await page.goto('/login');
    await page.getByRole('link', { name: '¿Olvidaste tu contraseña?' }).click();
    await page.waitForURL('**/forgot-password');
    await page.getByLabel('Email').fill('correo-invalido');
    await page.getByRole('button', { name: 'Enviar enlace de recuperación' }).click();
    await page.getByText('Email inválido').waitFor();

    const sentAt = Date.now() - 1000;
    await page.getByLabel('Email').fill(owner.email);
    await page.getByRole('button', { name: 'Enviar enlace de recuperación' }).click();
    await page.getByRole('heading', { name: 'Revisa tu correo' }).waitFor();
    await expectToast(page, `Correo Enviado: Si el email está registrado, te enviamos un enlace para restablecer tu contraseña.`);
    // 'Enviar otro correo' returns to the form; 'Volver al inicio de sesión' is the other way out.
    assert.equal(await page.getByRole('link', { name: 'Volver al inicio de sesión' }).count(), 1);
    await page.getByRole('button', { name: 'Enviar otro correo' }).click();
    await page.getByLabel('Email').waitFor();

    const resetPath = await waitForResetLink(DATA_DIR, owner.email, sentAt);
    assert.match(resetPath, /^\/reset-password\?token=/);
    await page.goto(resetPath);
    await page.getByText('expira en 1 hora').waitFor();

    const password = page.getByLabel('Nueva contraseña');
    const confirm = page.getByLabel('Confirmar contraseña');
    await password.fill('abc');
    await page.getByRole('meter', { name: 'Seguridad de la contraseña' }).waitFor();
    assert.equal(await page.getByRole('meter').getAttribute('aria-valuetext'), 'Débil');
    await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
    await page.getByText('La contraseña debe tener al menos 6 caracteres').waitFor();
    assert.equal(await page.getByText('Confirma tu contraseña').count(), 1);

    const newPassword = 'NuevaClave2024!';
    await password.fill(newPassword);
    assert.equal(await page.getByRole('meter').getAttribute('aria-valuetext'), 'Muy fuerte');
    assert.equal(await password.getAttribute('type'), 'password');
    await page.getByRole('button', { name: 'Mostrar contraseña' }).click();
    assert.equal(await password.getAttribute('type'), 'text');
    await confirm.fill('NuevaClave2024?');
    await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
    await page.getByText('Las contraseñas no coinciden').waitFor();
    await confirm.fill(newPassword);
    await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
    await page.getByRole('heading', { name: '¡Contraseña actualizada!' }).waitFor();
    await expectToast(page, 'Contraseña Actualizada: Tu contraseña fue actualizada. Ya puedes iniciar sesión.');

    // The link works once: used again it shows the invalid-token card.
    await page.goto(resetPath);
    await page.getByLabel('Nueva contraseña').fill('OtraClave99');
    await page.getByLabel('Confirmar contraseña').fill('OtraClave99');
    await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
    await page.getByRole('heading', { name: 'Enlace no válido' }).waitFor();
    await expectToast(page, 'Token Inválido: El enlace de recuperación no es válido o ha expirado.');

    // The old password no longer works; the new one does.
    await page.goto('/login');
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Contraseña', { exact: true }).fill(owner.password);
    await page.getByRole('button', { name: 'Iniciar Sesión' }).click();
    await expectToast(page, 'Error de Autenticación: Email o contraseña incorrectos');
    await signIn(page, owner.email, newPassword);
    await page.getByRole('heading', { name: owner.storeName }).waitFor();
  });
});

test('a reset link without a token toasts Token Inválido and goes to /forgot-password', async () => {
  await withPage('token-ausente', { viewport: { width: 375, height: 740 } }, async (page) => {
    await page.goto('/reset-password');
    await page.waitForURL('**/forgot-password');
    await expectToast(page, 'Token Inválido: El enlace de recuperación no es válido o ha expirado.');
  });
});
