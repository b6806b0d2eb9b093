import { portVariable, type ServiceConfig } from '@tiendita/service-kit';

/** Environment of the ordering service: the service-kit base variables, on port 3003 by default. */
export const orderingConfigShape = {
  PORT: portVariable(3003),
};
export type OrderingConfig = ServiceConfig<typeof orderingConfigShape>;
