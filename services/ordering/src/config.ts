import { portVariable, type ServiceConfig, urlVariable } from '@tiendita/service-kit';
import { z } from 'zod';

/** Environment of the ordering service: the service-kit base variables, on port 3003 by default. */
export const orderingConfigShape = {
  PORT: portVariable(3003),
  /** Inventory's internal reservations (POST /internal/reservations) go here, signed. */
  INVENTORY_URL: urlVariable().default('http://127.0.0.1:3004'),
  /** Catalog serves uploaded files: the store's logo printed on PDF receipts comes from here. */
  CATALOG_URL: urlVariable().default('http://127.0.0.1:3002'),
  /** A pending order not confirmed within this many hours is cancelled by the system (fractions allowed). */
  ORDER_HOLD_HOURS: z.coerce.number().positive().default(48),
  /** How often the expiry sweep looks for pending orders past their hold. */
  ORDER_EXPIRY_SWEEP_MS: z.coerce.number().int().min(50).default(60_000),
};
export type OrderingConfig = ServiceConfig<typeof orderingConfigShape>;
