import { portVariable, type ServiceConfig, urlVariable } from '@tiendita/service-kit';
import { z } from 'zod';

/** Environment of the identity service: the service-kit base variables, on port 3001 by default. */
export const identityConfigShape = {
  PORT: portVariable(3001),
  /** smtp://user:pass@host:port — without it reset mails go to DATA_DIR/mail/ and the link is logged. */
  SMTP_URL: urlVariable(['smtp:', 'smtps:']).optional(),
  MAIL_FROM: z.string().min(3).default('Tiendita <no-reply@tiendita.gt>'),
  /**
   * Public address of the site (https://…), the only base of links in e-mails (reset, unsubscribe):
   * required, never taken from a request. `npm start` sets http://localhost:<PORT> unless given.
   */
  PUBLIC_URL: urlVariable(),
  /** Subscription confirmation mails one address may receive per window, whatever the store (the rest are not sent; the answer is the same). */
  SUBSCRIPTION_MAILS_PER_RECIPIENT: z.coerce.number().int().min(1).default(3),
  SUBSCRIPTION_MAIL_WINDOW_HOURS: z.coerce.number().int().min(1).default(24),
  /** Catalog's internal check that an uploaded image is the store's own (a logo), signed with INTERNAL_SECRET. */
  CATALOG_URL: urlVariable().default('http://127.0.0.1:3002'),
  /** 1: create the demo owner and store 'demo' at start (idempotent). */
  SEED_DEMO: z.enum(['0', '1'], { error: 'debe ser 0 o 1' }).default('0'),
  /** Nice steps the argon2 threads run below the rest of identity (Linux, 0–19; 0: the same priority). */
  ARGON2_NICE: z.coerce
    .number({ error: 'debe ser un número entero de 0 a 19' })
    .int('debe ser un número entero de 0 a 19')
    .min(0, 'debe ser un número entero de 0 a 19')
    .max(19, 'debe ser un número entero de 0 a 19')
    .default(10),
};
export type IdentityConfig = ServiceConfig<typeof identityConfigShape>;
