import type { OfflineCardPayments, StoreSettingsDetails, StoreView, TaxRegime, UpdateStoreInput, UpdateStoreSettingsRequest } from '@tiendita/contracts';

/** Every field of the settings form: the store's and its settings record's. */
export interface SettingsFormValues {
  name: string;
  description: string;
  businessType: string;
  department: string;
  isActive: boolean;
  phone: string;
  email: string;
  website: string;
  address: string;
  businessHours: string;
  whatsappNumber: string;
  allowOnlineOrders: boolean;
  requireCustomerInfo: boolean;
  aiDescriptionLength: 'short' | 'normal' | 'long';
  logoUrl: string | null;
  primaryColor: string;
  secondaryColor: string;
  accentColor: string;
  subdomain: string;
  taxRegime: TaxRegime;
  receiptHeader: string;
  receiptFooter: string;
  printReceipts: boolean;
  kashEnabled: boolean;
  zigiEnabled: boolean;
  /** Limits on online orders (issue 26). */
  orderHoldHours: number;
  orderMaxUnitsPerLine: number;
  orderMaxUnitsPerOrder: number;
  /** Blocked phone numbers, one per line. */
  blockedPhones: string;
  /** Card sales while the POS is offline (issue 28). */
  offlineCardPayments: OfflineCardPayments;
}

export const SETTINGS_TABS = ['general', 'contact', 'whatsapp', 'ai', 'customization', 'advanced', 'fel'] as const;
export type SettingsTab = (typeof SETTINGS_TABS)[number];

/** The tab each field lives on, to open the one holding a server error. */
export const TAB_OF_FIELD: Record<keyof SettingsFormValues, SettingsTab> = {
  name: 'general', description: 'general', businessType: 'general', department: 'general', isActive: 'general',
  phone: 'contact', email: 'contact', website: 'contact', address: 'contact', businessHours: 'contact',
  whatsappNumber: 'whatsapp', allowOnlineOrders: 'whatsapp', requireCustomerInfo: 'whatsapp',
  aiDescriptionLength: 'ai',
  logoUrl: 'customization', primaryColor: 'customization', secondaryColor: 'customization', accentColor: 'customization',
  subdomain: 'advanced', taxRegime: 'advanced', receiptHeader: 'advanced', receiptFooter: 'advanced', printReceipts: 'advanced',
  kashEnabled: 'advanced', zigiEnabled: 'advanced',
  orderHoldHours: 'whatsapp', orderMaxUnitsPerLine: 'whatsapp', orderMaxUnitsPerOrder: 'whatsapp', blockedPhones: 'whatsapp',
  offlineCardPayments: 'advanced',
};

export function tabOfHash(hash: string): SettingsTab {
  const tab = hash.replace(/^#/, '');
  return (SETTINGS_TABS as readonly string[]).includes(tab) ? (tab as SettingsTab) : 'general';
}

export function formValuesOf(store: StoreView, settings: StoreSettingsDetails): SettingsFormValues {
  return {
    name: store.name,
    description: store.description ?? '',
    businessType: store.businessType,
    department: store.department ?? '',
    isActive: store.isActive,
    phone: store.phone ?? '',
    email: store.email ?? '',
    website: store.website ?? '',
    address: store.address ?? '',
    businessHours: store.businessHours ?? '',
    whatsappNumber: store.whatsappNumber ?? '',
    allowOnlineOrders: store.allowOnlineOrders,
    requireCustomerInfo: store.requireCustomerInfo,
    aiDescriptionLength: store.aiDescriptionLength,
    logoUrl: store.logoUrl,
    primaryColor: store.primaryColor,
    secondaryColor: store.secondaryColor,
    accentColor: store.accentColor,
    subdomain: store.subdomain,
    taxRegime: settings.taxRegime,
    receiptHeader: settings.receiptHeader ?? '',
    receiptFooter: settings.receiptFooter ?? '',
    printReceipts: settings.printReceipts,
    kashEnabled: settings.kashEnabled,
    zigiEnabled: settings.zigiEnabled,
    orderHoldHours: settings.orderHoldHours,
    orderMaxUnitsPerLine: settings.orderMaxUnitsPerLine,
    orderMaxUnitsPerOrder: settings.orderMaxUnitsPerOrder,
    blockedPhones: settings.blockedPhones.join('\n'),
    offlineCardPayments: settings.offlineCardPayments,
  };
}

/** The two bodies of one save: the store's fields and the settings record's. */
export function bodiesOf(v: SettingsFormValues): { store: UpdateStoreInput; settings: UpdateStoreSettingsRequest } {
  return {
    store: {
      name: v.name,
      description: v.description,
      businessType: v.businessType as UpdateStoreInput['businessType'],
      department: v.department as UpdateStoreInput['department'],
      isActive: v.isActive,
      phone: v.phone,
      email: v.email,
      website: v.website,
      address: v.address,
      businessHours: v.businessHours,
      whatsappNumber: v.whatsappNumber,
      // Online orders need a number to send them to.
      allowOnlineOrders: v.whatsappNumber.trim() ? v.allowOnlineOrders : false,
      requireCustomerInfo: v.requireCustomerInfo,
      aiDescriptionLength: v.aiDescriptionLength,
      logoUrl: v.logoUrl ?? '',
      primaryColor: v.primaryColor,
      secondaryColor: v.secondaryColor,
      accentColor: v.accentColor,
      subdomain: v.subdomain,
    },
    settings: {
      taxRegime: v.taxRegime,
      receiptHeader: v.receiptHeader,
      receiptFooter: v.receiptFooter,
      printReceipts: v.printReceipts,
      orderHoldHours: v.orderHoldHours,
      orderMaxUnitsPerLine: v.orderMaxUnitsPerLine,
      orderMaxUnitsPerOrder: v.orderMaxUnitsPerOrder,
      blockedPhones: v.blockedPhones.split(/[\n,;]+/).map((p) => p.trim()).filter(Boolean),
      offlineCardPayments: v.offlineCardPayments,
    },
  };
}
