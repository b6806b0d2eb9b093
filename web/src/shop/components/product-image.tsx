import { useState } from 'react';
import { imageSrcSet, imageVariant, type ImageWidth } from '../lib/image';
import { ImageIcon } from './icons';

interface ProductImageProps {
  src: string | null | undefined;
  alt: string;
  width: ImageWidth;
  /** The first visible images load eagerly; the rest wait until they scroll into view. */
  eager?: boolean;
  /** The page's main image (the first cards, a product page's picture): asked for before anything else. */
  priority?: boolean;
  /** How wide the image shows (the img sizes attribute): with it the browser picks the variant for the screen's density. */
  sizes?: string;
  className?: string;
}

/** A square product image from its resized WebP variant; a missing or broken image shows a placeholder. */
export function ProductImage({ src, alt, width, eager, priority, sizes, className }: ProductImageProps) {
  const [failed, setFailed] = useState(false);
  if (!src || failed) {
    return (
      <div className={`shop-img shop-img--empty ${className ?? ''}`} role="img" aria-label={failed ? 'Error al cargar imagen' : `${alt} (sin imagen)`}>
        <ImageIcon size={32} />
      </div>
    );
  }
  return (
    <img
      className={`shop-img ${className ?? ''}`}
      src={imageVariant(src, width)}
      srcSet={sizes ? imageSrcSet(src, width) : undefined}
      sizes={sizes}
      alt={alt}
      width={width}
      height={width}
      loading={eager || priority ? 'eager' : 'lazy'}
      fetchPriority={priority ? 'high' : undefined}
      decoding="async"
      onError={() => setFailed(true)}
    />
  );
}
