import type { Pool } from 'pg';
import { checkout } from './pg-util';
import type { Runtime } from './projection-live-batch';
import type { ProjectionStatus } from './projection-target';

/** What a projection does at start, from its row in `<schema>.projections`. */
export type StartAction = 'subscribe' | 'rebuild' | 'paused';

/**
 * A projection's row at start (ProjectionRunner.start), under the schema's projections lock: one
 * seen for the first time is recorded and set up, from position 0; a read model whose stored
 * version differs from its code is to be rebuilt; a paused one stays paused; any other is set up
 * and subscribed.
 */
export async function registerProjection(pool: Pool, schema: string, rt: Runtime): Promise<StartAction> {
  const p = rt.projection;
  const reaction = p.kind === 'reaction';
  const client = await checkout(pool);
  let action: StartAction = 'subscribe';
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`projections:${schema}`]);
    const r = await client.query<{ version: number; status: ProjectionStatus }>(`SELECT version, status FROM ${schema}.projections WHERE name = $1 FOR UPDATE`, [p.name]);
    if (r.rowCount === 0) {
      await client.query(`INSERT INTO ${schema}.projections (name, version, status, kind) VALUES ($1, $2, 'running', $3)`, [p.name, p.version, p.kind ?? 'read-model']);
      // A brand-new projection reads from position 0, whatever an older namesake left behind. A
      // reaction keeps its group's checkpoint: the effects before it have happened already.
      if (!reaction) await client.query(`DELETE FROM ${schema}.subscription_checkpoints WHERE group_name = $1`, [rt.group]);
      await p.setup(client, rt.live);
    } else if (r.rows[0].version !== p.version && !reaction) {
      action = 'rebuild';
    } else {
      if (reaction) await client.query(`UPDATE ${schema}.projections SET version = $2, kind = 'reaction' WHERE name = $1`, [p.name, p.version]);
      await p.setup(client, rt.live);
      if (r.rows[0].status === 'paused') action = 'paused';
    }
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    client.done(err);
    throw err;
  }
  client.done();
  return action;
}
