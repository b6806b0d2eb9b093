/** Open Graph link previews of shop and product pages (owned by the catalog feature). */
export * from './link-previews';
export * from './shop-hints';
export * from './first-screen';
