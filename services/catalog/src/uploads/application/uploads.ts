import { Inject, Injectable } from '@nestjs/common';
import { CatalogMessages, IMAGE_VARIANT_WIDTHS, type UploadRequest, type UploadResponse } from '@tiendita/contracts';
import { NotFoundError, ValidationError } from '@tiendita/eventsourcing';
import { type CallerIdentity, type OwnerIdentity, PG_POOL, SERVICE_CONFIG, TooManyRequestsError } from '@tiendita/service-kit';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import sharp from 'sharp';
import type { CatalogConfig } from '../../config';
import { RateLimiter } from '../../reviews/application/rate-limiter';
import { OBJECT_STORAGE } from '../../shared/tokens';
import { checkImage, SHARP_INPUT } from '../image-check';
import type { ObjectStorage, OpenedObject } from '../storage/object-storage';

/** How long an upload URL stays valid. */
const UPLOAD_URL_TTL_MINUTES = 60;
/** Widths of the WebP variants the shop may ask for (?w=…): the contracts' list, which the shop and the gateway use too. */
export const VARIANT_WIDTHS = IMAGE_VARIANT_WIDTHS;
/** An upload's file name (a uuid and the extension its content decided), as a regular expression source; also used in SQL. */
export const FILE_NAME_PATTERN = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\.(?:jpg|png|webp)';
const FILE_NAME = new RegExp(`^${FILE_NAME_PATTERN}$`);
const EXTENSIONS: Record<string, string> = { 'image/jpeg': 'jpg', 'image/jpg': 'jpg', 'image/png': 'png', 'image/webp': 'webp' };

/** Where the product form stores an uploaded image (spec §7: uploadUrl under /api/upload/direct/). */
export const imagePath = (fileName: string): string => `/temp-uploads/products/${fileName}`;
export const originalKey = (fileName: string): string => `products/${fileName}`;
export const variantKey = (fileName: string, width: number): string => `variants/${width}/${fileName}.webp`;

export interface ReceivedUpload {
  fileName: string;
  url: string;
  contentType: string;
  size: number;
  width: number;
  height: number;
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** A fresh upload file name with the declared type's extension (the content decides later). */
export function newFileName(contentType: string): string {
  return `${randomUUID()}.${EXTENSIONS[contentType.toLowerCase()] ?? 'jpg'}`;
}

/**
 * Image uploads: a one-time URL per file (POST /api/upload), the raw file PUT to it, checked by
 * content and kept in the storage port; originals and resized WebP variants served back.
 */
@Injectable()
export class Uploads {
  private readonly inFlight = new Map<string, Promise<boolean>>();

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    @Inject(SERVICE_CONFIG) private readonly config: CatalogConfig,
    private readonly limiter: RateLimiter,
  ) {}

  /**
   * A one-time upload URL for the owner's store, within the store's limits: UPLOAD_RATE_LIMIT per
   * UPLOAD_RATE_WINDOW_SECONDS (bursts), UPLOAD_MAX_PER_HOUR URLs in any hour, and no new URL once
   * UPLOAD_MAX_BYTES_PER_DAY were received in the last 24 hours. Each answers 429 in Spanish.
   */
  async createUpload(owner: OwnerIdentity, request: UploadRequest): Promise<UploadResponse> {
    await this.limiter.hit(`upload:${owner.storeId}`, this.config.UPLOAD_RATE_LIMIT, this.config.UPLOAD_RATE_WINDOW_SECONDS, CatalogMessages.uploadRateLimited);
    const used = await this.usage(owner.storeId);
    if (used.lastHour >= this.config.UPLOAD_MAX_PER_HOUR) {
      throw new TooManyRequestsError(CatalogMessages.uploadCountQuota(this.config.UPLOAD_MAX_PER_HOUR), used.hourRetrySeconds);
    }
    this.assertBytesLeft(used, 0);
    const token = randomBytes(24).toString('base64url');
    const fileName = newFileName(request.contentType);
    await this.pool.query(
      `INSERT INTO catalog.uploads (file_name, store_id, uploaded_by, original_name, token_hash, expires_at)
       VALUES ($1, $2, $3, $4, $5, now() + make_interval(mins => $6))`,
      [fileName, owner.storeId, owner.userId, request.filename, sha256(token), UPLOAD_URL_TTL_MINUTES],
    );
    return { uploadUrl: `/api/upload/direct/${token}`, fileName };
  }

