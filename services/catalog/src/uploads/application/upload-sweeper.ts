import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { PG_POOL, ProjectionHost, SERVICE_LOGGER } from '@tiendita/service-kit';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { catalogProjection } from '../../read-model/catalog.projection';
import { OBJECT_STORAGE } from '../../shared/tokens';
import type { ObjectStorage } from '../storage/object-storage';
import { FILE_NAME_PATTERN, originalKey, VARIANT_WIDTHS, variantKey } from './uploads';

/** An image no product uses is kept this long after its upload (the product form saves in minutes). */
export const ORPHAN_GRACE_HOURS = 24;
/** First sweep after start-up, then one every hour. */
const FIRST_SWEEP_MS = 10 * 60 * 1000;
const SWEEP_EVERY_MS = 60 * 60 * 1000;
/** Files removed per sweep at most; the rest wait for the next one. */
const SWEEP_BATCH = 500;
/**
 * The upload file name a product's image path points to, in SQL: the same file may be saved as
 * /temp-uploads/products/{fileName}, /objects/{fileName} or either with ?w=…, so the sweep compares
 * file names, never whole paths.
 */
const FILE_OF_PATH = `substring(path from '(${FILE_NAME_PATTERN})')`;
/** The sweep runs only once the product views have caught up, and gives up after this long. */
const CATCH_UP_TIMEOUT_MS = 30_000;

export interface SweepResult {
  /** File names whose original and variants were removed, with their uploads row. */
  removed: string[];
  /** False when the product views did not catch up in time: nothing was removed. */
  ran: boolean;
}

/**
 * Removes uploaded images that no product uses: uploaded more than ORPHAN_GRACE_HOURS ago and in
 * no product's images (of any store) — an image removed from its product, the images of a
 * deleted product, a picture uploaded and never saved — and upload URLs never used that expired
 * that long ago. Without it DATA_DIR/uploads only ever grows.
 *
 * Products are read from the catalog's product view, so the sweep first waits for that view to
 * include every event committed so far: an image saved in a product a moment ago is never taken
 * for an orphan.
 */
@Injectable()
export class UploadSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<SweepResult> | null = null;

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    private readonly projections: ProjectionHost,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    const schedule = (ms: number) => {
      this.timer = setTimeout(() => {
        this.sweep()
          .catch((error: unknown) => this.logger.warn({ err: error }, 'limpieza de imágenes sin usar falló; se reintenta en una hora'))
          .finally(() => schedule(SWEEP_EVERY_MS));
      }, ms);
      this.timer.unref();
    };
    schedule(FIRST_SWEEP_MS);
  }

  onModuleDestroy(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** One sweep (one at a time per process); `graceHours` is for tests. */
  sweep(graceHours = ORPHAN_GRACE_HOURS): Promise<SweepResult> {
    this.running ??= this.sweepOnce(graceHours).finally(() => (this.running = null));
    return this.running;
  }

  private async sweepOnce(graceHours: number): Promise<SweepResult> {
    if (!(await this.projections.caughtUp(catalogProjection.name, CATCH_UP_TIMEOUT_MS))) return { ran: false, removed: [] };
    const candidates = await this.pool.query<{ file_name: string }>(
      `WITH used AS (SELECT DISTINCT ${FILE_OF_PATH} AS file_name FROM catalog.products p, unnest(p.images) AS path)
       SELECT u.file_name FROM catalog.uploads u
       WHERE (u.received_at IS NULL AND u.expires_at < now() - make_interval(hours => $1))
          OR (u.received_at < now() - make_interval(hours => $1)
              AND NOT EXISTS (SELECT 1 FROM used WHERE used.file_name = u.file_name))
       ORDER BY u.created_at
       LIMIT $2`,
      [graceHours, SWEEP_BATCH],
    );
    // The rows go first, and only those no product took meanwhile (checked again in the same
    // statement): from then on those files are no one's, and a file left behind by a crash here is
    // only disk, never a broken picture.
    const gone = await this.pool.query<{ file_name: string }>(
      `DELETE FROM catalog.uploads u WHERE u.file_name = ANY($1)
         AND NOT EXISTS (SELECT 1 FROM catalog.products p, unnest(p.images) AS path WHERE ${FILE_OF_PATH} = u.file_name)
       RETURNING u.file_name`,
      [candidates.rows.map((row) => row.file_name)],
    );
    const removed = gone.rows.map((row) => row.file_name);
    for (const fileName of removed) {
      await this.storage.delete(originalKey(fileName));
      for (const width of VARIANT_WIDTHS) await this.storage.delete(variantKey(fileName, width));
    }
    if (removed.length > 0) this.logger.info({ removed: removed.length }, 'imágenes sin usar eliminadas');
    return { ran: true, removed };
  }
}
