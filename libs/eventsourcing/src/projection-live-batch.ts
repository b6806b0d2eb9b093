import type { PoolClient, QueryResult } from 'pg';
import type { RecordedEventWithTx } from './event-table';
import { isTransientError } from './pg-util';
import { GENERIC_PLANS, type StatementNames, withNamedStatements } from './prepared-statements';
import { blockedStoresSql, deadLetterAndPause, setAsideForStore, storesOf } from './projection-state';
import { type ProjectionLogger, type ProjectionTarget, uniqueByEventId } from './projection-target';
import type { HandleResult, Subscription } from './subscription';

// A live batch of a projection (ProjectionRunner): what its transaction runs first, and how its events
// are applied with each store's failures kept to that store.

/** A projection as the runner runs it: its tables and what its subscriptions are doing. */
export interface Runtime extends ProjectionTarget {
  subs: Subscription[];
  /** Set by a handler that dead-lettered an event, until its subscription ends. */
  pausing: string | null;
  /** A rebuild started by start() (version bump), if any. */
  starting: Promise<void> | null;
  rebuilding: boolean;
  /** Failed attempts of the event that failed last, by eventId (in this process). */
  failures: Map<string, number>;
  /** Stores whose events this read model sets aside (a dead letter of theirs waits), as last read. */
  blocked: Set<string>;
}

/** Why an event is set aside without being tried: an earlier event of its store could not be applied. */
const HELD_REASON = 'Apartado: un evento anterior de la misma tienda no se pudo aplicar';

/** What a live batch needs of its runner. */
export interface LiveBatchContext {
  /** The consuming service's schema (dead letters). */
  schema: string;
  log: ProjectionLogger;
  /** Failed attempts of an event before it is set aside or dead-lettered. */
  maxAttempts: number;
  /** The runner's names for the statements its projections repeat. */
  statementNames: StatementNames;
}

/**
 * What a live batch's transaction runs before its events are applied; the transport sends it with
 * the batch's read (no round trip of its own). One batch of a projection at a time, across its
 * sources and processes: two sources applied in concurrent transactions could each miss the
 * other's uncommitted rows (write skew). A read model's commit does not wait for the WAL flush:
 * rows and checkpoint are lost together in a crash, and applied again from the events, which are
 * durable; it shows a sale one flush sooner. A reaction's effects (events it appends, which others
 * may read at once) keep synchronous commits. The savepoint lets a failed batch be retried event by
 * event; COMMIT releases it. Its statements are planned once per connection (GENERIC_PLANS; the
 * apply's run as named statements, see applyLiveBatch). A read model also reads there, under the
 * lock, the stores it sets aside (its last statement; applyLiveBatch reads its rows). (The group is
 * a checked name.)
 */
export function liveBatchStart(rt: Runtime, schema: string): string {
  const lock = `SELECT pg_advisory_xact_lock(hashtext('projection:${rt.group}')), ${GENERIC_PLANS}`;
  if (rt.projection.kind === 'reaction') return `${lock}; SAVEPOINT projection_batch`;
  const blocked = blockedStoresSql(schema, `'${rt.projection.name.replace(/'/g, "''")}'`);
  return `${lock}, set_config('synchronous_commit', 'off', true); SAVEPOINT projection_batch; ${blocked}`;
}

/**
 * Applies one live batch inside the transport's transaction (the checkpoint is saved there too), after liveBatchStart().
 * A read model isolates stores: an event of a store it cannot apply is set aside with that store
 * (dead letter with its storeId), later events of that store are set aside behind it in order, and
 * every other store goes on. An event without a store (and any event of a reaction) still pauses
 * the whole projection.
 */
