import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { LOGO_PATH } from '@tiendita/contracts';
import { InternalClient, SERVICE_CONFIG } from '@tiendita/service-kit';
import type { ReportingConfig } from '../config';

/** Image types pdfkit can embed (a WebP logo is left out of the report PDF: its initials show instead). */
const EMBEDDABLE = new Set(['image/png', 'image/jpeg']);
const LARGEST_LOGO = 2 * 1024 * 1024;
const KEPT = 32;

/**
 * The store's logo for the report PDF, from catalog (the owner of uploads). Uploads never change
 * under their name, so each one read is kept (the last few). Any failure answers null: a report
 * without its logo beats no report.
 */
@Injectable()
export class ReportLogos implements OnModuleDestroy {
  private readonly catalog: InternalClient<'catalog'>;
  private readonly kept = new Map<string, Buffer | null>();

  constructor(@Inject(SERVICE_CONFIG) config: ReportingConfig) {
    this.catalog = new InternalClient({ catalog: config.CATALOG_URL }, config.INTERNAL_SECRET, { connections: 2, timeoutMs: 3_000 });
  }

  async read(logoUrl: string | null | undefined, storeId: string): Promise<Buffer | null> {
    if (!logoUrl || !LOGO_PATH.test(logoUrl)) return null;
    if (this.kept.has(logoUrl)) return this.kept.get(logoUrl)!;
    let image: Buffer | null = null;
    try {
      const res = await this.catalog.request('catalog', { method: 'GET', path: logoUrl, caller: { userId: null, storeId }, timeoutMs: 3_000 });
      const type = String(res.headers['content-type'] ?? '').split(';')[0].trim();
      if (res.statusCode === 200 && EMBEDDABLE.has(type) && Number(res.headers['content-length'] ?? 0) <= LARGEST_LOGO) image = Buffer.from(await res.body.arrayBuffer());
      else await res.body.dump();
    } catch {
      return null; // catalog unreachable: try again next time
    }
    this.kept.set(logoUrl, image);
    if (this.kept.size > KEPT) this.kept.delete(this.kept.keys().next().value!);
    return image;
  }

  async onModuleDestroy(): Promise<void> {
    await this.catalog.close();
  }
}
