/**
 * What catalog answers the gateway for a shop or a product page (GET /internal/previews/stores/{store}
 * and /internal/previews/products/{id}): the gateway writes it into the page's <head> as Open Graph
 * tags (WhatsApp and Facebook read the HTML, not the app), as preload hints for the first screen,
 * and writes the first screen itself into the page (firstScreen), so a phone paints it before the
 * app's JavaScript has arrived.
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
  /** What the page's first screen shows, as the shop app shows it (absent from an older catalog). */
  firstScreen?: ShopFirstScreen;
}

/** The store fields the shop's header, info banner and WhatsApp button show (PublicStoreView's). */
export interface FirstScreenStore {
  name: string;
  subdomain: string;
  description: string | null;
  logoUrl: string | null;
  primaryColor: string | null;
  secondaryColor: string | null;
  accentColor: string | null;
  address: string | null;
  phone: string | null;
  businessHours: string | null;
  whatsappNumber: string | null;
}

/** One card of the shop's grid (PublicProductView's fields the card shows). */
export interface FirstScreenCard {
  id: string;
  name: string;
  price: number;
  finalPrice: number;
  discountPercentage: number;
  stock: number;
  imageUrl: string | null;
}

/** A product page's product (PublicProductDetails' fields the page shows above the reviews). */
export interface FirstScreenProduct {
  id: string;
  name: string;
  description: string | null;
  sku: string | null;
  categoryName: string | null;
  price: number;
  finalPrice: number;
  discountPercentage: number;
  stock: number;
  images: string[];
  averageRating: number;
  totalRatings: number;
}

/**
 * A shop page's first screen: the store and its first FIRST_SCREEN_CARDS cards of the public list's
 * first page (same filter and order), with the list's total and whether the category filter shows;
 * or a product page's store and product.
 */
export type ShopFirstScreen =
  | { page: 'store'; store: FirstScreenStore; total: number; hasCategories: boolean; cards: FirstScreenCard[] }
  | { page: 'product'; store: FirstScreenStore; product: FirstScreenProduct };
