import { useState } from 'react';
import { GALLERY_IMAGE_SIZES, GALLERY_IMAGE_WIDTH } from '../lib/image';
import { ProductImage } from './product-image';
import { ChevronLeftIcon, ChevronRightIcon } from './icons';

/** The product's images: a large one, arrows, and thumbnails to pick another. */
export function Gallery({ images, name }: { images: string[]; name: string }) {
  const [index, setIndex] = useState(0);
  const count = images.length;
  const current = count > 0 ? images[Math.min(index, count - 1)] : null;
  const go = (step: number) => setIndex((i) => (i + step + count) % count);

  return (
    <div className="shop-gallery">
      <div className="shop-gallery__main">
        <ProductImage key={current ?? 'none'} src={current} alt={count > 1 ? `${name}, imagen ${index + 1} de ${count}` : name} width={GALLERY_IMAGE_WIDTH} sizes={GALLERY_IMAGE_SIZES} priority />
        {count > 1 && (
          <>
            <button type="button" className="shop-gallery__arrow shop-gallery__arrow--prev" onClick={() => go(-1)} aria-label="Imagen anterior">
              <ChevronLeftIcon />
            </button>
            <button type="button" className="shop-gallery__arrow shop-gallery__arrow--next" onClick={() => go(1)} aria-label="Imagen siguiente">
              <ChevronRightIcon />
            </button>
          </>
        )}
      </div>
      {count > 1 && (
        <ul className="shop-gallery__thumbs">
          {images.map((src, i) => (
            <li key={src + i}>
              <button
                type="button"
                className={i === index ? 'is-active' : undefined}
                aria-label={`Ver imagen ${i + 1}`}
                aria-current={i === index ? 'true' : undefined}
                onClick={() => setIndex(i)}
              >
                <ProductImage src={src} alt="" width={160} eager />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
