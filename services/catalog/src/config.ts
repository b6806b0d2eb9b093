import { portVariable, type ServiceConfig } from '@tiendita/service-kit';

/** Environment of the catalog service: the service-kit base variables, on port 3002 by default. */
export const catalogConfigShape = {
  PORT: portVariable(3002),
};
export type CatalogConfig = ServiceConfig<typeof catalogConfigShape>;
