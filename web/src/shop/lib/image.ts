import { imageSrcSet, imageVariant, type ImageWidth } from '@tiendita/contracts/constants';

// The variants, their srcset and the sizes the shop shows them at live in the contracts (the catalog
// makes the variants, the gateway preloads a shop's first pictures with the page).
export {
  CARD_IMAGE_SIZES,
  CARD_IMAGE_WIDTH,
  FIRST_SCREEN_CARDS,
  GALLERY_IMAGE_SIZES,
  GALLERY_IMAGE_WIDTH,
  imageSrcSet,
  imageVariant,
  PRIORITY_CARD_IMAGES,
  type ImageWidth,
} from '@tiendita/contracts/constants';

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