  /** PUT {uploadUrl}: the token is the permission; it works once and only for its own store. */
  async receive(token: string, caller: CallerIdentity, body: unknown): Promise<ReceivedUpload> {
    const r = await this.pool.query<{ file_name: string; store_id: string }>(
      `SELECT file_name, store_id FROM catalog.uploads WHERE token_hash = $1 AND received_at IS NULL AND expires_at > now()`,
      [sha256(token)],
    );
    const row = r.rows[0];
    if (!row || (caller.storeId && caller.storeId !== row.store_id)) throw new NotFoundError(CatalogMessages.uploadNotFound);
    const empty = body === undefined || body === null || ((Buffer.isBuffer(body) || typeof body === 'string') && body.length === 0);
    if (empty) throw new ValidationError(CatalogMessages.selectAtLeastOne);
    // A body that is there but was not sent as a file (text/plain arrives parsed as a string): not an image.
    if (!Buffer.isBuffer(body)) throw new ValidationError(CatalogMessages.onlyImages, { fields: { file: CatalogMessages.onlyImages } });
    this.assertBytesLeft(await this.usage(row.store_id), body.length);
    const image = await checkImage(body);
    // What is kept (and counted) is the cleaned image, without EXIF: never the bytes as sent.
    await this.storage.put(originalKey(row.file_name), image.data, image.contentType);
    const size = image.data.length;
    const claimed = await this.pool.query(
      `UPDATE catalog.uploads SET received_at = now(), content_type = $2, size_bytes = $3, width = $4, height = $5
       WHERE token_hash = $1 AND received_at IS NULL`,
      [sha256(token), image.contentType, size, image.width, image.height],
    );
    if (claimed.rowCount === 0) throw new NotFoundError(CatalogMessages.uploadNotFound);
    return { fileName: row.file_name, url: imagePath(row.file_name), contentType: image.contentType, size, width: image.width, height: image.height };
  }

  /** What a store used: upload URLs asked for in the last hour, bytes received in the last 24 hours. */
  private async usage(storeId: string): Promise<{ lastHour: number; hourRetrySeconds: number; bytesToday: number; dayRetrySeconds: number }> {
    const r = await this.pool.query<{ last_hour: number; hour_retry: number; bytes_today: string; day_retry: number }>({
      name: 'catalog_upload_usage',
      text: `SELECT
               count(*) FILTER (WHERE created_at > now() - interval '1 hour')::int AS last_hour,
               GREATEST(1, ceil(extract(epoch FROM min(created_at) FILTER (WHERE created_at > now() - interval '1 hour') + interval '1 hour' - now())))::int AS hour_retry,
               COALESCE(sum(size_bytes) FILTER (WHERE received_at > now() - interval '1 day'), 0)::bigint AS bytes_today,
               GREATEST(1, ceil(extract(epoch FROM min(received_at) FILTER (WHERE received_at > now() - interval '1 day') + interval '1 day' - now())))::int AS day_retry
             FROM catalog.uploads WHERE store_id = $1 AND created_at > now() - interval '1 day'`,
      values: [storeId],
    });
    const row = r.rows[0];
    return { lastHour: row.last_hour, hourRetrySeconds: row.hour_retry ?? 1, bytesToday: Number(row.bytes_today), dayRetrySeconds: row.day_retry ?? 1 };
  }

  private assertBytesLeft(used: { bytesToday: number; dayRetrySeconds: number }, incoming: number): void {
    const max = this.config.UPLOAD_MAX_BYTES_PER_DAY;
    if (used.bytesToday + incoming > max || (incoming === 0 && used.bytesToday >= max)) {
      throw new TooManyRequestsError(CatalogMessages.uploadBytesQuota(max), used.dayRetrySeconds);
    }
  }

  /** An original, or its WebP variant `width` pixels wide (made once, then kept in storage), opened as a stream. */
  async read(fileName: string, width: number | undefined): Promise<OpenedObject> {
    if (!FILE_NAME.test(fileName)) throw new NotFoundError(CatalogMessages.imageNotFound);
    if (width === undefined) {
      const original = await this.storage.open(originalKey(fileName));
      if (!original) throw new NotFoundError(CatalogMessages.imageNotFound);
      return original;
    }
    if (!(VARIANT_WIDTHS as readonly number[]).includes(width)) throw new ValidationError(CatalogMessages.invalidImageWidth, { fields: { w: VARIANT_WIDTHS.join(', ') } });
    const key = variantKey(fileName, width);
    const cached = await this.storage.open(key);
    if (cached) return cached;
    // One resize per variant even when many shoppers ask at once.
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.makeVariant(fileName, width, key).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    const made = (await pending) ? await this.storage.open(key) : null;
    if (!made) throw new NotFoundError(CatalogMessages.imageNotFound);
    return made;
  }

  /** Makes the shop's usual variants right away, so the first shopper does not wait for them. */
  async warmVariants(fileName: string, widths: readonly number[] = [400, 800]): Promise<void> {
    for (const w of widths) (await this.read(fileName, w)).stream.destroy();
  }

  /** Streams the original through sharp into a WebP variant; false when there is no original. */
  private async makeVariant(fileName: string, width: number, key: string): Promise<boolean> {
    const original = await this.storage.open(originalKey(fileName));
    if (!original) return false;
    const resize = sharp(SHARP_INPUT).rotate().resize({ width, withoutEnlargement: true }).webp({ quality: 78, effort: 2 });
    original.stream.on('error', (error) => resize.destroy(error));
    const data = await original.stream.pipe(resize).toBuffer();
    await this.storage.put(key, data, 'image/webp');
    return true;
  }
}
