import { useEffect } from 'react';
import { useStore } from '../../store/api/get-store';
import { preloadCatalog } from './idb-store';

// The POS opened offline (from the home screen): its catalogue is read from IndexedDB while the POS's
// code loads, not after it has rendered (issue 28, first product within 1 s).
// Its code too: asked for as this module runs, not once the shell has rendered its route.
if (typeof navigator !== 'undefined' && !navigator.onLine && typeof location !== 'undefined' && location.pathname === '/pos') {
  void preloadCatalog();
  void import('../pos-page').catch(() => undefined);
}

const MANIFEST = '/manifest.webmanifest';

/** The page's manifest link, added once (the public pages have none); `version` makes the browser read it again. */
function linkManifest(version?: string): void {
  let link = document.querySelector<HTMLLinkElement>('link[rel="manifest"]');
  if (!link) {
    link = document.createElement('link');
    link.rel = 'manifest';
    document.head.appendChild(link);
  }
  const href = version ? `${MANIFEST}?v=${encodeURIComponent(version)}` : MANIFEST;
  if (link.getAttribute('href') !== href) link.setAttribute('href', href);
}

/** A short tag of the shop's name and colour (the manifest link changes when they do). */
function tagOf(text: string): string {
  let h = 5381;
  for (let i = 0; i < text.length; i++) h = (h * 33) ^ text.charCodeAt(i);
  return (h >>> 0).toString(36);
}

/** Tells the worker the shop's name and colour; resolves once its manifest carries them. */
async function tellWorkerTheStore(name: string, themeColor: string): Promise<void> {
  const reg = await navigator.serviceWorker.ready;
  if (!reg.active) return;
  const channel = new MessageChannel();
  const kept = new Promise<void>((resolve) => {
    channel.port1.onmessage = () => resolve();
    setTimeout(resolve, 5000);
  });
  reg.active.postMessage({ type: 'store', name, themeColor }, [channel.port2]);
  await kept;
}

/**
 * The owner app as an installable app that opens offline (issue 28): registers /sw.js (the owner
 * app only: the shop never calls this), hands it the assets this page already loaded (so the shell
 * works offline after the first visit), links the web app manifest, and has the worker answer that
 * manifest with the shop's name (installed, the app is called as the shop is).
 */
export function useOwnerOfflineApp(): void {
  const store = useStore();
  const name = store.data?.name;
  const color = store.data?.primaryColor ?? '';
  useEffect(() => {
    linkManifest();
    if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
    navigator.serviceWorker
      .register('/sw.js')
      .then(() => navigator.serviceWorker.ready)
      .then((reg) => {
        const urls = performance
          .getEntriesByType('resource')
          .map((e) => e.name)
          .filter((u) => new URL(u).origin === location.origin && new URL(u).pathname.startsWith('/assets/'));
        reg.active?.postMessage({ type: 'cache-urls', urls });
      })
      .catch(() => undefined);
  }, []);
  useEffect(() => {
    if (!name || !import.meta.env.PROD || !('serviceWorker' in navigator)) return;
    tellWorkerTheStore(name, color).then(
      () => linkManifest(tagOf(`${name}${color}`)),
      () => undefined,
    );
  }, [name, color]);
}
