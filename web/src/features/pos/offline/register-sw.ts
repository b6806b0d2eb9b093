import { useEffect } from 'react';

/**
 * The owner app as an installable app that opens offline (issue 28): registers /sw.js (the owner
 * app only: the shop never calls this), hands it the assets this page already loaded (so the shell
 * works offline after the first visit), and links the web app manifest (the public pages have none).
 */
export function useOwnerOfflineApp(): void {
  useEffect(() => {
    if (!document.querySelector('link[rel="manifest"]')) {
      const link = document.createElement('link');
      link.rel = 'manifest';
      link.href = '/manifest.webmanifest';
      document.head.appendChild(link);
    }
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
}
