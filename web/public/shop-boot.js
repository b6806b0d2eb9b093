/* global document, window, location, URLSearchParams -- a browser script, not a module */
// Shop pages only: starts the first API calls and the first picture while the app's JavaScript is
// still downloading (on a phone's network that is a second or so), instead of after it has run.
// A classic async script from 'self' (the CSP allows no inline script), run once the <head> the
// gateway wrote is parsed: it acts only when that head carries a shop's link preview (og:type), so
// owner screens and the landing page never call anything. The app adopts these answers by URL
// (src/shop/preload.ts) and fetches anew when one is missing or failed; the URLs, the page size
// and the image variants below must stay those of src/shop (get-public-products.ts) and of
// contracts/src/image-variants.ts.
(function () {
  'use strict';
  var type = document.querySelector('meta[property="og:type"]');
  if (!type || !window.fetch || !window.Promise) return;
  var path = location.pathname;
  var product = /^\/([^/]+)\/product\/([0-9a-fA-F-]{36})\/?$/.exec(path);
  var tienda = /^\/tienda\/([^/]+)\/?$/.exec(path);
  var slug = /^\/([a-z0-9-]+)\/?$/.exec(path);
  var store = product ? product[1] : tienda ? tienda[1] : slug ? slug[1] : new URLSearchParams(location.search).get('store');
  if (!store) return;
  try {
    store = decodeURIComponent(store);
  } catch {
    return;
  }
  var enc = encodeURIComponent;
  var boot = (window.__tienditaShopBoot = {});
  function get(url) {
    boot[url] = fetch(url, { credentials: 'include' }).then(function (res) {
      if (!res.ok) throw new Error(String(res.status));
      return res.json();
    });
    boot[url].catch(function () {});
    return boot[url];
  }
  var WIDTHS = [160, 320, 400, 640, 800, 1200];
  function preloadImage(url, width, sizes) {
    if (!url) return;
    var stored = /^\/(?:temp-uploads\/products|objects)\/[^/?#]+$/.test(url);
    var href = stored ? url + '?w=' + width : url;
    // The gateway's page usually asks for it already (og/shop-hints.ts).
    var links = document.head.querySelectorAll('link[rel="preload"][as="image"]');
    for (var i = 0; i < links.length; i++) if (links[i].getAttribute('href') === href) return;
    var link = document.createElement('link');
    link.rel = 'preload';
    link.as = 'image';
    link.href = href;
    if (stored) {
      link.setAttribute(
        'imagesrcset',
        WIDTHS.filter(function (w) {
          return w >= width / 2 && w <= width * 2;
        })
          .map(function (w) {
            return url + '?w=' + w + ' ' + w + 'w';
          })
          .join(', '),
      );
      link.setAttribute('imagesizes', sizes);
    }
    link.setAttribute('fetchpriority', 'high');
    document.head.appendChild(link);
  }
  get('/api/public/store/' + enc(store));
  if (product) {
    get('/api/public/products/' + enc(product[2]) + '/details').then(function (p) {
      preloadImage((p.images && p.images[0]) || p.imageUrl, 640, '(min-width: 768px) 540px, 100vw');
    });
  } else {
    get('/api/public/products/' + enc(store) + '?page=1&limit=24').then(function (list) {
      list.products.slice(0, 2).forEach(function (p) {
        preloadImage(p.imageUrl, 320, '(min-width: 960px) 270px, (min-width: 640px) 31vw, 46vw');
      });
    });
  }
})();
