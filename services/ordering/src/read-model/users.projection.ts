import { UserNameChanged, UserRegistered, userDisplayName } from '@tiendita/contracts';
import type { Projection } from '@tiendita/eventsourcing';

export type UsersTable = 'users';

/**
 * Ordering's copy of the owners' names (from identity's UserRegistered, then UserNameChanged when
 * the owner changes it in their profile): new history entries, payments and refunds name their
 * author, never a raw id. Nothing else of the user is copied.
 */
export const usersProjection: Projection<UsersTable> = {
  name: 'ordering_users',
  // Names follow UserNameChanged (new with the profile page: no earlier event to replay, same version).
  version: 1,
  sources: ['identity'],
  tables: ['users'],

  async setup(tx, t) {
    await tx.query(`CREATE TABLE IF NOT EXISTS ${t.users} (id uuid PRIMARY KEY, name varchar(255) NOT NULL)`);
  },

  async apply(tx, events, t) {
    for (const event of events) {
      if (event.type === 'UserRegistered') {
        const d = UserRegistered.parse(event.data);
        const name = userDisplayName(d.firstName, d.lastName, d.email);
        await tx.query(`INSERT INTO ${t.users} (id, name) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name`, [d.userId, name]);
      } else if (event.type === 'UserNameChanged') {
        const d = UserNameChanged.parse(event.data);
        const name = userDisplayName(d.firstName, d.lastName);
        if (name) await tx.query(`UPDATE ${t.users} SET name = $2 WHERE id = $1`, [d.userId, name]);
      }
    }
  },
};
