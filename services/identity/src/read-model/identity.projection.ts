import { DEFAULT_TAX_RATE, type IdentityEvent } from '@tiendita/contracts';
import { physicalName, type Projection, type RecordedEventWithTx } from '@tiendita/eventsourcing';
import type { PoolClient } from 'pg';

export type IdentityTable = 'users' | 'stores' | 'store_settings';

/**
 * The read models of identity (spec 000 §3): users, stores and store_settings, in schema
 * 'identity'. Secrets stay out: the password hash and the reset-token hashes live only in the
 * User stream, so no query of the read side can ever hand one out.
 */
export const identityProjection: Projection<IdentityTable> = {
  name: 'accounts',
  version: 1,
  sources: ['identity'],
  tables: ['users', 'stores', 'store_settings'],

  async setup(tx: PoolClient, t: Record<IdentityTable, string>): Promise<void> {
    const u = physicalName(t.users);
    const s = physicalName(t.stores);
    const ss = physicalName(t.store_settings);
    await tx.query(`
      CREATE TABLE IF NOT EXISTS ${t.users} (
        id uuid PRIMARY KEY,
        email varchar(255) NOT NULL,
        first_name varchar(100) NOT NULL,
        last_name varchar(100) NOT NULL,
        profile_image_url text,
        is_email_verified boolean NOT NULL DEFAULT false,
        store_id uuid NOT NULL,
        last_login_at timestamptz,
        password_changed_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      );
      CREATE UNIQUE INDEX IF NOT EXISTS ${u}_email ON ${t.users} (email);
      CREATE TABLE IF NOT EXISTS ${t.stores} (
        id uuid PRIMARY KEY,
        owner_id uuid NOT NULL,
        name varchar(255) NOT NULL,
        subdomain varchar(100) NOT NULL,
        business_type varchar(100) NOT NULL,
        description text,
        phone varchar(20),
        email varchar(255),
        address text,
        department varchar(100),
        website text,
        whatsapp_number varchar(20),
        business_hours text,
        is_active boolean NOT NULL DEFAULT true,
        allow_online_orders boolean NOT NULL DEFAULT true,
        require_customer_info boolean NOT NULL DEFAULT false,
        logo_url text,
        primary_color varchar(7) NOT NULL DEFAULT '#0ea5e9',
        secondary_color varchar(7) NOT NULL DEFAULT '#0284c7',
        accent_color varchar(7) NOT NULL DEFAULT '#dc2626',
        ai_description_length varchar(20) NOT NULL DEFAULT 'normal',
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      );
      CREATE UNIQUE INDEX IF NOT EXISTS ${s}_subdomain ON ${t.stores} (subdomain);
      CREATE INDEX IF NOT EXISTS ${s}_owner ON ${t.stores} (owner_id);
      CREATE TABLE IF NOT EXISTS ${t.store_settings} (
        id uuid PRIMARY KEY,
        store_id uuid NOT NULL,
        tax_rate numeric(5,4) NOT NULL DEFAULT ${DEFAULT_TAX_RATE},
        currency char(3) NOT NULL DEFAULT 'GTQ',
        kash_enabled boolean NOT NULL DEFAULT false,
        zigi_enabled boolean NOT NULL DEFAULT false,
        kash_api_key text,
        zigi_api_key text,
        print_receipts boolean NOT NULL DEFAULT true,
        receipt_header text,
        receipt_footer text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      );
      CREATE UNIQUE INDEX IF NOT EXISTS ${ss}_store ON ${t.store_settings} (store_id);
      -- Limits on public orders (issue 26): null until the owner sets them (ORDER_LIMITS_DEFAULTS apply).
      ALTER TABLE ${t.store_settings} ADD COLUMN IF NOT EXISTS order_max_units_per_line integer;
      ALTER TABLE ${t.store_settings} ADD COLUMN IF NOT EXISTS order_max_units_per_order integer;
      ALTER TABLE ${t.store_settings} ADD COLUMN IF NOT EXISTS order_hold_hours integer;
      ALTER TABLE ${t.store_settings} ADD COLUMN IF NOT EXISTS blocked_phones text[];
      -- Card sales while the POS is offline (issue 28): null until the owner chooses (refused).
      ALTER TABLE ${t.store_settings} ADD COLUMN IF NOT EXISTS offline_card_payments text;
    `);
  },

  async apply(tx: PoolClient, events: RecordedEventWithTx[], t: Record<IdentityTable, string>): Promise<void> {
    // Sign-ins come in bursts (LoginLog writes them in batches): a run of them is one UPDATE.
    // GREATEST makes their order within the run irrelevant; any other event ends the run first.
    let signIns: { userId: string; at: string }[] = [];
    const flushSignIns = async () => {
      if (signIns.length === 0) return;
      await tx.query(
        `UPDATE ${t.users} u SET last_login_at = GREATEST(u.last_login_at, v.at)
         FROM (SELECT id, max(at) AS at FROM unnest($1::uuid[], $2::timestamptz[]) AS x(id, at) GROUP BY id) v
         WHERE u.id = v.id`,
        [signIns.map((x) => x.userId), signIns.map((x) => x.at)],
      );
      signIns = [];
    };
    for (const recorded of events) {
      const event = { type: recorded.type, data: recorded.data } as IdentityEvent;
      if (event.type === 'UserLoggedIn') {
        signIns.push({ userId: event.data.userId, at: event.data.loggedInAt });
        continue;
      }
      await flushSignIns();
      switch (event.type) {
        case 'UserRegistered': {
          const d = event.data;
          await tx.query(
            `INSERT INTO ${t.users} (id, email, first_name, last_name, store_id, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $6) ON CONFLICT (id) DO NOTHING`,
            [d.userId, d.email, d.firstName, d.lastName, d.storeId, d.registeredAt],
          );
          break;
        }
        case 'PasswordChanged':
          await tx.query(`UPDATE ${t.users} SET password_changed_at = $2, updated_at = $2 WHERE id = $1`, [event.data.userId, event.data.changedAt]);
          break;
        case 'UserNameChanged':
          await tx.query(`UPDATE ${t.users} SET first_name = $2, last_name = $3, updated_at = $4 WHERE id = $1`, [
            event.data.userId,
            event.data.firstName,
            event.data.lastName,
            event.data.changedAt,
          ]);
          break;
        case 'PasswordResetRequested':
          break;
        case 'StoreCreated': {
          const d = event.data;
          await tx.query(
            `INSERT INTO ${t.stores} (id, owner_id, name, subdomain, business_type, description, phone, email, address, department,
               website, whatsapp_number, business_hours, is_active, allow_online_orders, require_customer_info, logo_url,
               primary_color, secondary_color, accent_color, ai_description_length, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $22)
             ON CONFLICT (id) DO NOTHING`,
            [
              d.storeId, d.ownerId, d.name, d.subdomain, d.businessType, d.description, d.phone, d.email, d.address, d.department,
              d.website, d.whatsappNumber, d.businessHours, d.isActive, d.allowOnlineOrders, d.requireCustomerInfo, d.logoUrl,
              d.primaryColor, d.secondaryColor, d.accentColor, d.aiDescriptionLength, d.createdAt,
            ],
          );
          break;
        }
        case 'StoreSettingsCreated': {
          const d = event.data;
          await tx.query(
            `INSERT INTO ${t.store_settings} (id, store_id, tax_rate, currency, kash_enabled, zigi_enabled, print_receipts,
               receipt_header, receipt_footer, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10) ON CONFLICT (id) DO NOTHING`,
            [d.settingsId, d.storeId, d.taxRate, d.currency, d.kashEnabled, d.zigiEnabled, d.printReceipts, d.receiptHeader, d.receiptFooter, d.createdAt],
          );
          break;
        }
        case 'StoreUpdated': {
          const d = event.data;
          await updateColumns(tx, t.stores, 'id', d.storeId, d.changes, STORE_COLUMN_OF, d.updatedAt);
          break;
        }
        case 'StoreSettingsUpdated': {
          const d = event.data;
          await updateColumns(tx, t.store_settings, 'store_id', d.storeId, d.changes, SETTINGS_COLUMN_OF, d.updatedAt);
          break;
        }
        default:
          // Events of later versions are skipped here; a version bump rebuilds the projection.
          break;
      }
    }
    await flushSignIns();
  },
};

