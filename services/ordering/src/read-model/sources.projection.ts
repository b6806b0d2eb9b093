import { DEFAULT_TAX_RATE, ProductCreated, ProductPriceChanged, ProductUpdated, StoreCreated, StoreSettingsCreated } from '@tiendita/contracts';
import { physicalName, type Projection, type RecordedEventWithTx } from '@tiendita/eventsourcing';
import type { PoolClient } from 'pg';

export type SourcesTable = 'products' | 'stores';

/** Store fields ordering copies from identity's events (top level or under `changes`), by event field name. */
const STORE_FIELDS = {
  name: 'name',
  subdomain: 'subdomain',
  address: 'address',
  phone: 'phone',
  whatsappNumber: 'whatsapp_number',
  isActive: 'is_active',
  allowOnlineOrders: 'allow_online_orders',
  requireCustomerInfo: 'require_customer_info',
  logoUrl: 'logo_url',
  taxRate: 'tax_rate',
  receiptHeader: 'receipt_header',
  receiptFooter: 'receipt_footer',
} as const;
const BOOLEAN_FIELDS = new Set(['isActive', 'allowOnlineOrders', 'requireCustomerInfo']);
const REQUIRED_FIELDS = new Set(['name', 'subdomain']);

/**
 * Ordering's copy of what it prices and checks orders against: catalog's products (name, SKU,
 * price, discount, active, store) and identity's stores (active, WhatsApp number, tax rate,
 * online orders allowed, address required at checkout, and what receipts print: name, address,
 * phone, logo, header and footer). Prices come from here, never from the browser.
 */
export const sourcesProjection: Projection<SourcesTable> = {
  name: 'ordering_sources',
  // 2: require_customer_info, logo_url, receipt_header and receipt_footer on stores.
  version: 2,
  sources: ['catalog', 'identity'],
  tables: ['products', 'stores'],

  async setup(tx, t) {
    const s = physicalName(t.stores);
    await tx.query(`
      CREATE TABLE IF NOT EXISTS ${t.products} (
        id uuid PRIMARY KEY,
        store_id uuid NOT NULL,
        name varchar(255) NOT NULL,
        sku varchar(100),
        price_centavos bigint NOT NULL,
        discount_percentage numeric(5,2) NOT NULL DEFAULT 0,
        is_active boolean NOT NULL DEFAULT true,
        deleted boolean NOT NULL DEFAULT false
      );
      CREATE TABLE IF NOT EXISTS ${t.stores} (
        id uuid PRIMARY KEY,
        subdomain varchar(100) NOT NULL,
        name varchar(255) NOT NULL,
        address text,
        phone varchar(20),
        whatsapp_number varchar(20),
        is_active boolean NOT NULL DEFAULT true,
        allow_online_orders boolean NOT NULL DEFAULT true,
        require_customer_info boolean NOT NULL DEFAULT false,
        logo_url text,
        tax_rate numeric(5,4) NOT NULL DEFAULT ${DEFAULT_TAX_RATE},
        receipt_header text,
        receipt_footer text
      );
      CREATE INDEX IF NOT EXISTS ${s}_subdomain ON ${t.stores} (subdomain);
    `);
  },

  async apply(tx, events, t) {
    for (const event of events) {
      if (event.streamId.startsWith('store-')) await applyStore(tx, event, t);
      else if (event.streamId.startsWith('product-')) await applyProduct(tx, event, t);
    }
  },
};

async function applyProduct(tx: PoolClient, event: RecordedEventWithTx, t: Record<SourcesTable, string>): Promise<void> {
  switch (event.type) {
    case 'ProductCreated': {
      const d = ProductCreated.parse(event.data);
      await tx.query(
        `INSERT INTO ${t.products} (id, store_id, name, sku, price_centavos, discount_percentage, is_active) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (id) DO NOTHING`,
        [d.productId, d.storeId, d.name, d.sku, d.priceCentavos, d.discountPercentage, d.isActive],
      );
      return;
    }
    case 'ProductUpdated': {
      const d = ProductUpdated.parse(event.data);
      const sets: string[] = [];
      const values: unknown[] = [d.productId];
      if (d.changes.name !== undefined) {
        values.push(d.changes.name);
        sets.push(`name = $${values.length}`);
      }
      if (d.changes.sku !== undefined) {
        values.push(d.changes.sku);
        sets.push(`sku = $${values.length}`);
      }
      if (sets.length) await tx.query(`UPDATE ${t.products} SET ${sets.join(', ')} WHERE id = $1`, values);
      return;
    }
    case 'ProductPriceChanged': {
      const d = ProductPriceChanged.parse(event.data);
      await tx.query(`UPDATE ${t.products} SET price_centavos = $2, discount_percentage = $3 WHERE id = $1`, [d.productId, d.newPriceCentavos, d.newDiscountPercentage]);
      return;
    }
    case 'ProductActivated':
    case 'ProductDeactivated':
      await tx.query(`UPDATE ${t.products} SET is_active = $2 WHERE id = $1`, [(event.data as { productId: string }).productId, event.type === 'ProductActivated']);
      return;
    case 'ProductDeleted':
      await tx.query(`UPDATE ${t.products} SET deleted = true, is_active = false WHERE id = $1`, [(event.data as { productId: string }).productId]);
      return;
    default:
      return;
  }
}

async function applyStore(tx: PoolClient, event: RecordedEventWithTx, t: Record<SourcesTable, string>): Promise<void> {
  if (event.type === 'StoreCreated') {
    const d = StoreCreated.parse(event.data);
    await tx.query(
      `INSERT INTO ${t.stores} (id, subdomain, name, address, phone, whatsapp_number, is_active, allow_online_orders, require_customer_info, logo_url)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       ON CONFLICT (id) DO NOTHING`,
      [d.storeId, d.subdomain, d.name, d.address, d.phone, d.whatsappNumber, d.isActive, d.allowOnlineOrders, d.requireCustomerInfo, d.logoUrl],
    );
    return;
  }
  if (event.type === 'StoreSettingsCreated') {
    const d = StoreSettingsCreated.parse(event.data);
    await tx.query(`UPDATE ${t.stores} SET tax_rate = $2, receipt_header = $3, receipt_footer = $4 WHERE id = $1`, [d.storeId, d.taxRate, d.receiptHeader, d.receiptFooter]);
    return;
  }
  // StoreUpdated / StoreSettingsUpdated `{ storeId, changes, updatedAt }` (and any later store event carrying the fields).
  const data = (event.data ?? {}) as Record<string, unknown>;
  const storeId = typeof data.storeId === 'string' ? data.storeId : event.streamId.slice('store-'.length);
  const source = typeof data.changes === 'object' && data.changes !== null ? (data.changes as Record<string, unknown>) : data;
  const sets: string[] = [];
  const values: unknown[] = [storeId];
  for (const [field, column] of Object.entries(STORE_FIELDS)) {
    const value = source[field];
    if (value === undefined) continue;
    let ok: boolean;
    if (BOOLEAN_FIELDS.has(field)) ok = typeof value === 'boolean';
    else if (field === 'taxRate') ok = typeof value === 'number' && value >= 0 && value <= 1;
    else ok = value === null ? !REQUIRED_FIELDS.has(field) : typeof value === 'string';
    if (!ok) continue;
    values.push(value);
    sets.push(`${column} = $${values.length}`);
  }
  if (event.type === 'StoreActivated' || event.type === 'StoreDeactivated') sets.push(`is_active = ${event.type === 'StoreActivated'}`);
  if (sets.length > 0) await tx.query(`UPDATE ${t.stores} SET ${sets.join(', ')} WHERE id = $1`, values);
}
