import { portVariable, type ServiceConfig, urlVariable } from '@tiendita/service-kit';
import { z } from 'zod';

/** Environment of the catalog service: the service-kit base variables, on port 3002 by default. */
export const catalogConfigShape = {
  PORT: portVariable(3002),
  /** Inventory's internal command (the product form's stock edit) goes here, signed. */
  INVENTORY_URL: urlVariable().default('http://127.0.0.1:3004'),
  /** '1' seeds the demo store (subdomain 'demo') with categories, products and images. */
  SEED_DEMO: z.enum(['0', '1']).default('0'),
  /** Ratings plus comments one IP may submit per window (public write calls). */
  REVIEW_RATE_LIMIT: z.coerce.number().int().min(1).default(10),
  REVIEW_RATE_WINDOW_SECONDS: z.coerce.number().int().min(1).default(600),
};
export type CatalogConfig = ServiceConfig<typeof catalogConfigShape>;
