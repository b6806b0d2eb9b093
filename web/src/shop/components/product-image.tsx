import { useState } from 'react';
import { imageVariant, type ImageWidth } from '../lib/image';
import { ImageIcon } from './icons';

interface ProductImageProps {
  src: string | null | undefined;
  alt: string;
  width: ImageWidth;
  /** The first visible images load eagerly; the rest wait until they scroll into view. */
  eager?: boolean;
  className?: string;
}

/** A square product image from its resized WebP variant; a missing or broken image shows a placeholder. */
export function ProductImage({ src, alt, width, eager, className }: ProductImageProps) {
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
      alt={alt}
      width={width}
      height={width}
      loading={eager ? 'eager' : 'lazy'}
      decoding="async"
      onError={() => setFailed(true)}
    />
  );
}
