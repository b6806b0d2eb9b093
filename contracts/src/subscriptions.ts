import { z } from 'zod';
import { AuthMessages } from './auth';

import { ALREADY_SUBSCRIBED, SubscriptionMessages } from './subscription-constants';

export { ALREADY_SUBSCRIBED, SubscriptionMessages };

const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/** POST /api/public/subscribe/{store}. Only the email provider works; Google and Facebook are coming soon. */
export const SubscribeRequest = z.object({
  name: z.preprocess(emptyToUndefined, z.string({ error: SubscriptionMessages.required }).trim().min(1, SubscriptionMessages.required).max(255)),
  email: z.preprocess(
    emptyToUndefined,
    z.string({ error: SubscriptionMessages.required }).trim().toLowerCase().max(255, AuthMessages.invalidEmail).pipe(z.email({ error: AuthMessages.invalidEmail })),
  ),
  phone: z.preprocess(
    (v) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v),
    z.string().trim().max(20, SubscriptionMessages.phoneMax).optional(),
  ),
  provider: z
    .preprocess(emptyToUndefined, z.enum(['email', 'google', 'facebook'], { error: SubscriptionMessages.provider }).default('email'))
    .superRefine((p, ctx) => {
      if (p === 'google') ctx.addIssue({ code: 'custom', message: SubscriptionMessages.googleSoon });
      if (p === 'facebook') ctx.addIssue({ code: 'custom', message: SubscriptionMessages.facebookSoon });
    }),
});
export type SubscribeRequest = z.infer<typeof SubscribeRequest>;
export type SubscribeInput = z.input<typeof SubscribeRequest>;

/** The same answer to every accepted subscribe call (202): it never tells whether the address was subscribed. */
export const SubscribeAnswer = z.object({ message: z.string() });
export type SubscribeAnswer = z.infer<typeof SubscribeAnswer>;

/** POST /api/public/subscription/confirm and POST /api/public/unsubscribe: the token of the mailed link. */
export const SubscriptionLinkRequest = z.object({
  token: z.string({ error: SubscriptionMessages.invalidLink }).max(200, SubscriptionMessages.invalidLink),
});
export type SubscriptionLinkRequest = z.infer<typeof SubscriptionLinkRequest>;

/** The answer of a confirmed or cancelled subscription: its Spanish message and the store's name. */
export const SubscriptionLinkAnswer = z.object({ message: z.string(), storeName: z.string().nullable() });
export type SubscriptionLinkAnswer = z.infer<typeof SubscriptionLinkAnswer>;

/** A subscription as the owner's list and the subscribe answer show it (spec 001 §3). */
export const SubscriptionView = z.object({
  id: z.string().uuid(),
  storeId: z.string().uuid(),
  name: z.string().nullable(),
  email: z.string(),
  phone: z.string().nullable(),
  provider: z.string(),
  providerId: z.string().nullable(),
  profileImage: z.string().nullable(),
  isActive: z.boolean(),
  subscribedAt: z.string(),
  unsubscribedAt: z.string().nullable(),
});
export type SubscriptionView = z.infer<typeof SubscriptionView>;

/** GET /api/subscriptions?page=&limit=: active first, newest first. */
export const SubscriptionList = z.object({
  subscriptions: z.array(SubscriptionView),
  total: z.number().int(),
  active: z.number().int(),
  totalPages: z.number().int(),
  currentPage: z.number().int(),
});
export type SubscriptionList = z.infer<typeof SubscriptionList>;

export const SubscriptionListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1).catch(1),
  limit: z.coerce.number().int().min(1).max(100).default(20).catch(20),
});

/** Header row of the subscriptions CSV (spec 000 §2: name, email, phone, provider, subscription date). */
export const SUBSCRIPTIONS_CSV_HEADER = ['Nombre', 'Email', 'Teléfono', 'Proveedor', 'Fecha de suscripción'] as const;
