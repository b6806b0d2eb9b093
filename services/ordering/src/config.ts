import { portVariable, type ServiceConfig, urlVariable } from '@tiendita/service-kit';
import { ORDER_LIMITS_DEFAULTS } from '@tiendita/contracts';
import { z } from 'zod';

/** Environment of the ordering service: the service-kit base variables, on port 3003 by default. */
export const orderingConfigShape = {
  PORT: portVariable(3003),
  /** Inventory's internal reservations (POST /internal/reservations) go here, signed. */
  INVENTORY_URL: urlVariable().default('http://127.0.0.1:3004'),
  /** Catalog serves uploaded files: the store's logo printed on PDF receipts comes from here. */
  CATALOG_URL: urlVariable().default('http://127.0.0.1:3002'),
  /** The FEL service: a PDF receipt prints the order's electronic invoice (issue 25). */
  FEL_URL: urlVariable().default('http://127.0.0.1:3006'),
  /** A pending order not confirmed within this many hours is cancelled by the system (fractions allowed). */
  ORDER_HOLD_HOURS: z.coerce.number().positive().default(48),
  /**
   * Public orders one phone may place in one store per ORDER_RATE_PHONE_WINDOW_MIN, and its orders
   * that may wait unconfirmed there at once (issue 26; the per-address limit is the gateway's
   * RATE_ORDER_PER_IP). The ordering bench raises both: it orders with one phone many times.
   */
  ORDER_RATE_PER_PHONE: z.coerce.number().int().min(1).default(5),
  ORDER_RATE_PHONE_WINDOW_MIN: z.coerce.number().int().min(1).default(10),
  ORDER_MAX_PENDING_PER_PHONE: z.coerce.number().int().min(1).default(3),
  /** Units caps of a store whose owner never set them (Configuración shows ORDER_LIMITS_DEFAULTS; tests raise these). */
  ORDER_DEFAULT_MAX_UNITS_PER_LINE: z.coerce.number().int().min(1).default(ORDER_LIMITS_DEFAULTS.orderMaxUnitsPerLine),
  ORDER_DEFAULT_MAX_UNITS_PER_ORDER: z.coerce.number().int().min(1).default(ORDER_LIMITS_DEFAULTS.orderMaxUnitsPerOrder),
  /** How often the expiry sweep looks for pending orders past their hold. */
  ORDER_EXPIRY_SWEEP_MS: z.coerce.number().int().min(50).default(60_000),
};
export type OrderingConfig = ServiceConfig<typeof orderingConfigShape>;
