import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { LOGO_PATH } from '@tiendita/contracts';
import { type CallerIdentity, InternalClient, SERVICE_CONFIG, SERVICE_LOGGER } from '@tiendita/service-kit';
import type { Logger } from 'pino';
import type { OrderingConfig } from '../../config';

const MAX_LOGO_BYTES = 2 * 1024 * 1024;
const CACHE_SIZE = 64;
// PDF can embed these two; a WebP logo is left off the PDF (the print view shows it).
const PDF_IMAGE_TYPES = new Set(['image/png', 'image/jpeg']);

/**
 * The store's logo for its PDF receipts, read from catalog (which owns uploads). An uploaded file
 * never changes under its name, so a logo read once is kept (a few, newest last). Any failure
 * answers null: a receipt without its logo beats no receipt.
 */
@Injectable()
export class StoreLogos implements OnModuleDestroy {
  private readonly client: InternalClient<'catalog'>;
  private readonly cache = new Map<string, Buffer | null>();

  constructor(
    @Inject(SERVICE_CONFIG) config: OrderingConfig,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
  ) {
    this.client = new InternalClient({ catalog: config.CATALOG_URL }, config.INTERNAL_SECRET, { connections: 4, timeoutMs: 3_000 });
  }

  async forReceipt(caller: CallerIdentity, logoUrl: string | null | undefined): Promise<Buffer | null> {
    if (!logoUrl || !LOGO_PATH.test(logoUrl)) return null;
    if (this.cache.has(logoUrl)) return this.cache.get(logoUrl)!;
    let logo: Buffer | null = null;
    try {
      const res = await this.client.request('catalog', { method: 'GET', path: logoUrl, caller, timeoutMs: 3_000 });
      const type = String(res.headers['content-type'] ?? '').split(';')[0].trim();
      const size = Number(res.headers['content-length'] ?? 0);
      if (res.statusCode !== 200) {
        await res.body.dump();
        return null;
      }
      if (PDF_IMAGE_TYPES.has(type) && size <= MAX_LOGO_BYTES) logo = Buffer.from(await res.body.arrayBuffer());
      else await res.body.dump();
    } catch (err) {
      this.logger.warn({ err, logoUrl }, 'No se pudo leer el logo de la tienda para el recibo');
      return null;
    }
    this.cache.set(logoUrl, logo);
    if (this.cache.size > CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
    return logo;
  }

  async onModuleDestroy(): Promise<void> {
    await this.client.close();
  }
}
