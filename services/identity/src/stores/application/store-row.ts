import type { PublicStoreView, StoreView } from '@tiendita/contracts';
import { READ_TABLES } from '../../read-model/read-models';

export interface StoreRow {
  id: string;
  owner_id: string;
  name: string;
  subdomain: string;
  business_type: string;
  description: string | null;
  phone: string | null;
  email: string | null;
  address: string | null;
  department: string | null;
  website: string | null;
  whatsapp_number: string | null;
  business_hours: string | null;
  is_active: boolean;
  allow_online_orders: boolean;
  require_customer_info: boolean;
  logo_url: string | null;
  primary_color: string;
  secondary_color: string;
  accent_color: string;
  ai_description_length: 'short' | 'normal' | 'long';
  created_at: Date;
  updated_at: Date;
}

export const STORE_COLUMNS = `id, owner_id, name, subdomain, business_type, description, phone, email, address, department, website,
  whatsapp_number, business_hours, is_active, allow_online_orders, require_customer_info, logo_url, primary_color,
  secondary_color, accent_color, ai_description_length, created_at, updated_at`;

export const STORES_TABLE = READ_TABLES.stores;

/** The owner's view of a store; product and order totals come from their services (0 until then). */
export function toStoreView(row: StoreRow, totals: { totalProducts: number; totalOrders: number }): StoreView {
  return {
    id: row.id,
    ownerId: row.owner_id,
    name: row.name,
    subdomain: row.subdomain,
    businessType: row.business_type,
    description: row.description,
    phone: row.phone,
    email: row.email,
    address: row.address,
    department: row.department,
    website: row.website,
    whatsappNumber: row.whatsapp_number,
    businessHours: row.business_hours,
    isActive: row.is_active,
    allowOnlineOrders: row.allow_online_orders,
    requireCustomerInfo: row.require_customer_info,
    logoUrl: row.logo_url,
    primaryColor: row.primary_color,
    secondaryColor: row.secondary_color,
    accentColor: row.accent_color,
    aiDescriptionLength: row.ai_description_length,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    ...totals,
  };
}

/** What a shopper may see: no owner id, no order count. */
export function toPublicStoreView(row: StoreRow, totalProducts: number): PublicStoreView {
  const { ownerId: _ownerId, totalOrders: _totalOrders, ...view } = toStoreView(row, { totalProducts, totalOrders: 0 });
  return view;
}
