import { z } from 'zod';

/** The store as GET /api/store and the settings screen read it. */
export const StoreView = z.object({
  id: z.string().uuid(),
  ownerId: z.string().uuid(),
  name: z.string(),
  subdomain: z.string(),
  businessType: z.string(),
  description: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  address: z.string().nullable(),
  department: z.string().nullable(),
  website: z.string().nullable(),
  whatsappNumber: z.string().nullable(),
  businessHours: z.string().nullable(),
  isActive: z.boolean(),
  allowOnlineOrders: z.boolean(),
  requireCustomerInfo: z.boolean(),
  logoUrl: z.string().nullable(),
  primaryColor: z.string(),
  secondaryColor: z.string(),
  accentColor: z.string(),
  aiDescriptionLength: z.enum(['short', 'normal', 'long']),
  createdAt: z.string(),
  updatedAt: z.string(),
  totalProducts: z.number().int(),
  totalOrders: z.number().int(),
});
export type StoreView = z.infer<typeof StoreView>;

export const StoreSettingsView = z.object({
  id: z.string().uuid(),
  storeId: z.string().uuid(),
  taxRate: z.number(),
  currency: z.string().length(3),
  kashEnabled: z.boolean(),
  zigiEnabled: z.boolean(),
  printReceipts: z.boolean(),
  receiptHeader: z.string().nullable(),
  receiptFooter: z.string().nullable(),
});
export type StoreSettingsView = z.infer<typeof StoreSettingsView>;

/** The public view of a store: no owner id, no settings. */
export const PublicStoreView = StoreView.omit({ ownerId: true, totalOrders: true });
export type PublicStoreView = z.infer<typeof PublicStoreView>;
