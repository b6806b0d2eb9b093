import { portVariable, type ServiceConfig } from '@tiendita/service-kit';

/** Environment of the reporting service: the service-kit base variables, on port 3005 by default. */
export const reportingConfigShape = {
  PORT: portVariable(3005),
};
export type ReportingConfig = ServiceConfig<typeof reportingConfigShape>;
