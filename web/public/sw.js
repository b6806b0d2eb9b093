/* global self, caches, Request, Response -- a service worker */
/* Tiendita's service worker (issue 28): the owner app opens without a connection, so the POS can sell.
 * Registered only by the owner app (web/src/features/pos/offline/register-sw.ts); the shop's pages
 * never register it. What it does, and nothing else:
 * - a page navigation: the network first; offline, the app shell cached the last time (index.html
 *   is the same single-page app for every owner route);
 * - /assets/* (hashed by the build, never changing): the cache first, stored when first fetched;
 * - GET /api/auth/user: the network first, the last answer offline (the app knows who is signed in);
 * - the page sends the assets it already loaded ({type:'cache-urls'}) so the shell's first load is kept;
 * - the page tells the shop's name and colour ({type:'store'}); /manifest.webmanifest then answers the
 *   static manifest with that name, so the installed app is called by the shop's name.
 * Every other request (the API, other methods) goes to the network untouched. */
const CACHE = 'tiendita-owner-v1';
const SHELL = '/pos';
/** Files of web/public the shell loads by a fixed name: the network first, the cached copy offline. */
const STATIC = new Set(['/shop-boot.js', '/favicon.svg', '/manifest.webmanifest', '/icon-192.png', '/icon-512.png']);

const MANIFEST = '/manifest.webmanifest';
/** Where the shop's own manifest is kept (not a URL anything else asks for). */
const STORE_MANIFEST = '/__tiendita/store-manifest';

/** A home-screen label: the name, or its first words within 15 characters. */
function shortName(name) {
  if (name.length <= 15) return name;
  const words = name.slice(0, 16).split(/\s+/).slice(0, -1).join(' ');
  return words || name.slice(0, 15);
}

/** The static manifest with the shop's name (and colour), kept for every later request of it. */
async function keepStoreManifest(cache, store) {
  let base;
  try {
    const response = await fetch(MANIFEST);
    if (response.ok) await cache.put(MANIFEST, response.clone());
    base = await response.json();
  } catch {
    const hit = await cache.match(MANIFEST);
    if (!hit) return;
    base = await hit.json();
  }
  const manifest = { ...base, name: store.name, short_name: shortName(store.name) };
  if (typeof store.themeColor === 'string' && /^#[0-9a-f]{6}$/i.test(store.themeColor)) manifest.theme_color = store.themeColor;
  await cache.put(STORE_MANIFEST, new Response(JSON.stringify(manifest), { headers: { 'Content-Type': 'application/manifest+json' } }));
}

async function manifestResponse(request) {
  const hit = await (await caches.open(CACHE)).match(STORE_MANIFEST);
  return hit || networkFirst(request, MANIFEST);
}

/** Who is signed in, kept for offline starts (a 401 is kept too: signed out stays signed out). */
async function keepUser(cache) {
  try {
    const response = await fetch('/api/auth/user', { credentials: 'include' });
    if (response.ok || response.status === 401) await cache.put('/api/auth/user', response);
  } catch {
    // offline: the copy kept stays
  }
}

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((c) => Promise.all([c.add(new Request(SHELL, { credentials: 'include' })), keepUser(c)]))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith('tiendita-owner-') && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('message', (event) => {
  const data = event.data;
  if (data && data.type === 'store' && typeof data.name === 'string' && data.name.trim()) {
    const reply = () => event.ports[0]?.postMessage({ type: 'store-kept' });
    event.waitUntil(caches.open(CACHE).then((c) => keepStoreManifest(c, { name: data.name.trim().slice(0, 60), themeColor: data.themeColor })).then(reply, reply));
    return;
  }
  if (!data || data.type !== 'cache-urls' || !Array.isArray(data.urls)) return;
  const urls = data.urls.filter((u) => typeof u === 'string' && new URL(u, self.location.origin).origin === self.location.origin);
  event.waitUntil(caches.open(CACHE).then((c) => Promise.all([keepUser(c), ...urls.map((u) => c.match(u).then((hit) => hit || c.add(u).catch(() => undefined)))])));
});

async function networkFirst(request, key) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok || response.status === 401) await cache.put(key, response.clone());
    return response;
  } catch (error) {
    const hit = await cache.match(key);
    if (hit) return hit;
    throw error;
  }
}

async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === 'navigate') {
    event.respondWith(
      fetch(request).catch(async () => (await caches.match(SHELL)) || Response.error()),
    );
    return;
  }
  if (url.pathname.startsWith('/assets/')) {
    event.respondWith(cacheFirst(request));
    return;
  }
  if (url.pathname === MANIFEST) event.respondWith(manifestResponse(request));
  else if (url.pathname === '/api/auth/user') event.respondWith(networkFirst(request, '/api/auth/user'));
  else if (STATIC.has(url.pathname)) event.respondWith(networkFirst(request, url.pathname));
});
