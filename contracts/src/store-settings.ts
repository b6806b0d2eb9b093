import { z } from 'zod';
import { AuthMessages, SubdomainSchema } from './auth';
import { TAX_REGIMES, type TaxRegime } from './identity-events';
import { BUSINESS_TYPE_VALUES, DEPARTMENTS } from './store-constants';
import { StoreSettingsView } from './store';
import { DEFAULT_TAX_RATE, SMALL_TAXPAYER_TAX_RATE, vatContained } from './vat';
import { ORDER_LIMIT_BOUNDS, OrderLimitMessages, phoneKey } from './order-limits';
import { OFFLINE_CARD_PAYMENT_OPTIONS, OfflineCardMessages } from './offline-card';

export * from './order-limits';

const wholeIn = (bounds: { min: number; max: number }, message: string) =>
  z.coerce.number({ error: message }).int(message).min(bounds.min, message).max(bounds.max, message);

/** Blocked phone numbers as the owner typed them → their keys (phoneKey), without repeats, in order. */
const BlockedPhones = z
  .array(z.string({ error: OrderLimitMessages.blockedPhoneInvalid('') }).max(40), { error: OrderLimitMessages.blockedPhonesTooMany })
  .max(ORDER_LIMIT_BOUNDS.blockedPhones, OrderLimitMessages.blockedPhonesTooMany)
  .transform((phones, ctx) => {
    const keys: string[] = [];
    for (const phone of phones) {
      if (phone.trim() === '') continue;
      const key = phoneKey(phone);
      if (!key) {
        ctx.addIssue({ code: 'custom', message: OrderLimitMessages.blockedPhoneInvalid(phone.trim()) });
        return z.NEVER;
      }
      if (!keys.includes(key)) keys.push(key);
    }
    return keys.sort();
  });

/** Spanish messages of the settings screen and its calls (spec 001 §5 and §8). */
export const SettingsMessages = {
  saved: 'Configuración Guardada',
  saveFailed: 'No se pudo guardar la configuración',
  nameMax: 'El nombre no puede tener más de 255 caracteres',
  phoneMax: 'El teléfono no puede tener más de 20 caracteres',
  whatsappMax: 'El número de WhatsApp no puede tener más de 20 caracteres',
  whatsappAdvice: 'Incluye el código de país 502, por ejemplo 502 1234 5678',
  emailMax: 'El email no puede tener más de 255 caracteres',
  website: 'El sitio web debe ser una dirección http:// o https://',
  color: 'El color debe tener el formato #rrggbb',
  logo: 'El logo debe ser una imagen subida a la tienda',
  textMax: (max: number) => `No puede tener más de ${max} caracteres`,
  aiLength: 'La longitud debe ser corta, normal o larga',
  taxRegime: 'Elige el régimen general (IVA 12%) o Pequeño Contribuyente (5%)',
  currency: 'La moneda de la tienda es GTQ',
  comingSoon: 'Próximamente',
  settingsExist: 'La tienda ya tiene su configuración',
  subdomainAvailable: 'Subdominio disponible',
} as const;

/** What each regime sets: the rate, and the line receipts print. */
export const TAX_REGIME_INFO: Record<TaxRegime, { taxRate: number; label: string; receiptNote: string }> = {
  general: { taxRate: DEFAULT_TAX_RATE, label: 'Régimen general (IVA 12%)', receiptNote: 'Precios incluyen IVA (12%)' },
  pequeno_contribuyente: {
    taxRate: SMALL_TAXPAYER_TAX_RATE,
    label: 'Pequeño Contribuyente (5%)',
    receiptNote: 'Pequeño Contribuyente: impuesto del 5%. No genera derecho a crédito fiscal.',
  },
};

/** The regime a stored rate stands for (0.05 is Pequeño Contribuyente, anything else general). */
export function taxRegimeOfRate(taxRate: number): TaxRegime {
  return Math.abs(taxRate - SMALL_TAXPAYER_TAX_RATE) < 1e-9 ? 'pequeno_contribuyente' : 'general';
}

/**
 * The tax row and the regime line a receipt prints for an order (amounts in quetzales). The regime
 * is read from the order's own figures: the one whose rate gives exactly the tax it was charged
 * (IVA contained in the total, rounded to the centavo). A receipt printed again after the owner
 * changed regime still says what the sale was charged; when both rates or neither give that tax
 * (a total of a few centavos), the store's current rate decides.
 */
export function receiptTax(order: { tax: number; subtotal: number }, storeTaxRate: number): { regime: TaxRegime; label: string; note: string } {
  const tax = Math.round(order.tax * 100);
  const total = tax + Math.round(order.subtotal * 100);
  const charged = TAX_REGIMES.filter((r) => vatContained(total, TAX_REGIME_INFO[r].taxRate) === tax);
  const regime = charged.length === 1 ? charged[0] : taxRegimeOfRate(storeTaxRate);
  return { regime, label: regime === 'general' ? 'IVA (12%)' : 'Impuesto (5%)', note: TAX_REGIME_INFO[regime].receiptNote };
}

/** Keeps only digits, spaces, hyphens, parentheses and plus (spec 001 §5). */
export function sanitizeWhatsapp(value: string): string {
  return value.replace(/[^0-9\s\-()+]/g, '');
}

const emptyToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);
const text = (max: number, message = SettingsMessages.textMax(max)) =>
  z.preprocess(emptyToNull, z.string().trim().max(max, message).nullable());
