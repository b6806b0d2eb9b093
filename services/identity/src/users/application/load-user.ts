import { IdentityStreams, type UserEvent } from '@tiendita/contracts';
import { fold, type PostgresEventStore } from '@tiendita/eventsourcing';
import type { Pool } from 'pg';
import { userDecider, type UserState } from '../domain/user.decider';

/** The user id reserved for an e-mail (written with the account, so exact at once), or null. */
export async function userIdByEmail(pool: Pool, email: string): Promise<string | null> {
  const r = await pool.query<{ user_id: string }>('SELECT user_id FROM identity.email_reservations WHERE email = $1', [email]);
  return r.rows[0]?.user_id ?? null;
}

/** The User aggregate folded from its stream: the write model, never behind. */
export async function loadUser(events: PostgresEventStore, userId: string): Promise<UserState> {
  const recorded = await events.readStream(IdentityStreams.user(userId));
  return fold(userDecider, recorded.map((r) => ({ type: r.type, data: r.data }) as UserEvent));
}

/**
 * The account of an e-mail, folded from its stream, in one round trip (the login's lookup).
 * null when the e-mail has no account.
 */
export async function loadUserByEmail(pool: Pool, email: string): Promise<UserState | null> {
  const r = await pool.query<{ type: string | null; data: unknown }>({
    name: 'identity_user_by_email',
    text: `SELECT e.type, e.data
           FROM identity.email_reservations r
           LEFT JOIN identity.events e ON e.stream_id = 'user-' || r.user_id::text
           WHERE r.email = $1
           ORDER BY e.stream_position`,
    values: [email],
  });
  if (r.rows.length === 0) return null;
  const events = r.rows.filter((row) => row.type !== null).map((row) => ({ type: row.type, data: row.data }) as UserEvent);
  return fold(userDecider, events);
}
