// Shared set-up of the browser journeys: one chromium per test file, a fresh context per journey,
// and a screenshot under test-results/ when a journey fails.
import { after, before } from 'node:test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

export const BASE_URL = (process.env.E2E_BASE_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
export const DATA_DIR = process.env.E2E_DATA_DIR ?? '';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const RESULTS_DIR = join(process.cwd(), 'test-results');

let browser;

/** Starts chromium before the file's journeys and closes it after them. */
export function useBrowser() {
  before(async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
  });
  after(async () => {
    await browser?.close();
  });
}

/**
 * Runs one journey in a fresh browser context (its own cookies). When it throws, the page is kept as
 * test-results/<name>.png and the browser console errors are printed, then the error is rethrown.
 *
 * The browser asks for reduced motion unless a journey says otherwise, so antd's dialogs and image
 * previews open and close at once: on a loaded CI machine a fade could wait for an animationend
 * that never came (the image preview stayed in 'fade-leave-active' for 15 s on a fresh clone).
 */
export async function withPage(name, options, body) {
  const context = await browser.newContext({
    baseURL: BASE_URL,
    locale: 'es-GT',
    timezoneId: 'America/Guatemala',
    reducedMotion: 'reduce',
    ...options,
  });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  const consoleErrors = [];
  page.on('pageerror', (error) => consoleErrors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(`console: ${message.text()}`);
  });
  try {
    await body(page, context);
  } catch (error) {
    mkdirSync(RESULTS_DIR, { recursive: true });
    const file = join(RESULTS_DIR, `${name.replace(/[^a-z0-9-]+/gi, '-').toLowerCase()}.png`);
    await page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
    console.error(`captura guardada en ${file}\n${consoleErrors.join('\n')}`);
    throw error;
  } finally {
    await context.close();
  }
}

/** A unique, valid identity for one journey. */
export function uniqueOwner(label) {
  const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  return {
    firstName: 'Ana',
    lastName: 'Pérez',
    email: `e2e-${label}-${suffix}@example.com`,
    password: 'secreto1',
    storeName: `Tienda ${label} ${suffix}`,
    subdomain: `tienda-${label}-${suffix}`,
    businessType: 'grocery',
    storeDepartment: 'Sacatepéquez',
  };
}

/** Registers an owner through the API, from the page so the request is same-origin (CSRF). */
export async function registerThroughApi(page, owner) {
  if (!page.url().startsWith(BASE_URL)) await page.goto('/login');
  const result = await page.evaluate(async (body) => {
    const res = await fetch('/api/auth/register', { method: 'POST', credentials: 'include', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, text: await res.text() };
  }, owner);
  if (result.status >= 300) throw new Error(`registro por API falló: ${result.status} ${result.text}`);
}

/** Signs in through the login screen and waits for the owner dashboard. */
export async function signIn(page, email, password) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Contraseña', { exact: true }).fill(password);
  // The login page reloads into /dashboard a moment after the toast, and the app may already have
  // routed there on its own: wait for that reload (it clears this mark), or a goto right after
  // signIn is interrupted by it.
  await page.evaluate(() => {
    globalThis.__loginPageLoaded = true;
  });
  await page.getByRole('button', { name: 'Iniciar Sesión' }).click();
  await page.waitForURL('**/dashboard');
  for (const deadline = Date.now() + 15_000; ; ) {
    const reloaded = await page.evaluate(() => !globalThis.__loginPageLoaded && globalThis.document.readyState !== 'loading').catch(() => false);
    if (reloaded) break;
    if (Date.now() > deadline) throw new Error('signIn: /dashboard no se recargó después de iniciar sesión');
    await page.waitForTimeout(50);
  }
}

/** The text of the notification region: 'title: description' of the toast showing, or ''. */
export async function toastText(page) {
  return (await page.locator('.toast-region').textContent())?.trim() ?? '';
}

/**
 * Waits until a toast of the region reads exactly `expected`. Any toast, not the first: while a
 * new toast replaces an older one, both can be in the region for a moment (on a loaded machine the
 * leaving one stayed first long enough to time a journey out).
 */
export async function expectToast(page, expected) {
  // One locator wait (exact text, any toast): a page that reloads right after its toast (the login
  // page going to /dashboard) cannot slip between a first wait for the toast and a second for its text.
  const exact = new RegExp(`^\\s*${expected.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
  await page.locator('.toast-region .toast-text', { hasText: exact }).first().waitFor();
}

/**
 * Waits until the shop app has taken over a shop page from its first screen (the same markup, static,
 * that the gateway writes into the page's HTML and the app removes once it has rendered the page):
 * until then a CSS locator such as '.shop-fab' or 'img.shop-logo' finds both.
 */
export async function waitForShopApp(page) {
  await page.locator('#shop-first-screen').waitFor({ state: 'detached' });
}