/** Read-model column of each field of StoreUpdated.changes. */
const STORE_COLUMN_OF: Record<string, string> = {
  name: 'name', description: 'description', subdomain: 'subdomain', businessType: 'business_type', department: 'department',
  address: 'address', phone: 'phone', email: 'email', website: 'website', whatsappNumber: 'whatsapp_number',
  businessHours: 'business_hours', isActive: 'is_active', allowOnlineOrders: 'allow_online_orders',
  requireCustomerInfo: 'require_customer_info', logoUrl: 'logo_url', primaryColor: 'primary_color',
  secondaryColor: 'secondary_color', accentColor: 'accent_color', aiDescriptionLength: 'ai_description_length',
};
/** Of StoreSettingsUpdated.changes; the regime is not a column, it follows tax_rate. */
const SETTINGS_COLUMN_OF: Record<string, string> = {
  taxRate: 'tax_rate', currency: 'currency', printReceipts: 'print_receipts', receiptHeader: 'receipt_header',
  receiptFooter: 'receipt_footer', kashEnabled: 'kash_enabled', zigiEnabled: 'zigi_enabled',
  orderMaxUnitsPerLine: 'order_max_units_per_line', orderMaxUnitsPerOrder: 'order_max_units_per_order', orderHoldHours: 'order_hold_hours', blockedPhones: 'blocked_phones',
  offlineCardPayments: 'offline_card_payments',
};

/** One UPDATE setting the columns of the fields present in `changes`, and updated_at. */
async function updateColumns(
  tx: PoolClient,
  table: string,
  key: string,
  id: string,
  changes: Record<string, unknown>,
  columnOf: Record<string, string>,
  updatedAt: string,
): Promise<void> {
  const values: unknown[] = [id, updatedAt];
  const sets = ['updated_at = $2'];
  for (const [field, value] of Object.entries(changes)) {
    const column = columnOf[field];
    if (!column || value === undefined) continue;
    values.push(value);
    sets.push(`${column} = $${values.length}`);
  }
  await tx.query(`UPDATE ${table} SET ${sets.join(', ')} WHERE ${key} = $1`, values);
}