const color = z
  .string({ error: SettingsMessages.color })
  .regex(/^#[0-9a-fA-F]{6}$/, SettingsMessages.color)
  .transform((c) => c.toLowerCase());

/** A logo is an image uploaded through the catalog's upload flow (spec 001 §7 paths). */
export const LOGO_PATH = /^\/(?:objects|temp-uploads\/products)\/[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/;

/** PUT /api/store/{id}: any subset of the store's fields; absent fields stay as they are. */
export const UpdateStoreRequest = z
  .object({
    name: z.string({ error: AuthMessages.storeNameRequired }).trim().min(1, AuthMessages.storeNameRequired).max(255, SettingsMessages.nameMax),
    description: text(2000),
    subdomain: z.preprocess((v) => (typeof v === 'string' ? v.trim().toLowerCase() : v), SubdomainSchema),
    businessType: z.enum(BUSINESS_TYPE_VALUES, { error: AuthMessages.businessTypeRequired }),
    department: z.enum(DEPARTMENTS, { error: AuthMessages.departmentRequired }),
    address: text(500),
    phone: text(20, SettingsMessages.phoneMax),
    email: z.preprocess(
      emptyToNull,
      z.string().trim().toLowerCase().max(255, SettingsMessages.emailMax).pipe(z.email({ error: AuthMessages.invalidEmail })).nullable(),
    ),
    website: z.preprocess(
      emptyToNull,
      z
        .string()
        .trim()
        .max(255, SettingsMessages.textMax(255))
        .regex(/^https?:\/\/[^\s/$.?#].[^\s]*$/i, SettingsMessages.website)
        .nullable(),
    ),
    whatsappNumber: z.preprocess(
      (v) => (typeof v === 'string' ? emptyToNull(sanitizeWhatsapp(v).trim()) : v),
      z.string().max(20, SettingsMessages.whatsappMax).nullable(),
    ),
    businessHours: text(500),
    isActive: z.boolean(),
    allowOnlineOrders: z.boolean(),
    requireCustomerInfo: z.boolean(),
    logoUrl: z.preprocess(emptyToNull, z.string().regex(LOGO_PATH, SettingsMessages.logo).nullable()),
    primaryColor: color,
    secondaryColor: color,
    accentColor: color,
    aiDescriptionLength: z.enum(['short', 'normal', 'long'], { error: SettingsMessages.aiLength }),
  })
  .partial();
export type UpdateStoreRequest = z.infer<typeof UpdateStoreRequest>;
export type UpdateStoreInput = z.input<typeof UpdateStoreRequest>;

const comingSoon = z.boolean().refine((v) => v === false, SettingsMessages.comingSoon);

/** PUT /api/store/settings: any subset; the regime sets taxRate (a taxRate alone must be 0.12 or 0.05). */
export const UpdateStoreSettingsRequest = z
  .object({
    taxRegime: z.enum(TAX_REGIMES, { error: SettingsMessages.taxRegime }),
    taxRate: z.coerce
      .number({ error: SettingsMessages.taxRegime })
      .refine((r) => Object.values(TAX_REGIME_INFO).some((i) => Math.abs(i.taxRate - r) < 1e-9), SettingsMessages.taxRegime),
    currency: z.literal('GTQ', { error: SettingsMessages.currency }),
    printReceipts: z.boolean(),
    receiptHeader: text(500),
    receiptFooter: text(500),
    kashEnabled: comingSoon,
    zigiEnabled: comingSoon,
    orderMaxUnitsPerLine: wholeIn(ORDER_LIMIT_BOUNDS.orderMaxUnitsPerLine, OrderLimitMessages.unitsPerLineInvalid),
    orderMaxUnitsPerOrder: wholeIn(ORDER_LIMIT_BOUNDS.orderMaxUnitsPerOrder, OrderLimitMessages.unitsPerOrderInvalid),
    orderHoldHours: wholeIn(ORDER_LIMIT_BOUNDS.orderHoldHours, OrderLimitMessages.holdHoursInvalid),
    blockedPhones: BlockedPhones,
    /** Card sales while the POS is offline: refused, or taken with their payment pending (issue 28). */
    offlineCardPayments: z.enum(OFFLINE_CARD_PAYMENT_OPTIONS, { error: OfflineCardMessages.invalid }),
  })
  .partial();
export type UpdateStoreSettingsRequest = z.infer<typeof UpdateStoreSettingsRequest>;

/** POST /api/store: the store fields and the settings fields of an owner who has no settings yet. */
export const CreateStoreSettingsRequest = UpdateStoreRequest.extend(UpdateStoreSettingsRequest.shape);
export type CreateStoreSettingsRequest = z.infer<typeof CreateStoreSettingsRequest>;

/** GET /api/store/settings: the record of the spec, plus the regime and what receipts say about it. */
export const StoreSettingsDetails = StoreSettingsView.extend({
  taxRegime: z.enum(TAX_REGIMES),
  taxNote: z.string(),
  /** The limits on public orders (issue 26), ORDER_LIMITS_DEFAULTS until the owner sets them. */
  orderMaxUnitsPerLine: z.number().int(),
  orderMaxUnitsPerOrder: z.number().int(),
  orderHoldHours: z.number().int(),
  blockedPhones: z.array(z.string()),
  /** OFFLINE_CARD_PAYMENTS_DEFAULT until the owner chooses. */
  offlineCardPayments: z.enum(OFFLINE_CARD_PAYMENT_OPTIONS),
});
export type StoreSettingsDetails = z.infer<typeof StoreSettingsDetails>;

/** GET /api/store/subdomain-availability?subdomain=…: the settings form's check while typing. */
export const SubdomainAvailability = z.object({
  subdomain: z.string(),
  available: z.boolean(),
  message: z.string(),
});
export type SubdomainAvailability = z.infer<typeof SubdomainAvailability>;
