import { UserRegistered } from '@tiendita/contracts';
import type { Projection } from '@tiendita/eventsourcing';

export type UsersTable = 'users';

/**
 * Ordering's copy of the owners' names (from identity's UserRegistered): the history, the payments
 * and the refunds name their author, never a raw id. Nothing else of the user is copied.
 */
export const usersProjection: Projection<UsersTable> = {
  name: 'ordering_users',
  version: 1,
  sources: ['identity'],
  tables: ['users'],

  async setup(tx, t) {
    await tx.query(`CREATE TABLE IF NOT EXISTS ${t.users} (id uuid PRIMARY KEY, name varchar(255) NOT NULL)`);
  },

  async apply(tx, events, t) {
    for (const event of events) {
      if (event.type !== 'UserRegistered') continue;
      const d = UserRegistered.parse(event.data);
      const name = `${d.firstName} ${d.lastName}`.trim() || d.email;
      await tx.query(`INSERT INTO ${t.users} (id, name) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name`, [d.userId, name]);
    }
  },
};
