/**
 * The resized WebP variants the catalog serves for a stored product image (?w= on
 * /temp-uploads/products/{file} or /objects/{file}), and the sizes the shop shows them at. One
 * home for the catalog (which makes them), the shop (which asks for them) and the gateway (which
 * asks the browser for a shop's first pictures with the page itself). Zod-free: the shop loads it.
 */
export const IMAGE_VARIANT_WIDTHS = [160, 320, 400, 640, 800, 1200] as const;
export type ImageWidth = (typeof IMAGE_VARIANT_WIDTHS)[number];

const STORED = /^\/(?:temp-uploads\/products|objects)\/[^/?#]+$/;

/** Whether a URL is an image the catalog stored (and so has variants). */
export function isStoredImage(url: string): boolean {
  return STORED.test(url);
}

/** The URL of a stored image's variant of `width`; an image the catalog did not store is used as it is. */
export function imageVariant(url: string, width: ImageWidth): string {
  return STORED.test(url) ? `${url}?w=${width}` : url;
}

/**
 * A srcset of the variants from half to twice `width` (for 1× to 3× screens), or undefined for an
 * image the catalog did not store (it has no variants).
 */
export function imageSrcSet(url: string, width: ImageWidth): string | undefined {
  if (!STORED.test(url)) return undefined;
  return IMAGE_VARIANT_WIDTHS.filter((w) => w >= width / 2 && w <= width * 2)
    .map((w) => `${imageVariant(url, w)} ${w}w`)
    .join(', ');
}

/** How wide a card's image shows: two columns on a phone, three from 640 px, four from 960 px (max 1120 px of page). */
export const CARD_IMAGE_SIZES = '(min-width: 960px) 270px, (min-width: 640px) 31vw, 46vw';
export const CARD_IMAGE_WIDTH: ImageWidth = 320;
/** A product page's main picture: the whole width on a phone, half the page from 768 px. */
export const GALLERY_IMAGE_SIZES = '(min-width: 768px) 540px, 100vw';
export const GALLERY_IMAGE_WIDTH: ImageWidth = 640;
/** The first cards of a shop whose images load with high priority (the largest paint is one of them). */
export const PRIORITY_CARD_IMAGES = 2;
/**
 * The cards that fill a phone's first screen (two rows of two under the header, the search and the
 * title): their images load at once, and the gateway writes them into the shop page's HTML.
 */
export const FIRST_SCREEN_CARDS = 4;
/**
 * The id of the element the gateway writes the first screen into (before #root), which the shop
 * removes when it takes over; web/public/shop-boot.js (a plain script) spells it out too.
 */
export const FIRST_SCREEN_ID = 'shop-first-screen';
