import { useState } from 'react';
import { PictureOutlined } from '@ant-design/icons';
import { imageVariant, type ImageWidth } from '../../../shop/lib/image';
import { ProductToasts } from '../lib/product-messages';

/**
 * A product image at a resized width; one that fails to load says so ('Error al cargar imagen').
 * `priority`: one of the first pictures on screen (the screen's largest paint), fetched at once instead of lazily.
 */
export function ProductThumb({ src, alt, width, className, priority = false }: { src: string | null | undefined; alt: string; width: ImageWidth; className?: string; priority?: boolean }) {
  const [failed, setFailed] = useState(false);
  if (!src || failed) {
    return (
      <div className={`product-thumb product-thumb--empty ${className ?? ''}`} role="img" aria-label={failed ? ProductToasts.imageLoadError : `${alt} (sin imagen)`}>
        <PictureOutlined aria-hidden="true" />
        {failed && <span>{ProductToasts.imageLoadError}</span>}
      </div>
    );
  }
  return (
    <img
      className={`product-thumb ${className ?? ''}`}
      src={imageVariant(src, width)}
      alt={alt}
      width={width}
      height={width}
      loading={priority ? 'eager' : 'lazy'}
      fetchPriority={priority ? 'high' : undefined}
      decoding="async"
      onError={() => setFailed(true)}
    />
  );
}
