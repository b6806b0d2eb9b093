import { portVariable, type ServiceConfig } from '@tiendita/service-kit';

/** Environment of the inventory service: the service-kit base variables, on port 3004 by default. */
export const inventoryConfigShape = {
  PORT: portVariable(3004),
};
export type InventoryConfig = ServiceConfig<typeof inventoryConfigShape>;
