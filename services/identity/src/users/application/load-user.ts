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
