import { CatalogMessages, MAX_IMAGE_PIXELS, MAX_UPLOAD_BYTES } from '@tiendita/contracts';
import { ValidationError } from '@tiendita/eventsourcing';
import { PayloadTooLargeError } from '@tiendita/service-kit';
import sharp, { type Metadata } from 'sharp';

export type ImageFormat = 'jpeg' | 'png' | 'webp';

/** The image format by its magic bytes (never by name or declared type), or null. */
export function sniffImage(data: Buffer): ImageFormat | null {
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'jpeg';
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (data.length >= 12 && data.toString('latin1', 0, 4) === 'RIFF' && data.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  return null;
}

/** sharp's options for any uploaded input: refuse corrupt data, never decode more than MAX_IMAGE_PIXELS. */
export const SHARP_INPUT = { failOn: 'error', limitInputPixels: MAX_IMAGE_PIXELS } as const;

export interface CheckedImage {
  format: ImageFormat;
  contentType: string;
  width: number;
  height: number;
  /** The image as it is stored and served: re-encoded without EXIF, XMP, IPTC or comments (GPS included). */
  data: Buffer;
}

/**
 * Accepts only real JPEG, PNG or WebP content: the magic bytes first, then sharp must read the
 * header with the same format. Anything else answers 'Solo se pueden subir archivos de imagen.';
 * more than 10 MB answers 413. The header's width × height is checked before any pixel is decoded:
 * a small file that declares a huge picture (a "pixel flood") is refused with 400 without costing
 * memory. The accepted image is then decoded once and re-encoded in its own format with no
 * metadata, so a phone picture's GPS position never reaches the shop; the EXIF orientation is
 * applied to the pixels first, so the picture still stands the right way up.
 */
export async function checkImage(data: Buffer): Promise<CheckedImage> {
  if (data.length > MAX_UPLOAD_BYTES) throw new PayloadTooLargeError(CatalogMessages.fileTooLarge);
  const refuse = () => new ValidationError(CatalogMessages.onlyImages, { fields: { file: CatalogMessages.onlyImages } });
  const format = sniffImage(data);
  if (!format) throw refuse();
  let meta: Metadata;
  try {
    // The header only (no pixel is decoded here); the pixel limit is checked just below, with its own message.
    meta = await sharp(data, { failOn: 'error', limitInputPixels: false }).metadata();
  } catch {
    throw refuse();
  }
  if (meta.format !== format || !meta.width || !meta.height) throw refuse();
  if (meta.width * meta.height > MAX_IMAGE_PIXELS) {
    throw new ValidationError(CatalogMessages.imageTooManyPixels, { fields: { file: CatalogMessages.imageTooManyPixels } });
  }
  try {
    // Decoding every pixel also refuses truncated or corrupt files; sharp writes no metadata unless asked.
    const image = sharp(data, SHARP_INPUT).rotate();
    const encoded =
      format === 'jpeg' ? image.jpeg({ quality: 90 }) : format === 'png' ? image.png() : image.webp({ quality: 90 });
    const { data: clean, info } = await encoded.toBuffer({ resolveWithObject: true });
    return { format, contentType: `image/${format}`, width: info.width, height: info.height, data: clean };
  } catch {
    throw refuse();
  }
}
