import { render } from '@testing-library/react';
import { paintOwnerFirstScreen, removeOwnerFirstScreen, useOwnerFirstScreenTakeover } from './owner-first-screen';
import { preloadRoutes, prefetchRoutes, routeFiles, routeOf, ROUTE_CHUNKS_META } from './route-chunks';
import { SCREEN_HEADERS } from './screen-headers';

function Screen() {
  useOwnerFirstScreenTakeover();
  return <p>pantalla</p>;
}

describe('the owner first screen', () => {
  beforeEach(() => {
    document.body.innerHTML = '<div id="root"></div>';
  });

  it('paints the header and the orders heading before #root, with the text the screen draws', () => {
    paintOwnerFirstScreen('/orders');
    const screen = document.getElementById('owner-first-screen')!;
    expect(screen.nextElementSibling?.id).toBe('root');
    expect(screen.textContent).toContain('Tiendita');
    expect(screen.querySelector('h1')?.textContent).toBe(SCREEN_HEADERS['/orders'].title);
    expect(screen.querySelector('p')?.textContent).toBe(SCREEN_HEADERS['/orders'].description);
  });

  it('paints it once, and the screen that renders removes it', () => {
    paintOwnerFirstScreen('/dashboard');
    paintOwnerFirstScreen('/dashboard');
    expect(document.querySelectorAll('#owner-first-screen')).toHaveLength(1);
    expect(document.querySelector('#owner-first-screen .welcome')).not.toBeNull();
    render(<Screen />);
    expect(document.getElementById('owner-first-screen')).toBeNull();
    removeOwnerFirstScreen();
  });
});

describe('route chunks', () => {
  beforeEach(() => {
    document.head.innerHTML = `<meta name="${ROUTE_CHUNKS_META}" content='${JSON.stringify({ files: ['owner-app-1.js', 'owner-app-1.css', 'orders-page-2.js', 'table-3.js'], routes: { '/dashboard': [0, 1], '/orders': [2, 3], '/pos': [3] } })}'>`;
  });

  it('maps a path to its screen', () => {
    expect(routeOf('/orders/abc/receipt')).toBe('/orders');
    expect(routeOf('/')).toBe('/dashboard');
    expect(routeOf('/pos')).toBe('/pos');
  });

  it('lists the files of several screens once each', () => {
    expect(routeFiles(['/orders', '/pos'])).toEqual(['/assets/orders-page-2.js', '/assets/table-3.js']);
    expect(routeFiles(['/unknown'])).toEqual([]);
  });

  it('modulepreloads scripts and preloads stylesheets of the screen opened, prefetches the next ones, never twice', () => {
    preloadRoutes(['/dashboard']);
    prefetchRoutes(['/orders', '/dashboard']);
    const links = [...document.head.querySelectorAll('link')].map((l) => [l.getAttribute('rel'), l.getAttribute('href'), l.getAttribute('as')]);
    expect(links).toEqual([
      ['modulepreload', '/assets/owner-app-1.js', null],
      ['preload', '/assets/owner-app-1.css', 'style'],
      ['prefetch', '/assets/orders-page-2.js', null],
      ['prefetch', '/assets/table-3.js', null],
    ]);
  });
});
