import { useState } from 'react';
import { Button, Image, Tag, Tooltip } from 'antd';
import { DeleteOutlined, ExpandOutlined, PlusOutlined } from '@ant-design/icons';
import { MAX_PRODUCT_IMAGES } from '@tiendita/contracts';
import { imageVariant } from '../../../shop/lib/image';
import { ProductThumb } from './product-thumb';
import { UploadImagesModal } from './upload-images-modal';

interface ImageGalleryProps {
  value?: string[];
  /** Present when the images can be changed: removing and adding. */
  onChange?: (images: string[]) => void;
  name: string;
}

/**
 * The product's images: thumbnails (the first is the main image), a full-screen view, and, when
 * editable, removal and adding through the upload dialog. Removing the first makes the next one main.
 */
export function ImageGallery({ value = [], onChange, name }: ImageGalleryProps) {
  const [preview, setPreview] = useState<number | null>(null);
  const [uploadOpen, setUploadOpen] = useState(false);
  const editable = onChange !== undefined;
  const images = value.length === 1 ? '1 imagen' : `${value.length} imágenes`;
  const count = value.length === 0 ? 'Sin imágenes.' : `${images} (máximo ${MAX_PRODUCT_IMAGES}).`;

  return (
    <div className="image-gallery">
      <ul className="image-gallery__grid">
        {value.map((src, index) => (
          <li key={`${src}-${index}`} className="image-gallery__item">
            <button type="button" className="image-gallery__open" onClick={() => setPreview(index)} aria-label={`Ver imagen ${index + 1} en pantalla completa`}>
              <ProductThumb src={src} alt={`${name}, imagen ${index + 1}`} width={320} />
              <ExpandOutlined className="image-gallery__expand" aria-hidden="true" />
            </button>
            {index === 0 && (
              <Tag color="blue" className="image-gallery__main">
                Principal
              </Tag>
            )}
            {editable && (
              <Tooltip title="Quitar imagen">
                <Button
                  className="image-gallery__remove"
                  size="small"
                  danger
                  shape="circle"
                  icon={<DeleteOutlined />}
                  aria-label={`Quitar imagen ${index + 1}`}
                  onClick={() => onChange(value.filter((_, i) => i !== index))}
                />
              </Tooltip>
            )}
          </li>
        ))}
        {editable && value.length < MAX_PRODUCT_IMAGES && (
          <li className="image-gallery__item">
            <button type="button" className="image-gallery__add" onClick={() => setUploadOpen(true)}>
              <PlusOutlined aria-hidden="true" />
              <span>Agregar imágenes</span>
            </button>
          </li>
        )}
      </ul>
      <p className="image-gallery__hint">
        {count} La primera imagen es la principal.
      </p>
      <Image.PreviewGroup
        items={value.map((src) => imageVariant(src, 1200))}
        preview={{
          open: preview !== null,
          current: preview ?? 0,
          onOpenChange: (open) => !open && setPreview(null),
          onChange: (current) => setPreview(current),
        }}
      />
      {editable && (
        <UploadImagesModal
          open={uploadOpen}
          currentCount={value.length}
          onClose={() => setUploadOpen(false)}
          onUploaded={(paths) => onChange([...value, ...paths].slice(0, MAX_PRODUCT_IMAGES))}
        />
      )}
    </div>
  );
}
