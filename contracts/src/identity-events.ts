import { z } from 'zod';
import { BUSINESS_TYPE_VALUES } from './store-constants';
import { OFFLINE_CARD_PAYMENT_OPTIONS } from './offline-card';

/**
 * Identity events. Stream ids: `user-<userId>` (the User aggregate), `store-<storeId>` (the Store
 * aggregate with its settings record) and `user-logins-<userId>` (an append-only log of sign-ins,
 * kept apart so the User stream stays short however often its owner signs in).
 *
 * Credentials appear only as hashes: an argon2id PHC string for passwords, a sha256 hex digest for
 * reset tokens. Consumers in other services have no use for them and must not copy them.
 */
export const IdentityStreams = {
  user: (userId: string) => `user-${userId}`,
  store: (storeId: string) => `store-${storeId}`,
  userLogins: (userId: string) => `user-logins-${userId}`,
  subscription: (subscriptionId: string) => `subscription-${subscriptionId}`,
} as const;

const nullableText = z.string().nullable();

/** Fields of identity events that never leave the identity service: credential hashes. */
export const IDENTITY_SECRET_FIELDS = ['passwordHash', 'tokenHash'] as const;

/**
 * An identity event's data as it may be published to other services (the Kafka relay): without
 * the argon2id hash of a password or the sha256 of a reset token. Other data is left as it is.
 */
export function redactIdentityEventData(_type: string, data: unknown): unknown {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return data;
  if (!IDENTITY_SECRET_FIELDS.some((field) => field in data)) return data;
  const copy: Record<string, unknown> = { ...(data as Record<string, unknown>) };
  for (const field of IDENTITY_SECRET_FIELDS) delete copy[field];
  return copy;
}

/** A new owner account; its store is created in the same transaction (StoreCreated). */
export const UserRegistered = z.object({
  userId: z.string().uuid(),
  email: z.string(),
  passwordHash: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  storeId: z.string().uuid(),
  registeredAt: z.string(),
});
export type UserRegistered = z.infer<typeof UserRegistered>;

/** A successful sign-in (stream `user-logins-<userId>`); it sets users.lastLoginAt. */
export const UserLoggedIn = z.object({
  userId: z.string().uuid(),
  loggedInAt: z.string(),
});
export type UserLoggedIn = z.infer<typeof UserLoggedIn>;

/** A reset link was sent. Only the sha256 of the token is kept; it is valid until expiresAt, once. */
export const PasswordResetRequested = z.object({
  userId: z.string().uuid(),
  tokenHash: z.string().regex(/^[0-9a-f]{64}$/),
  requestedAt: z.string(),
  expiresAt: z.string(),
});
export type PasswordResetRequested = z.infer<typeof PasswordResetRequested>;

/** The password was replaced (through a reset link, or by its owner with the current one); every pending reset token dies with it. */
export const PasswordChanged = z.object({
  userId: z.string().uuid(),
  passwordHash: z.string(),
  changedAt: z.string(),
  reason: z.enum(['reset', 'change']),
});
export type PasswordChanged = z.infer<typeof PasswordChanged>;

/** The owner changed their own name on the profile page. */
export const UserNameChanged = z.object({
  userId: z.string().uuid(),
  firstName: z.string(),
  lastName: z.string(),
  changedAt: z.string(),
});
export type UserNameChanged = z.infer<typeof UserNameChanged>;

/**
 * How an owner is named wherever another service shows who did something (order history,
 * payments, price history, the kardex): first and last name, or the e-mail when both are empty.
 */
export function userDisplayName(firstName: string, lastName: string, email = ''): string {
  return `${firstName} ${lastName}`.trim() || email;
}

/** A store with every column of the spec's `stores` entity, defaults already applied. */
export const StoreCreated = z.object({
  storeId: z.string().uuid(),
  ownerId: z.string().uuid(),
  name: z.string(),
  subdomain: z.string(),
  businessType: z.enum(BUSINESS_TYPE_VALUES),
  description: nullableText,
  phone: nullableText,
  email: nullableText,
  address: nullableText,
  department: nullableText,
  website: nullableText,
  whatsappNumber: nullableText,
  businessHours: nullableText,
  isActive: z.boolean(),
  allowOnlineOrders: z.boolean(),
  requireCustomerInfo: z.boolean(),
  logoUrl: nullableText,
  primaryColor: z.string(),
  secondaryColor: z.string(),
  accentColor: z.string(),
  aiDescriptionLength: z.enum(['short', 'normal', 'long']),
  createdAt: z.string(),
});
export type StoreCreated = z.infer<typeof StoreCreated>;

/** The store's settings record (spec `store_settings`), created with the store. */
export const StoreSettingsCreated = z.object({
  settingsId: z.string().uuid(),
  storeId: z.string().uuid(),
  /** Decimal rate, e.g. 0.12 for 12 %. */
  taxRate: z.number().min(0).max(1),
  currency: z.string().length(3),
  kashEnabled: z.boolean(),
  zigiEnabled: z.boolean(),
  printReceipts: z.boolean(),
  receiptHeader: nullableText,
  receiptFooter: nullableText,
  createdAt: z.string(),
});
export type StoreSettingsCreated = z.infer<typeof StoreSettingsCreated>;

/** The tax regimes an owner may pick: general (IVA 12 %) or Pequeño Contribuyente (5 %). */
export const TAX_REGIMES = ['general', 'pequeno_contribuyente'] as const;
export type TaxRegime = (typeof TAX_REGIMES)[number];

