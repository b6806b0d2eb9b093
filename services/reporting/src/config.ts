import { portVariable, type ServiceConfig, urlVariable } from '@tiendita/service-kit';

/** Environment of the reporting service: the service-kit base variables, on port 3005 by default; catalog for the store's logo in the report PDF. */
export const reportingConfigShape = {
  PORT: portVariable(3005),
  CATALOG_URL: urlVariable().default('http://127.0.0.1:3002'),
};
export type ReportingConfig = ServiceConfig<typeof reportingConfigShape>;
