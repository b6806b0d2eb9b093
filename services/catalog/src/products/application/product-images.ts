import { Inject, Injectable } from '@nestjs/common';
import { CatalogMessages } from '@tiendita/contracts';
import { ValidationError } from '@tiendita/eventsourcing';
import { PG_POOL } from '@tiendita/service-kit';
import type { Pool } from 'pg';
import { FILE_NAME_PATTERN } from '../../uploads/application/uploads';

/** The two stored forms of an upload's path (spec 001 §7), with the file name captured. */
const UPLOADED_PATH = new RegExp(`^/(?:objects|temp-uploads/products)/(${FILE_NAME_PATTERN})$`);

/**
 * A product's `images` may only name images this store uploaded (received, not just requested):
 * /objects/{fileName} or /temp-uploads/products/{fileName}. Any other text (an outside URL, another
 * store's upload, a path with a query) answers 400. Paths the product already holds stay accepted,
 * so an edit never fails on images saved before this rule (the demo store's pictures have no upload row).
 */
@Injectable()
export class ProductImages {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async assertOwned(storeId: string, images: readonly string[] | undefined, alreadyOnProduct: readonly string[] = []): Promise<void> {
    if (!images || images.length === 0) return;
    const kept = new Set(alreadyOnProduct);
    const toCheck = images.filter((path) => !kept.has(path));
    if (toCheck.length === 0) return;
    const fileNames = toCheck.map((path) => UPLOADED_PATH.exec(path)?.[1] ?? null);
    if (fileNames.some((name) => name === null)) throw refuse();
    const r = await this.pool.query<{ file_name: string }>({
      name: 'catalog_owned_uploads',
      text: `SELECT file_name FROM catalog.uploads WHERE store_id = $1 AND received_at IS NOT NULL AND file_name = ANY($2::text[])`,
      values: [storeId, fileNames],
    });
    const owned = new Set(r.rows.map((row) => row.file_name));
    if (!fileNames.every((name) => owned.has(name as string))) throw refuse();
  }
}

const refuse = () => new ValidationError(CatalogMessages.invalidImagePath, { fields: { images: CatalogMessages.invalidImagePath } });
