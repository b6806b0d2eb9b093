import { portVariable, type ServiceConfig } from '@tiendita/service-kit';
import { z } from 'zod';

/** Environment of the inventory service: the service-kit base variables, on port 3004 by default. */
export const inventoryConfigShape = {
  PORT: portVariable(3004),
  /** How long a reservation waits for its OrderPlaced before it is released (10 minutes). */
  RESERVATION_HOLD_MS: z.coerce.number().int().min(1000).default(10 * 60 * 1000),
  /** How often the sweeper looks for expired reservations. */
  RESERVATION_SWEEP_MS: z.coerce.number().int().min(100).default(15_000),
};
export type InventoryConfig = ServiceConfig<typeof inventoryConfigShape>;
