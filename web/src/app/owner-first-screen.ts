// The owner app's first screen: painted by the entry, before React and long before the owner app's
// code (antd, ~170 KB gzip) has arrived and run, so a phone shows the app's header and the screen's
// heading within the first second instead of a spinner. A plain-DOM overlay beside #root (React
// clears #root on its first render); the owner app removes it in a layout effect, before the browser
// paints, once the screen has rendered (useOwnerFirstScreenTakeover), and so does a signed-out visit.
import { useLayoutEffect } from 'react';
import { routeOf } from './route-chunks';
import { SCREEN_HEADERS } from './screen-headers';
import './owner-first-screen.css';

const ID = 'owner-first-screen';
/** If the app has not taken over by then (a request that hangs), the first screen goes anyway. */
const TAKEOVER_TIMEOUT_MS = 10_000;

const LOGO = `<svg width="28" height="28" viewBox="0 0 32 32" aria-hidden="true" focusable="false"><rect width="32" height="32" rx="8" fill="#0ea5e9"/><path d="M8 12h16l-1.5 12a2 2 0 0 1-2 1.8h-9a2 2 0 0 1-2-1.8z" fill="#fff"/><path d="M12 12V10a4 4 0 0 1 8 0v2" fill="none" stroke="#fff" stroke-width="2"/></svg>`;

function element(tag: string, className: string, text?: string): HTMLElement {
  const el = document.createElement(tag);
  if (className) el.className = className;
  if (text !== undefined) el.textContent = text;
  return el;
}

/** Paints the first screen of an owner path (once). */
export function paintOwnerFirstScreen(pathname: string): void {
  if (document.getElementById(ID)) return;
  const screen = element('div', 'ofs');
  screen.id = ID;
  screen.setAttribute('aria-busy', 'true');
  const header = element('div', 'ofs__header');
  const brand = element('span', 'ofs__brand');
  brand.innerHTML = LOGO;
  brand.append(element('span', 'ofs__wordmark', 'Tiendita'));
  header.append(brand);
  const main = element('div', 'ofs__content');
  const route = routeOf(pathname);
  const heading = SCREEN_HEADERS[route];
  if (heading) {
    const block = element('div', 'page-header');
    block.append(element('h1', '', heading.title), element('p', '', heading.description));
    main.append(block);
  } else if (route === '/dashboard') {
    // The dashboard's welcome banner, its colours and size, while the owner's name is on its way.
    main.append(element('div', 'welcome ofs__welcome'));
  }
  main.append(element('div', 'page-loader__spinner ofs__spinner'));
  screen.append(header, main);
  document.body.insertBefore(screen, document.getElementById('root'));
  setTimeout(removeOwnerFirstScreen, TAKEOVER_TIMEOUT_MS);
}

/** Removes the owner's first screen, if it is there. */
export function removeOwnerFirstScreen(): void {
  document.getElementById(ID)?.remove();
}

/** For a screen of the owner app, and for the signed-out routes: the first screen goes as this renders. */
export function useOwnerFirstScreenTakeover(): void {
  useLayoutEffect(removeOwnerFirstScreen, []);
}
