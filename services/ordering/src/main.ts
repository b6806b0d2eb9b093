import { loadConfig, startService } from '@tiendita/service-kit';
import { serviceOptions } from './app';
import { orderingConfigShape } from './config';
import { recoverLostCheckouts } from './orders/startup-recovery';

const config = loadConfig(orderingConfigShape);
void startService({
  ...serviceOptions(config),
  // Before it listens: the stock held for checkouts the previous process lost (killed between the
  // hold and the order) goes back at once rather than when the hold runs out.
  configure: async (_app, { pool, logger }) =>
    void (await recoverLostCheckouts({ databaseUrl: config.DATABASE_URL, pool, inventoryUrl: config.INVENTORY_URL, internalSecret: config.INTERNAL_SECRET, logger })),
});
