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
