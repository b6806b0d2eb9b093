import { IdentityEventSchemas } from '@tiendita/contracts';
import { physicalName, type Projection, type RecordedEventWithTx } from '@tiendita/eventsourcing';
import type { PoolClient } from 'pg';

export type SubscriptionsTable = 'customer_subscriptions';

/** Where the owner's list and the CSV read subscriptions. */
export const SUBSCRIPTIONS_TABLE = 'identity.customer_subscriptions';

/**
 * The spec's customer_subscriptions (000 §3), one row per store and e-mail: subscribing again
 * after leaving reactivates the row with a new subscribedAt. Indexed on store and email, and on
 * the list's order (active first, newest first).
 */
export const subscriptionsProjection: Projection<SubscriptionsTable> = {
  name: 'subscriptions',
  version: 1,
  sources: ['identity'],
  tables: ['customer_subscriptions'],

  async setup(tx: PoolClient, t: Record<SubscriptionsTable, string>): Promise<void> {
    const p = physicalName(t.customer_subscriptions);
    await tx.query(`
      CREATE TABLE IF NOT EXISTS ${t.customer_subscriptions} (
        id uuid PRIMARY KEY,
        store_id uuid NOT NULL,
        email varchar(255) NOT NULL,
        name varchar(255),
        phone varchar(20),
        provider varchar(50) NOT NULL,
        provider_id text,
        profile_image text,
        is_active boolean NOT NULL DEFAULT true,
        subscribed_at timestamptz NOT NULL,
        unsubscribed_at timestamptz
      );
      CREATE INDEX IF NOT EXISTS ${p}_store_email ON ${t.customer_subscriptions} (store_id, email);
      CREATE INDEX IF NOT EXISTS ${p}_list ON ${t.customer_subscriptions} (store_id, is_active DESC, subscribed_at DESC);
    `);
  },

  async apply(tx: PoolClient, events: RecordedEventWithTx[], t: Record<SubscriptionsTable, string>): Promise<void> {
    for (const event of events) {
      if (event.type === 'CustomerSubscribed') {
        const d = IdentityEventSchemas.CustomerSubscribed.parse(event.data);
        await tx.query(
          `INSERT INTO ${t.customer_subscriptions} (id, store_id, email, name, phone, provider, is_active, subscribed_at, unsubscribed_at)
           VALUES ($1, $2, $3, $4, $5, $6, true, $7, NULL)
           ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, phone = EXCLUDED.phone, provider = EXCLUDED.provider,
             is_active = true, subscribed_at = EXCLUDED.subscribed_at, unsubscribed_at = NULL`,
          [d.subscriptionId, d.storeId, d.email, d.name, d.phone, d.provider, d.subscribedAt],
        );
      } else if (event.type === 'CustomerUnsubscribed') {
        const d = IdentityEventSchemas.CustomerUnsubscribed.parse(event.data);
        await tx.query(`UPDATE ${t.customer_subscriptions} SET is_active = false, unsubscribed_at = $2 WHERE id = $1`, [d.subscriptionId, d.unsubscribedAt]);
      }
    }
  },
};