/**
 * Store fields an owner changed (PUT /api/store/{id}), by their StoreView names; only the changed
 * ones are present. Consumers apply each present field and ignore the rest.
 */
export const StoreChanges = z
  .object({
    name: z.string(),
    description: nullableText,
    subdomain: z.string(),
    businessType: z.enum(BUSINESS_TYPE_VALUES),
    department: nullableText,
    address: nullableText,
    phone: nullableText,
    email: nullableText,
    website: nullableText,
    whatsappNumber: nullableText,
    businessHours: nullableText,
    isActive: z.boolean(),
    allowOnlineOrders: z.boolean(),
    requireCustomerInfo: z.boolean(),
    logoUrl: nullableText,
    primaryColor: z.string(),
    secondaryColor: z.string(),
    accentColor: z.string(),
    aiDescriptionLength: z.enum(['short', 'normal', 'long']),
  })
  .partial();
export type StoreChanges = z.infer<typeof StoreChanges>;

/** The owner changed store fields (stream `store-<storeId>`); `changes` holds only what changed. */
export const StoreUpdated = z.object({
  storeId: z.string().uuid(),
  changes: StoreChanges,
  updatedAt: z.string(),
});
export type StoreUpdated = z.infer<typeof StoreUpdated>;

/** Settings fields an owner changed (PUT /api/store/settings); only the changed ones are present. */
export const StoreSettingsChanges = z
  .object({
    /** Decimal rate, e.g. 0.05; follows taxRegime. */
    taxRate: z.number().min(0).max(1),
    currency: z.string().length(3),
    printReceipts: z.boolean(),
    receiptHeader: nullableText,
    receiptFooter: nullableText,
    kashEnabled: z.boolean(),
    zigiEnabled: z.boolean(),
    taxRegime: z.enum(TAX_REGIMES),
    /** Limits on public orders (issue 26); absent until the owner sets them (ORDER_LIMITS_DEFAULTS apply). */
    orderMaxUnitsPerLine: z.number().int(),
    orderMaxUnitsPerOrder: z.number().int(),
    orderHoldHours: z.number().int(),
    /** Phone keys (phoneKey) the store takes no public orders from: the whole list. */
    blockedPhones: z.array(z.string()),
    /** Card sales while the POS is offline (issue 28); absent until the owner chooses ('refuse'). */
    offlineCardPayments: z.enum(OFFLINE_CARD_PAYMENT_OPTIONS),
  })
  .partial();
export type StoreSettingsChanges = z.infer<typeof StoreSettingsChanges>;

/** The owner changed the store's settings record (stream `store-<storeId>`). */
export const StoreSettingsUpdated = z.object({
  storeId: z.string().uuid(),
  changes: StoreSettingsChanges,
  updatedAt: z.string(),
});
export type StoreSettingsUpdated = z.infer<typeof StoreSettingsUpdated>;

/**
 * A shopper asked to subscribe to a store's offers (stream `subscription-<subscriptionId>`): nothing
 * is sent to them but a confirmation mail with a fixed text; the subscription starts when they
 * confirm with its link (double opt-in). A newer request replaces the name and phone of an older one.
 */
export const SubscriptionRequested = z.object({
  subscriptionId: z.string().uuid(),
  storeId: z.string().uuid(),
  email: z.string(),
  name: z.string(),
  phone: nullableText,
  requestedAt: z.string(),
});
export type SubscriptionRequested = z.infer<typeof SubscriptionRequested>;

/**
 * A shopper confirmed a subscription to a store's offers (double opt-in), or confirmed again after leaving (stream
 * `subscription-<subscriptionId>`, one per store and e-mail).
 */
export const CustomerSubscribed = z.object({
  subscriptionId: z.string().uuid(),
  storeId: z.string().uuid(),
  email: z.string(),
  name: z.string(),
  phone: nullableText,
  provider: z.enum(['email', 'google', 'facebook']),
  subscribedAt: z.string(),
});
export type CustomerSubscribed = z.infer<typeof CustomerSubscribed>;

/** The subscriber left through the signed link of a confirmation mail. */
export const CustomerUnsubscribed = z.object({
  subscriptionId: z.string().uuid(),
  storeId: z.string().uuid(),
  unsubscribedAt: z.string(),
});
export type CustomerUnsubscribed = z.infer<typeof CustomerUnsubscribed>;

/** Every identity event, by type name, to parse an envelope's data. */
export const IdentityEventSchemas = {
  UserRegistered,
  UserLoggedIn,
  PasswordResetRequested,
  PasswordChanged,
  UserNameChanged,
  StoreCreated,
  StoreSettingsCreated,
  StoreUpdated,
  StoreSettingsUpdated,
  SubscriptionRequested,
  CustomerSubscribed,
  CustomerUnsubscribed,
} as const;
export type IdentityEventType = keyof typeof IdentityEventSchemas;

/** An identity event as deciders produce it and consumers read it: `{ type, data }`. */
export type IdentityEvent = { [K in IdentityEventType]: { type: K; data: z.infer<(typeof IdentityEventSchemas)[K]> } }[IdentityEventType];
export type UserEvent = Extract<IdentityEvent, { type: 'UserRegistered' | 'PasswordResetRequested' | 'PasswordChanged' | 'UserNameChanged' }>;
export type StoreEvent = Extract<IdentityEvent, { type: 'StoreCreated' | 'StoreSettingsCreated' | 'StoreUpdated' | 'StoreSettingsUpdated' }>;
export type SubscriptionEvent = Extract<IdentityEvent, { type: 'SubscriptionRequested' | 'CustomerSubscribed' | 'CustomerUnsubscribed' }>;
