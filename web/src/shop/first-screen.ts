// The shop page's first screen the gateway writes into the HTML before #root (gateway/src/og/
// first-screen.ts): the same markup and classes as the shop, painted before the app's JavaScript
// has arrived. While it is in the page a rule of the head hides #root, so the app's loading states
// never show; the shop removes it in a layout effect (before the browser paints) once the page has
// rendered with its data, an error or a not-found, or the visitor has moved on.

import { FIRST_SCREEN_ID } from '@tiendita/contracts/constants';
import { useEffect, useLayoutEffect, useRef } from 'react';

/** If the app has not taken over by then (a request that hangs), the first screen goes anyway. */
const TAKEOVER_TIMEOUT_MS = 8000;

/** Removes the first screen, if it is there: #root shows in the same frame. */
export function removeFirstScreen(): void {
  document.getElementById(FIRST_SCREEN_ID)?.remove();
}

/** Whether the page still shows the gateway's first screen. */
export function hasFirstScreen(): boolean {
  return document.getElementById(FIRST_SCREEN_ID) !== null;
}

/** Removes the first screen once `ready` (the page rendered with its data, or an error or not-found state). */
export function useFirstScreenTakeover(ready: boolean): void {
  useLayoutEffect(() => {
    if (ready) removeFirstScreen();
  }, [ready]);
}

/**
 * For the shop's root: removes the first screen after TAKEOVER_TIMEOUT_MS, when the shop unmounts
 * (another screen of the app), and when the visitor goes to another page (back, forward, a link of
 * the app) before this one was ready: the first screen only ever stands for the page it was written
 * for. A change of the query alone (?showCart=true leaving the URL) is the same page.
 */
export function useFirstScreenSafety(pathname: string): void {
  const first = useRef(pathname);
  useEffect(() => {
    const timer = setTimeout(removeFirstScreen, TAKEOVER_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, []);
  useLayoutEffect(() => removeFirstScreen, []);
  useLayoutEffect(() => {
    if (pathname !== first.current) removeFirstScreen();
  }, [pathname]);
}
