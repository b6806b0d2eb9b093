import { portVariable, type ServiceConfig } from '@tiendita/service-kit';
import { z } from 'zod';

/** Environment of the FEL service: the service-kit base variables, on port 3006 by default. */
export const felConfigShape = {
  PORT: portVariable(3006),
  /**
   * Base URL of the sandbox certifier ('pruebas'). Unset: the service runs one itself on
   * 127.0.0.1 (FEL_SANDBOX_PORT, 0 = any free port), as `npm start` does.
   */
  FEL_SANDBOX_URL: z.string().url().optional(),
  FEL_SANDBOX_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  /** The sandbox this process runs answers each request after this long (0: at once); the browser journeys watch a document pending with it. */
  FEL_SANDBOX_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(0),
  /** Base URL of INFILE's certifier. */
  FEL_INFILE_URL: z.string().url().default('https://certificador.feel.com.gt'),
  /** How long one call to the certifier may take before it counts as down. */
  FEL_CERTIFIER_TIMEOUT_MS: z.coerce.number().int().min(50).default(10_000),
  /** How often the outbox looks for documents due (it is also woken when one is queued). */
  FEL_POLL_MS: z.coerce.number().int().min(20).default(500),
  /** First retry after this, doubling on each failure up to FEL_RETRY_MAX_MS. */
  FEL_RETRY_BASE_MS: z.coerce.number().int().min(10).default(1000),
  FEL_RETRY_MAX_MS: z.coerce.number().int().min(10).default(60_000),
  /**
   * Nice steps (0-19, Linux) the FEL service runs below the others: its work (certifying after the
   * sale) can wait a few milliseconds, the sales it follows cannot. 0 keeps the same priority.
   */
  FEL_NICE: z.coerce.number().int().min(0).max(19).default(10),
};
export type FelConfig = ServiceConfig<typeof felConfigShape>;
