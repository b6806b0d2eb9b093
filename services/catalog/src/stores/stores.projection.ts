import { StoreCreated } from '@tiendita/contracts';
import { physicalName, type Projection, type RecordedEventWithTx } from '@tiendita/eventsourcing';
import type { PoolClient } from 'pg';

export type StoresTable = 'stores';

/** The store fields catalog copies from identity's events, by their event field names. */
const COPIED = {
  name: 'name',
  subdomain: 'subdomain',
  description: 'description',
  logoUrl: 'logo_url',
  isActive: 'is_active',
  businessType: 'business_type',
  aiDescriptionLength: 'ai_description_length',
  phone: 'phone',
  address: 'address',
  businessHours: 'business_hours',
  whatsappNumber: 'whatsapp_number',
  primaryColor: 'primary_color',
  secondaryColor: 'secondary_color',
  accentColor: 'accent_color',
} as const;
/** Copied fields that may be cleared (null); the others are always strings or booleans. */
const NULLABLE: readonly string[] = ['description', 'logoUrl', 'phone', 'address', 'businessHours', 'whatsappNumber'];
/** Allowed values of the store's AI description length (anything else is ignored). */
const DESCRIPTION_LENGTHS: readonly unknown[] = ['short', 'normal', 'long'];

/**
 * Catalog's own copy of the stores (from identity's events): enough to answer public calls by
 * subdomain or id, hide inactive stores, and fill link previews and the shop's first screen that the
 * gateway writes into the page (header colours, info banner, WhatsApp number). StoreCreated is parsed with its
 * contract; any later event of a store stream that carries one of the copied fields (at the top
 * level or under `changes`) updates it, so settings events can land without changing this code.
 */
export const storesProjection: Projection<StoresTable> = {
  name: 'shop_stores',
  // 2: business_type and ai_description_length (the AI helpers, issue 15).
  // 3: the shop header's colours, the info banner's fields and the WhatsApp number (the first screen).
  version: 3,
  sources: ['identity'],
  tables: ['stores'],

  async setup(tx, t) {
    const s = physicalName(t.stores);
    await tx.query(`
      CREATE TABLE IF NOT EXISTS ${t.stores} (
        id uuid PRIMARY KEY,
        subdomain varchar(100) NOT NULL,
        name varchar(255) NOT NULL,
        description text,
        logo_url text,
        is_active boolean NOT NULL DEFAULT true,
        business_type varchar(100) NOT NULL DEFAULT 'other',
        ai_description_length varchar(20) NOT NULL DEFAULT 'normal',
        phone text,
        address text,
        business_hours text,
        whatsapp_number text,
        primary_color varchar(20),
        secondary_color varchar(20),
        accent_color varchar(20),
        created_at timestamptz NOT NULL
      );
      CREATE INDEX IF NOT EXISTS ${s}_subdomain ON ${t.stores} (subdomain);
    `);
  },

  async apply(tx, events, t) {
    for (const event of events) await applyOne(tx, event, t);
  },
};

async function applyOne(tx: PoolClient, event: RecordedEventWithTx, t: Record<StoresTable, string>): Promise<void> {
  if (!event.streamId.startsWith('store-')) return;
  if (event.type === 'StoreCreated') {
    const d = StoreCreated.parse(event.data);
    await tx.query(
      `INSERT INTO ${t.stores} (id, subdomain, name, description, logo_url, is_active, business_type, ai_description_length,
                                phone, address, business_hours, whatsapp_number, primary_color, secondary_color, accent_color, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
       ON CONFLICT (id) DO NOTHING`,
      [
        d.storeId, d.subdomain, d.name, d.description, d.logoUrl, d.isActive, d.businessType, d.aiDescriptionLength,
        d.phone, d.address, d.businessHours, d.whatsappNumber, d.primaryColor, d.secondaryColor, d.accentColor, d.createdAt,
      ],
    );
    return;
  }
  const data = (event.data ?? {}) as Record<string, unknown>;
  const storeId = typeof data.storeId === 'string' ? data.storeId : event.streamId.slice('store-'.length);
  const source = typeof data.changes === 'object' && data.changes !== null ? (data.changes as Record<string, unknown>) : data;
  const sets: string[] = [];
  const values: unknown[] = [storeId];
  for (const [field, column] of Object.entries(COPIED)) {
    const value = source[field];
    if (value === undefined) continue;
    const ok =
      field === 'isActive'
        ? typeof value === 'boolean'
        : field === 'aiDescriptionLength'
          ? DESCRIPTION_LENGTHS.includes(value)
          : value === null
            ? NULLABLE.includes(field)
            : typeof value === 'string';
    if (!ok) continue;
    values.push(value);
    sets.push(`${column} = $${values.length}`);
  }
  if (event.type === 'StoreActivated' || event.type === 'StoreDeactivated') sets.push(`is_active = ${event.type === 'StoreActivated'}`);
  if (sets.length > 0) await tx.query(`UPDATE ${t.stores} SET ${sets.join(', ')} WHERE id = $1`, values);
}
