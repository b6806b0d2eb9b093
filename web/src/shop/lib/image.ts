/** Widths of the resized WebP variants the catalog serves (?w= on a stored image, spec issue 5). */
export type ImageWidth = 160 | 320 | 400 | 640 | 800 | 1200;

const STORED = /^\/(?:temp-uploads\/products|objects)\/[^/?#]+$/;

/**
 * The URL of a resized WebP variant of a stored product image (/temp-uploads/products/{f}?w=320), which
 * the catalog serves with a year-long cache. An image the catalog did not store (an external URL) is
 * used as it is.
 */
export function imageVariant(url: string, width: ImageWidth): string {
  return STORED.test(url) ? `${url}?w=${width}` : url;
}

const WIDTHS: ImageWidth[] = [160, 320, 400, 640, 800, 1200];

/**
 * A srcset of the variants from half to twice `width` (for 1× to 3× screens), or undefined for an
 * image the catalog did not store (it has no variants).
 */
export function imageSrcSet(url: string, width: ImageWidth): string | undefined {
  if (!STORED.test(url)) return undefined;
  return WIDTHS.filter((w) => w >= width / 2 && w <= width * 2)
    .map((w) => `${imageVariant(url, w)} ${w}w`)
    .join(', ');
}

/** How wide a card's image shows: two columns on a phone, three from 640 px, four from 960 px (max 1120 px of page). */
export const CARD_IMAGE_SIZES = '(min-width: 960px) 270px, (min-width: 640px) 31vw, 46vw';
export const CARD_IMAGE_WIDTH: ImageWidth = 320;
/** A product page's main picture: the whole width on a phone, half the page from 768 px. */
export const GALLERY_IMAGE_SIZES = '(min-width: 768px) 540px, 100vw';
export const GALLERY_IMAGE_WIDTH: ImageWidth = 640;

/**
 * Asks for an image as the page's most important one before the component that shows it exists
 * (a <link rel=preload> with the same srcset and sizes, so the browser picks the same variant and
 * the <img> finds it loaded).
 */
export function preloadImage(url: string, width: ImageWidth, sizes: string): void {
  const href = imageVariant(url, width);
  if (document.head.querySelector(`link[rel="preload"][href="${CSS.escape(href)}"]`)) return;
  const link = document.createElement('link');
  link.rel = 'preload';
  link.as = 'image';
  link.href = href;
  const srcset = imageSrcSet(url, width);
  if (srcset) {
    link.setAttribute('imagesrcset', srcset);
    link.setAttribute('imagesizes', sizes);
  }
  link.setAttribute('fetchpriority', 'high');
  document.head.appendChild(link);
}
