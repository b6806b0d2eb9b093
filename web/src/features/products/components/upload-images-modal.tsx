import { useRef, useState } from 'react';
import { Alert, Button, List, Modal, Progress, Typography } from 'antd';
import { DeleteOutlined, InboxOutlined } from '@ant-design/icons';
import { CatalogMessages, MAX_PRODUCT_IMAGES, MAX_UPLOAD_BYTES } from '@tiendita/contracts';
import { toast } from '../../../components/toast/toast-store';
import { serverMessageOr } from '../../../lib/api';
import { uploadImage } from '../api/upload-image';
import { ProductToasts } from '../lib/product-messages';

interface UploadImagesModalProps {
  open: boolean;
  /** Images the product already has: together they may not pass the limit of 10. */
  currentCount: number;
  onClose: () => void;
  /** The stored paths of the files that went up, in order (also after a failure part way). */
  onUploaded: (paths: string[]) => void;
}

function reasonOf(error: unknown): string {
  return serverMessageOr(error, error instanceof Error ? error.message : String(error));
}

/** 'Subir imágenes del producto': pick files, check them, and upload them one after the other with progress. */
export function UploadImagesModal({ open, currentCount, onClose, onUploaded }: UploadImagesModalProps) {
  const [files, setFiles] = useState<File[]>([]);
  const [progress, setProgress] = useState<number | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const remaining = Math.max(MAX_PRODUCT_IMAGES - currentCount, 0);
  const uploading = progress !== null;

  const pick = (list: FileList | null) => {
    const picked = Array.from(list ?? []);
    if (inputRef.current) inputRef.current.value = '';
    if (picked.length === 0) return;
    if (picked.some((f) => !f.type.startsWith('image/'))) {
      toast({ title: ProductToasts.invalidFiles, description: CatalogMessages.onlyImages, variant: 'destructive' });
      return;
    }
    if (picked.some((f) => f.size > MAX_UPLOAD_BYTES)) {
      toast({ title: ProductToasts.invalidFiles, description: CatalogMessages.fileTooLarge, variant: 'destructive' });
      return;
    }
    if (files.length + picked.length > remaining) {
      toast({ title: ProductToasts.limitExceeded, description: CatalogMessages.maxImages(MAX_PRODUCT_IMAGES), variant: 'destructive' });
      return;
    }
    setFiles((current) => [...current, ...picked]);
  };

  const upload = async () => {
    if (files.length === 0) {
      toast({ title: ProductToasts.errorTitle, description: CatalogMessages.selectAtLeastOne, variant: 'destructive' });
      return;
    }
    const paths: string[] = [];
    setProgress(0);
    try {
      // One at a time: the progress is the share of files completed (spec 001 §2).
      for (const file of files) {
        paths.push(await uploadImage(file));
        setProgress(Math.round((paths.length / files.length) * 100));
      }
      onUploaded(paths);
      toast({ title: ProductToasts.imagesUploaded, description: paths.length === 1 ? 'Se agregó 1 imagen.' : `Se agregaron ${paths.length} imágenes.` });
      setFiles([]);
      onClose();
    } catch (error) {
      if (paths.length > 0) onUploaded(paths);
      setFiles((current) => current.slice(paths.length));
      toast({ title: ProductToasts.errorTitle, description: ProductToasts.uploadFailed(reasonOf(error)), variant: 'destructive' });
    } finally {
      setProgress(null);
    }
  };

  return (
    <Modal
      open={open}
      title="Subir imágenes del producto"
      onCancel={uploading ? undefined : onClose}
      closable={!uploading}
      mask={{ closable: !uploading }}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={onClose} disabled={uploading}>
          Cancelar
        </Button>,
        <Button key="upload" type="primary" onClick={() => void upload()} loading={uploading}>
          {uploading ? 'Subiendo…' : 'Subir imágenes'}
        </Button>,
      ]}
    >
      <label className={`upload-drop${remaining === 0 ? ' upload-drop--disabled' : ''}`}>
        <InboxOutlined className="upload-drop__icon" aria-hidden="true" />
        <span className="upload-drop__title">Haz clic para elegir imágenes</span>
        <span className="upload-drop__hint">JPG, PNG o WebP de hasta 10MB cada una. Puedes agregar {remaining} más.</span>
        <input
          ref={inputRef}
          type="file"
          accept="image/jpeg,image/png,image/webp"
          multiple
          className="visually-hidden"
          disabled={uploading || remaining === 0}
          onChange={(e) => pick(e.target.files)}
        />
      </label>
      {remaining === 0 && <Alert type="warning" showIcon title={CatalogMessages.maxImages(MAX_PRODUCT_IMAGES)} style={{ marginTop: 12 }} />}
      {files.length > 0 && (
        <List
          size="small"
          style={{ marginTop: 12 }}
          dataSource={files}
          renderItem={(file, index) => (
            <List.Item
              actions={[
                <Button
                  key="remove"
                  type="text"
                  size="small"
                  icon={<DeleteOutlined />}
                  aria-label={`Quitar ${file.name}`}
                  disabled={uploading}
                  onClick={() => setFiles((current) => current.filter((_, i) => i !== index))}
                />,
              ]}
            >
              <Typography.Text ellipsis style={{ maxWidth: 300 }}>
                {file.name}
              </Typography.Text>
              <Typography.Text type="secondary">{(file.size / 1024).toFixed(0)} KB</Typography.Text>
            </List.Item>
          )}
        />
      )}
      {uploading && <Progress percent={progress ?? 0} style={{ marginTop: 12 }} aria-label="Progreso de la subida" />}
    </Modal>
  );
}
