import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { SettingsMessages } from '@tiendita/contracts';
import { ValidationError } from '@tiendita/eventsourcing';
import { InternalClient, SERVICE_CONFIG } from '@tiendita/service-kit';
import { z } from 'zod';
import type { IdentityConfig } from '../../config';

const OwnedAnswer = z.object({ owned: z.boolean() });

/**
 * Identity → catalog: uploads live in catalog, so whether an image is the store's own is catalog's
 * rule (the one product images follow); identity asks it before a store takes an image as its logo.
 */
@Injectable()
export class CatalogUploadsClient implements OnModuleDestroy {
  private readonly client: InternalClient<'catalog'>;

  constructor(@Inject(SERVICE_CONFIG) config: IdentityConfig) {
    this.client = new InternalClient({ catalog: config.CATALOG_URL }, config.INTERNAL_SECRET, { connections: 4 });
  }

  /** 400 with the logo's message unless the store uploaded the image (catalog down: 503). */
  async assertLogoOwned(owner: { userId: string; storeId: string }, logoUrl: string): Promise<void> {
    const { owned } = await this.client.json('catalog', 'POST', '/internal/uploads/owned', { paths: [logoUrl] }, owner, { idempotent: true, schema: OwnedAnswer, timeoutMs: 5000 });
    if (!owned) throw new ValidationError(SettingsMessages.logo, { fields: { logoUrl: SettingsMessages.logo } });
  }

  async onModuleDestroy(): Promise<void> {
    await this.client.close();
  }
}
