import { portVariable, type ServiceConfig } from '@tiendita/service-kit';

/** Environment of the identity service: the service-kit base variables, on port 3001 by default. */
export const identityConfigShape = {
  PORT: portVariable(3001),
};
export type IdentityConfig = ServiceConfig<typeof identityConfigShape>;
