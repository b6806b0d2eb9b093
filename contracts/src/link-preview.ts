/**
 * What catalog answers the gateway for a shop or a product page (GET /internal/previews/stores/{store}
 * and /internal/previews/products/{id}): the gateway writes it into the page's <head> as Open Graph
 * tags (WhatsApp and Facebook read the HTML, not the app) and as preload hints for the first screen.
 */
export interface LinkPreview {
  title: string;
  description: string | null;
  /** A path on this site (the gateway makes it absolute) or an external URL, or null. */
  image: string | null;
  type: 'website' | 'product';
  storeName: string;
  storeSubdomain: string;
  price?: number;
  finalPrice?: number;
  discountPercentage?: number;
  /**
   * A shop: the images of its first product cards (the public list's first page, in its order,
   * PRIORITY_CARD_IMAGES at most), which the gateway asks the browser for with the page itself.
   */
  cardImages?: string[];
}
