import { Injectable } from '@nestjs/common';
import { StoreSettingsCreated, StoreSettingsUpdated, taxRegimeOfRate } from '@tiendita/contracts';
import { reaction } from '@tiendita/eventsourcing';
import { ProjectionHost } from '@tiendita/service-kit';

/** The reaction (consumer group `fel.stores`) to identity's events: each store's tax regime (GEN or PEQ). */
export const STORES_REACTION = 'stores';

/** Keeps each store's tax regime, which decides FACT or FPEQ and the IVA affiliation of its documents. */
@Injectable()
export class IdentityStoresReaction {
  constructor(host: ProjectionHost) {
    host.addReaction(
      reaction({
        name: STORES_REACTION,
        sources: ['identity'],
        apply: async (tx, events) => {
          for (const event of events) {
            let storeId: string;
            let regime: string | undefined;
            if (event.type === 'StoreSettingsCreated') {
              const e = StoreSettingsCreated.parse(event.data);
              storeId = e.storeId;
              regime = taxRegimeOfRate(e.taxRate);
            } else if (event.type === 'StoreSettingsUpdated') {
              const e = StoreSettingsUpdated.parse(event.data);
              storeId = e.storeId;
              regime = e.changes.taxRegime ?? (e.changes.taxRate !== undefined ? taxRegimeOfRate(e.changes.taxRate) : undefined);
            } else continue;
            if (!regime) continue;
            await tx.query('INSERT INTO fel.store_regimes (store_id, regime) VALUES ($1, $2) ON CONFLICT (store_id) DO UPDATE SET regime = EXCLUDED.regime', [storeId, regime]);
          }
        },
      }),
    );
  }
}
