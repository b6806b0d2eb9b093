import { portVariable, type ServiceConfig, urlVariable } from '@tiendita/service-kit';
import { z } from 'zod';
import { join } from 'node:path';

/** Environment of the gateway: the base variables, the services' URLs and where the web build is. */
export const gatewayConfigShape = {
  PORT: portVariable(3000),
  IDENTITY_URL: urlVariable().default('http://127.0.0.1:3001'),
  CATALOG_URL: urlVariable().default('http://127.0.0.1:3002'),
  ORDERING_URL: urlVariable().default('http://127.0.0.1:3003'),
  INVENTORY_URL: urlVariable().default('http://127.0.0.1:3004'),
  REPORTING_URL: urlVariable().default('http://127.0.0.1:3005'),
  // gateway/src or gateway/dist → web/dist
  WEB_DIST_DIR: z.string().min(1).default(join(__dirname, '..', '..', 'web', 'dist')),
};
export type GatewayConfig = ServiceConfig<typeof gatewayConfigShape>;
