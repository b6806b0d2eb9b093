/** The part of a location the public shop's routing looks at. */
export type ShopLocation = Pick<Location, 'pathname' | 'search'>;

/**
 * Whether a location belongs to the public shop: /tienda/{name}, /{subdomain}, /{store}/product/{id}
 * and ?store= (spec 001 §2). Shop paths take precedence over the landing page and the owner app, and the
 * shop is its own lazy chunk that never loads owner code. The public shop issue (5) implements this
 * match and mounts its chunk in AppRoot; until then no path belongs to the shop.
 */
export function isShopPath(_location: ShopLocation): boolean {
  return false;
}