export async function applyLiveBatch(
  rt: Runtime,
  ctx: LiveBatchContext,
  source: string,
  events: RecordedEventWithTx[],
  batchTx: PoolClient,
  started: readonly QueryResult[] | undefined,
): Promise<HandleResult> {
  if (rt.pausing) return { handled: 0 };
  // What the projection runs on every batch is prepared once per connection (with the batch's generic plans).
  const tx = withNamedStatements(batchTx, ctx.statementNames);
  const p = rt.projection;
  const perStore = p.kind !== 'reaction';
  const fresh = uniqueByEventId(events);
  if (perStore) {
    const read = started?.[started.length - 1]?.rows as { store_id: string }[] | undefined;
    rt.blocked = storesOf(read ?? (await tx.query<{ store_id: string }>(blockedStoresSql(ctx.schema, '$1'), [p.name])).rows);
  }
  const isHeld = (e: RecordedEventWithTx) => perStore && e.metadata.storeId !== null && rt.blocked.has(e.metadata.storeId);
  const held = fresh.filter(isHeld);
  try {
    await p.apply(tx, held.length ? fresh.filter((e) => !isHeld(e)) : fresh, rt.live);
    for (const e of held) await setAsideForStore(tx, ctx.schema, { projection: p.name, source, event: e, error: HELD_REASON, attempts: 0 }, true);
    rt.failures.clear();
    return;
  } catch (err) {
    if (isTransientError(err)) throw err;
    await tx.query('ROLLBACK TO SAVEPOINT projection_batch'); // throws when the connection is gone
  }
  // The batch failed: apply event by event to find the one that cannot be applied.
  const freshSet = new Set(fresh);
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    if (!freshSet.has(e)) continue;
    if (isHeld(e)) {
      await setAsideForStore(tx, ctx.schema, { projection: p.name, source, event: e, error: HELD_REASON, attempts: 0 }, true);
      continue;
    }
    await tx.query('SAVEPOINT projection_event');
    try {
      await p.apply(tx, [e], rt.live);
      await tx.query('RELEASE SAVEPOINT projection_event');
    } catch (err) {
      if (isTransientError(err)) throw err;
      await tx.query('ROLLBACK TO SAVEPOINT projection_event');
      const attempts = (rt.failures.get(e.metadata.eventId) ?? 0) + 1;
      // Kept per event until a batch goes through: two bad events of two stores in one batch each reach their limit.
      rt.failures.set(e.metadata.eventId, attempts);
      const maxAttempts = ctx.maxAttempts;
      if (attempts < maxAttempts) {
        // Perhaps a passing cause: the whole batch rolls back and the transport tries it again after a while.
        ctx.log.warn(
          { projection: p.name, source, eventId: e.metadata.eventId, type: e.type, attempts, err },
          `La proyección ${p.name} no pudo aplicar ${e.type} (intento ${attempts} de ${maxAttempts}); se reintenta`,
        );
        throw err;
      }
      const message = err instanceof Error ? err.message : String(err);
      const store = e.metadata.storeId;
      if (perStore && store !== null) {
        await setAsideForStore(tx, ctx.schema, { projection: p.name, source, event: e, error: message, attempts }, false);
        rt.blocked.add(store);
        rt.failures.delete(e.metadata.eventId);
        ctx.log.error(
          { projection: p.name, source, storeId: store, eventId: e.metadata.eventId, type: e.type, globalPosition: e.globalPosition, attempts, err },
          `La proyección ${p.name} no pudo aplicar ${e.type} de la tienda ${store}: se aparta con los eventos que le sigan de esa tienda (ver ${ctx.schema}.dead_letters); las demás tiendas siguen`,
        );
        continue;
      }
      await deadLetterAndPause(tx, ctx.schema, { projection: p.name, source, event: e, error: message, attempts });
      rt.failures.clear();
      rt.pausing = message;
      ctx.log.error(
        { projection: p.name, source, eventId: e.metadata.eventId, type: e.type, globalPosition: e.globalPosition, attempts, err },
        `La proyección ${p.name} no pudo aplicar ${e.type}: queda en pausa (evento en ${ctx.schema}.dead_letters)`,
      );
      return { handled: i };
    }
  }
  rt.failures.clear();
  return;
}
