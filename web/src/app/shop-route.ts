import { matchShopRoute } from '../shop/shop-route';

/** The part of a location the public shop's routing looks at. */
export type ShopLocation = Pick<Location, 'pathname' | 'search'>;

/**
 * Whether a location belongs to the public shop: /tienda/{name}, /{subdomain}, /{store}/product/{id}
 * and ?store= (spec 001 §2). Shop paths take precedence over the landing page and the owner app, and the
 * shop is its own lazy chunk that never loads owner code (see shop/shop-route.ts for the precedence).
 */
export function isShopPath(location: ShopLocation): boolean {
  return matchShopRoute(location) !== null;
}
