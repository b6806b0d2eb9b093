import { CatalogMessages, MAX_UPLOAD_BYTES } from '@tiendita/contracts';
import { PayloadTooLargeError, ValidationError } from '@tiendita/eventsourcing';
import sharp from 'sharp';

export type ImageFormat = 'jpeg' | 'png' | 'webp';

/** The image format by its magic bytes (never by name or declared type), or null. */
export function sniffImage(data: Buffer): ImageFormat | null {
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'jpeg';
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (data.length >= 12 && data.toString('latin1', 0, 4) === 'RIFF' && data.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  return null;
}

export interface CheckedImage {
  format: ImageFormat;
  contentType: string;
  width: number;
  height: number;
}

/**
 * Accepts only real JPEG, PNG or WebP content: the magic bytes first, then sharp must read the
 * header with the same format and decode the pixels. Anything else answers
 * 'Solo se pueden subir archivos de imagen.'; more than 10 MB answers 413.
 */
export async function checkImage(data: Buffer): Promise<CheckedImage> {
  if (data.length > MAX_UPLOAD_BYTES) throw new PayloadTooLargeError(CatalogMessages.fileTooLarge);
  const refuse = () => new ValidationError(CatalogMessages.onlyImages, { fields: { file: CatalogMessages.onlyImages } });
  const format = sniffImage(data);
  if (!format) throw refuse();
  try {
    const meta = await sharp(data, { failOn: 'error' }).metadata();
    if (meta.format !== format || !meta.width || !meta.height) throw refuse();
    // Decoding every pixel (into a tiny thumbnail) refuses truncated or corrupt files.
    await sharp(data, { failOn: 'error' }).resize(16, 16, { fit: 'inside' }).raw().toBuffer();
    return { format, contentType: `image/${format}`, width: meta.width, height: meta.height };
  } catch (error) {
    if (error instanceof ValidationError) throw error;
    throw refuse();
  }
}
