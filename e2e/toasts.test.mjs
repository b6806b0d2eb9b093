// The notification rules of spec 000 §9: one toast at a time, F8 focuses the region, a swipe of
// 50 px to the right dismisses, a dismissed toast leaves the page at once, and 5 s is the display time.
/* global document, history, dispatchEvent, PopStateEvent -- evaluated in the page */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, withPage } from './support/browser.mjs';

useBrowser();

test('toasts: at most one, F8 focuses them, swipe right dismisses, gone after 5 s', async () => {
  await withPage('notificaciones', { viewport: { width: 1280, height: 800 } }, async (page) => {
    // A missing reset token raises a toast without touching the server.
    await page.goto('/reset-password');
    await page.waitForURL('**/forgot-password');
    const toasts = page.locator('.toast-region .toast');
    await toasts.first().waitFor();
    // A second one in the same page life (client-side navigation) replaces the first.
    await page.evaluate(() => {
      history.pushState({}, '', '/reset-password');
      dispatchEvent(new PopStateEvent('popstate'));
    });
    await page.waitForURL('**/forgot-password');
    await page.waitForTimeout(300);
    assert.equal(await toasts.count(), 1, 'nunca más de una notificación visible');

    await page.keyboard.press('F8');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Notificaciones (F8)');

    // A 30 px drag snaps back; a 60 px drag to the right dismisses and removes it promptly.
    const box = await toasts.first().boundingBox();
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + 40, y);
    await page.mouse.down();
    await page.mouse.move(box.x + 70, y, { steps: 5 });
    await page.mouse.up();
    await page.waitForTimeout(300);
    assert.equal(await toasts.count(), 1);
    await page.mouse.move(box.x + 40, y);
    await page.mouse.down();
    await page.mouse.move(box.x + 100, y, { steps: 5 });
    await page.mouse.up();
    await toasts.first().waitFor({ state: 'detached', timeout: 1000 });

    // Left alone, a toast closes by itself after 5 s and is then removed.
    await page.goto('/reset-password');
    await toasts.first().waitFor();
    const shownAt = Date.now();
    await toasts.first().waitFor({ state: 'detached', timeout: 8000 });
    const elapsed = Date.now() - shownAt;
    assert.ok(elapsed >= 4500 && elapsed < 7000, `duró ${elapsed} ms`);
  });
});
