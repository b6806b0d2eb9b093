/* global document, window, location, URLSearchParams -- a browser script, not a module */
// Shop pages only: starts the first API calls and the first picture while the app's JavaScript is
// still downloading (on a phone's network that is a second or so), instead of after it has run.
// A classic async script from 'self' (the CSP allows no inline script), run once the <head> the
// gateway wrote is parsed: it acts only when that head carries a shop's link preview (og:type), so
// owner screens and the landing page never call anything. The app adopts these answers by URL
// (src/shop/preload.ts) and fetches anew when one is missing or failed; the URLs, the page size
// and the image variants below must stay those of src/shop (get-public-products.ts) and of
// contracts/src/image-variants.ts.
//
// A page with the gateway's first screen (gateway/src/og/first-screen.ts: the header and the first
// cards already in the HTML) carries the app's scripts on that screen's container instead of in its
// <head>: this script asks for them, together with the API calls, once the first screen's main
// pictures (fetchpriority high) are decoded and painted, and runs the entry. On a phone's network
// the app's JavaScript (some 150 KB) would otherwise share the line with those pictures, and its
// run (a few hundred milliseconds of a phone's processor) could hold up their paint; the first
// screen needs neither. At most 3 s after this script runs, the app starts anyway.
(function () {
  'use strict';
  var firstScreen = document.getElementById('shop-first-screen');
  var entry = firstScreen && firstScreen.getAttribute('data-app-entry');
  if (!entry) {
    startRequests().forEach(function (step) {
      step();
    });
    return;
  }
  var modules = (firstScreen.getAttribute('data-app-modules') || '').split(' ').filter(Boolean);
  var started = false;
  // Each request costs the page's thread a few milliseconds on a phone: the app's start is a row of
  // short tasks, one request each (the API calls, the entry, then its imports and the shop's chunk),
  // so that a tap in between never waits behind one long task.
  function startApp() {
    if (started) return;
    started = true;
    var steps = startRequests();
    steps.push(function () {
      var script = document.createElement('script');
      script.type = 'module';
      script.crossOrigin = 'anonymous';
      script.src = entry;
      document.head.appendChild(script);
    });
    // The entry's imports and the shop's chunk, asked for together (not one after the other as the
    // entry finds them).
    modules.forEach(function (href) {
      steps.push(function () {
        var link = document.createElement('link');
        link.rel = 'modulepreload';
        link.crossOrigin = 'anonymous';
        link.href = href;
        document.head.appendChild(link);
      });
    });
    // A message to itself is the next task without setTimeout's 4 ms clamp on nested calls.
    var channel = window.MessageChannel ? new window.MessageChannel() : null;
    function next() {
      var step = steps.shift();
      if (!step) return;
      step();
      if (channel) channel.port2.postMessage(0);
      else setTimeout(next, 0);
    }
    if (channel) channel.port1.onmessage = next;
    next();
  }
  function afterPaint() {
    if (window.requestAnimationFrame) {
      window.requestAnimationFrame(function () {
        setTimeout(startApp, 0);
      });
    } else startApp();
  }
  var pictures = firstScreen.querySelectorAll('img[fetchpriority="high"]');
  var waiting = pictures.length;
  function decoded() {
    if (--waiting === 0) afterPaint();
  }
  if (waiting === 0) afterPaint();
  for (var i = 0; i < pictures.length; i++) {
    if (pictures[i].decode) pictures[i].decode().then(decoded, decoded);
    else decoded();
  }
  setTimeout(startApp, 3000);

  // The store, and its first page of products or the product's details (see the top): the calls, to
  // make one after the other (the page without a first screen makes them at once).
  function startRequests() {
    var steps = [];
    var type = document.querySelector('meta[property="og:type"]');
    if (!type || !window.fetch || !window.Promise) return steps;
    var path = location.pathname;
    var product = /^\/([^/]+)\/product\/([0-9a-fA-F-]{36})\/?$/.exec(path);
    var tienda = /^\/tienda\/([^/]+)\/?$/.exec(path);
    var slug = /^\/([a-z0-9-]+)\/?$/.exec(path);
    var store = product ? product[1] : tienda ? tienda[1] : slug ? slug[1] : new URLSearchParams(location.search).get('store');
    if (!store) return steps;
    try {
      store = decodeURIComponent(store);
    } catch {
      return steps;
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
    steps.push(function () {
      get('/api/public/store/' + enc(store));
    });
    steps.push(function () {
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
    });
    // The category filter is part of the shop page's first screen.
    if (!product) {
      steps.push(function () {
        get('/api/public/categories/' + enc(store));
      });
    }
    return steps;
  }
})();
