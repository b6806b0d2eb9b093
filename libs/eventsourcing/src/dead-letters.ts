import type { Pool, PoolClient } from 'pg';
import { assertSchemaName, EVENT_COLUMNS, toRecorded, type EventRow, type Position, type RecordedEventWithTx } from './event-table';
import { checkout, isTransientError } from './pg-util';
import type { Projection } from './projection';
import type { RebuildOptions } from './projection-rebuild';
import { ProjectionRunner } from './projection-runner';
import {
  type DeadLetter,
  deadLetterEvent,
  deleteDeadLetter,
  heldForStore,
  lockDeadLetter,
  readDeadLetters,
  recordDeadLetterFailure,
  releaseIfNoDeadLetters,
} from './projection-state';
import type { ProjectionLogger } from './projection-target';
import { comparePositions, type EventTransport } from './subscription';

/**
 * A dead letter of a service as the replay tool shows it, whichever table holds it:
 * - `projection`: an event a projection could not apply (`<schema>.dead_letters`); the projection
 *   is paused at it. Id `<schema>.<projection>:<n>`.
 * - `transport`: a Kafka message a consumer refused before any handler saw it (not JSON, not the
 *   envelope, not signed by a relay: `<schema>.transport_dead_letters`); the partition went on
 *   without it. Id `<group>@<source>/<partition>/<offset>`.
 */
export interface DeadLetterEntry {
  id: string;
  kind: 'projection' | 'transport';
  schema: string;
  /** Consumer group: `<schema>.<projection>` for a projection. */
  group: string;
  /** The projection the group belongs to, when it is one of the given projections. */
  projection: string | null;
  source: string;
  /** Event type; null for a refused message that could not be read. */
  type: string | null;
  eventId: string | null;
  streamId: string | null;
  /** Place in the source's global order; null for a refused message that could not be read. */
  position: Position | null;
  /** Kafka partition and offset of a refused message. */
  partition: number | null;
  offset: string | null;
  error: string;
  attempts: number;
  createdAt: Date;
  /** The store it was set aside for (the projection goes on for the others); null when it paused the projection. */
  storeId: string | null;
  /** Set aside only because an earlier event of its store failed: it is applied after that one is retried or skipped. */
  held: boolean;
}

export type DeadLetterOutcome =
  /** The event was applied to the live read model, the checkpoint moved past it, the dead letter is gone. */
  | { outcome: 'applied'; entry: DeadLetterEntry; events: number; resumed: boolean }
  /** The projection had already moved past the event (a rebuild since): the dead letter is gone. */
  | { outcome: 'already-applied'; entry: DeadLetterEntry; resumed: boolean }
  /** The projection was rebuilt from position 0 (a refused Kafka message): the dead letter is gone. */
  | { outcome: 'rebuilt'; entry: DeadLetterEntry; events: number; resumed: boolean }
  /** The event was left out: the checkpoint moved past it without applying it, the dead letter is gone. */
  | { outcome: 'skipped'; entry: DeadLetterEntry; resumed: boolean }
  /**
   * A reaction's event was handed back to the running service: the dead letter is gone and the
   * checkpoint stays before the event, so the service applies it again with its code deployed now
   * once the reaction runs (`resumed`: it was its last dead letter). Failing again dead-letters it again.
   */
  | { outcome: 'requeued'; entry: DeadLetterEntry; resumed: boolean };

/** The retried event failed again: nothing changed but the dead letter's error and attempts. */
export class DeadLetterRetryError extends Error {
  constructor(
    readonly entry: DeadLetterEntry,
    cause: unknown,
  ) {
    super(`El evento ${entry.type ?? ''} ${entry.eventId ?? ''} volvió a fallar en ${entry.projection ?? entry.group}: ${cause instanceof Error ? cause.message : String(cause)}`.replace(/ {2,}/g, ' '), {
      cause,
    });
    this.name = 'DeadLetterRetryError';
  }
}

/** An id that names no dead letter, or one this tool cannot retry: a one-line Spanish message. */
export class DeadLetterNotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DeadLetterNotFoundError';
  }
}

export interface DeadLettersOptions {
  pool: Pool;
  /** The consuming service's schema (where its dead letters, checkpoints and read models live). */
  schema: string;
  /** The service's projections (their code applies a retried event, or rebuilds). */
  projections: readonly Projection[];
  /** The service's transport, for a retry or skip: Kafka checkpoints are per partition (partitionOf). Listing needs none. */
  transport?: EventTransport;
  logger?: ProjectionLogger;
}

const PROJECTION_ID = /^([a-z_][a-z0-9_]*)\.([a-z_][a-z0-9_]*):(\d+)$/;
const TRANSPORT_ID = /^([a-z_][a-z0-9_]*\.[^@\s]+)@([a-z_][a-z0-9_]*)\/(-?\d+)\/(\d+)$/;

/** The schema a dead-letter id belongs to (its service), or null when the id is malformed. */
export function deadLetterSchema(id: string): string | null {
  const p = PROJECTION_ID.exec(id);
  if (p) return p[1];
  const t = TRANSPORT_ID.exec(id);
  return t ? t[1].slice(0, t[1].indexOf('.')) : null;
}

/**
 * Lists, retries and skips a service's dead letters from outside the service (`npm run replay`),
 * while it runs: every change takes the projection's batch lock and its checkpoint row, as a live
 * batch does, and a running ProjectionRunner subscribes the projection again once it is released
 * (`resumeReleased`).
 */
export class DeadLetters {
  private readonly schema: string;
  private readonly byName: Map<string, Projection>;

  constructor(private readonly options: DeadLettersOptions) {
    assertSchemaName(options.schema);
    this.schema = options.schema;
    this.byName = new Map(options.projections.map((p) => [p.name, p]));
  }

  /** Every dead letter of the service, oldest first (projection ones, then refused messages). */
  async list(): Promise<DeadLetterEntry[]> {
    const out: DeadLetterEntry[] = [];
    if (await this.exists('dead_letters')) {
      for (const d of await readDeadLetters(this.options.pool, this.schema)) out.push(this.projectionEntry(d));
    }
    if (await this.exists('transport_dead_letters')) {
      const r = await this.options.pool.query<{ group_name: string; source: string; partition: number; kafka_offset: string; reason: string; value: string | null; created_at: Date }>(
        `SELECT group_name, source, partition, kafka_offset, reason, value, created_at FROM ${this.schema}.transport_dead_letters
         ORDER BY created_at, group_name, source, partition, kafka_offset::numeric`,
      );
      for (const x of r.rows) {
        const read = readEnvelope(x.value);
        const projection = x.group_name.startsWith(`${this.schema}.`) ? x.group_name.slice(this.schema.length + 1) : null;
        out.push({
          id: `${x.group_name}@${x.source}/${x.partition}/${x.kafka_offset}`,
          kind: 'transport',
          schema: this.schema,
          group: x.group_name,
          projection: projection !== null && this.byName.has(projection) ? projection : null,
          source: x.source,
          type: read?.type ?? null,
          eventId: read?.eventId ?? null,
          streamId: read?.streamId ?? null,
          position: read?.position ?? null,
          partition: x.partition,
          offset: x.kafka_offset,
          error: x.reason,
          attempts: 1,
          createdAt: x.created_at,
          storeId: null,
          held: false,
        });
      }
    }
    return out;
  }

  /**
   * Retries a dead letter with the code deployed now. A projection's: applies the event (and any
   * event of its source between the checkpoint and it) to the live read model in one transaction
   * with the checkpoint, removes the dead letter and, when it was the projection's last one, marks
   * the projection running. A refused Kafka message that is a real event of its source: rebuilds
   * the projection from position 0 (the rebuild reads the source's events table, where the event
   * is), since the partition has moved on past it. Throws DeadLetterRetryError when it fails again.
   */
  async retry(id: string, rebuild: RebuildOptions = {}): Promise<DeadLetterOutcome> {
    const parsed = this.parse(id);
    if (parsed.kind === 'transport') return this.retryTransport(parsed, rebuild);
    return this.resolve(parsed.projection, parsed.n, 'retry');
  }

  /**
   * Leaves a dead letter's event out for good: a projection's checkpoint moves past it (events of
   * its source before it are applied first, as a retry would) and the projection, with no dead
   * letter left, runs again. A refused Kafka message is only removed (the partition went on already).
   */
  async skip(id: string): Promise<DeadLetterOutcome> {
    const parsed = this.parse(id);
    if (parsed.kind === 'transport') {
      const entry = await this.transportEntry(parsed);
      await this.options.pool.query(
        `DELETE FROM ${this.schema}.transport_dead_letters WHERE group_name = $1 AND source = $2 AND partition = $3 AND kafka_offset = $4`,
        [parsed.group, parsed.source, parsed.partition, parsed.offset],
      );
      return { outcome: 'skipped', entry, resumed: false };
    }
    return this.resolve(parsed.projection, parsed.n, 'skip');
  }

  // ---- projection dead letters -----------------------------------------------------------------

  private async resolve(projectionName: string, n: string, action: 'retry' | 'skip'): Promise<DeadLetterOutcome> {
    // A reaction's code needs its service's write model, which this process does not have: a
    // retry hands the event back to the running service, a skip only moves the checkpoint.
    const projection = await this.projection(projectionName);
    const isReaction = projection === 'reaction';
    const name = isReaction ? projectionName : projection.name;
    const transport = this.transport();
    const group = `${this.schema}.${name}`;
    if (!(await this.exists('dead_letters'))) throw new DeadLetterNotFoundError(`No existe el dead letter ${group}:${n} (${this.schema} no tiene dead letters)`);
    const live = isReaction ? {} : Object.fromEntries(projection.tables.map((t) => [t, `${this.schema}.${t}`]));
    const tx = await checkout(this.options.pool);
    let failure: unknown;
    try {
      await tx.query('BEGIN');
      // The projection's batch lock: no live batch of it runs in any process meanwhile.
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`projection:${group}`]);
      const dead = await lockDeadLetter(tx, this.schema, name, n);
      if (!dead) throw new DeadLetterNotFoundError(`No existe el dead letter ${group}:${n} (npm run replay -- --dead-letters los lista)`);
      const entry = this.projectionEntry(dead);
      if (dead.storeId !== null && !isReaction) {
        const result = await this.resolveForStore(tx, projection as Projection, live, dead, entry, action);
        await tx.query('COMMIT');
        this.options.logger?.info({ projection: name, eventId: entry.eventId, storeId: dead.storeId, outcome: result.outcome }, `Dead letter ${entry.id}: ${result.outcome}`);
        return result;
      }
      const position = entry.position!;
      const partition = transport.partitionOf && entry.streamId ? transport.partitionOf(entry.source, entry.streamId) : 0;
      await tx.query(`INSERT INTO ${this.schema}.subscription_checkpoints (group_name, source, partition) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [group, entry.source, partition]);
      const cp = await tx.query<{ transaction_id: string; global_position: string }>(
        `SELECT transaction_id::text, global_position FROM ${this.schema}.subscription_checkpoints WHERE group_name = $1 AND source = $2 AND partition = $3 FOR UPDATE`,
        [group, entry.source, partition],
      );
      const at: Position = { transactionId: cp.rows[0].transaction_id, globalPosition: Number(cp.rows[0].global_position) };
      let outcome: DeadLetterOutcome['outcome'] = action === 'skip' ? 'skipped' : 'applied';
      let applied = 0;
      if (comparePositions(at, position) >= 0) {
        outcome = 'already-applied';
      } else if (isReaction) {
        // The events between the checkpoint and the dead letter (none, normally) have not been
        // acted on either: moving the checkpoint past them would drop their effects.
        const before = transport.kind === 'postgres' ? await this.between(tx, entry.source, at, position) : [];
        if (before.length > 0) {
          throw new DeadLetterNotFoundError(
            `${group} es una reacción y tiene ${before.length} evento(s) de ${entry.source} anteriores a este sin procesar: reinténtalo con --retry ${entry.id} (el servicio ${this.schema} los procesa en orden)`,
          );
        }
        if (action === 'retry') {
          outcome = 'requeued';
        } else {
          await tx.query(
            `UPDATE ${this.schema}.subscription_checkpoints SET transaction_id = $4::xid8, global_position = $5, updated_at = now()
             WHERE group_name = $1 AND source = $2 AND partition = $3`,
            [group, entry.source, partition, position.transactionId, position.globalPosition],
          );
        }
      } else {
        // On PostgreSQL the checkpoint is the source's global order: the events between it and the
        // dead letter (none, normally) come first. A Kafka partition holds only some streams.
        const events = transport.kind === 'postgres' ? await this.between(tx, entry.source, at, position) : [];
        const batch = action === 'retry' ? [...events, await this.event(tx, dead)] : events;
        if (batch.length > 0) {
          await tx.query('SAVEPOINT dead_letter');
          try {
            await (projection as Projection).apply(tx, batch, live);
            await tx.query('RELEASE SAVEPOINT dead_letter');
          } catch (err) {
            if (isTransientError(err)) throw err;
            await tx.query('ROLLBACK TO SAVEPOINT dead_letter');
            const message = err instanceof Error ? err.message : String(err);
            await recordDeadLetterFailure(tx, this.schema, n, message);
            await tx.query('COMMIT');
            throw new DeadLetterRetryError({ ...entry, error: message, attempts: entry.attempts + 1 }, err);
          }
        }
        applied = batch.length;
        await tx.query(
          `UPDATE ${this.schema}.subscription_checkpoints SET transaction_id = $4::xid8, global_position = $5, updated_at = now()
           WHERE group_name = $1 AND source = $2 AND partition = $3`,
          [group, entry.source, partition, position.transactionId, position.globalPosition],
        );
      }
      await deleteDeadLetter(tx, this.schema, n);
      const resumed = await releaseIfNoDeadLetters(tx, this.schema, name);
      await tx.query('COMMIT');
      this.options.logger?.info({ projection: name, eventId: entry.eventId, outcome }, `Dead letter ${entry.id}: ${outcome}`);
      if (outcome === 'already-applied' || outcome === 'skipped' || outcome === 'requeued') return { outcome, entry, resumed };
      return { outcome: 'applied', entry, events: applied, resumed };
    } catch (err) {
      failure = err instanceof DeadLetterRetryError ? undefined : err;
      if (!(err instanceof DeadLetterRetryError)) await tx.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      tx.done(failure);
    }
  }

  /**
   * A dead letter set aside for one store (the projection went on for the others, its checkpoint is
   * past it): the event is applied (retry) or left out (skip), then the events of that store held
   * behind it, in order. One that fails becomes the store's dead letter in turn and the rest stay
   * held; the store's reads answer again once none is left. In the caller's transaction (batch lock held).
   */
  private async resolveForStore(tx: PoolClient, projection: Projection, live: Record<string, string>, dead: DeadLetter, entry: DeadLetterEntry, action: 'retry' | 'skip'): Promise<DeadLetterOutcome> {
    if (dead.held) {
      const head = (await tx.query<{ id: string }>(`SELECT id FROM ${this.schema}.dead_letters WHERE projection = $1 AND store_id = $2 AND NOT held ORDER BY id LIMIT 1`, [dead.projection, dead.storeId])).rows[0];
      throw new DeadLetterNotFoundError(
        `${entry.id} está apartado detrás de otro evento de la tienda ${dead.storeId}${head ? ` (${this.schema}.${dead.projection}:${head.id})` : ''}: reintenta o descarta ese primero y este se aplica después`,
      );
    }
    if (action === 'retry') {
      await tx.query('SAVEPOINT dead_letter');
      try {
        await projection.apply(tx, [await this.event(tx, dead)], live);
        await tx.query('RELEASE SAVEPOINT dead_letter');
      } catch (err) {
        if (isTransientError(err)) throw err;
        await tx.query('ROLLBACK TO SAVEPOINT dead_letter');
        const message = err instanceof Error ? err.message : String(err);
        await recordDeadLetterFailure(tx, this.schema, dead.id, message);
        await tx.query('COMMIT');
        throw new DeadLetterRetryError({ ...entry, error: message, attempts: entry.attempts + 1 }, err);
      }
    }
    await deleteDeadLetter(tx, this.schema, dead.id);
    let applied = action === 'retry' ? 1 : 0;
    for (const next of await heldForStore(tx, this.schema, dead.projection, dead.storeId!)) {
      await tx.query('SAVEPOINT dead_letter');
      try {
        await projection.apply(tx, [await this.event(tx, next)], live);
        await tx.query('RELEASE SAVEPOINT dead_letter');
      } catch (err) {
        if (isTransientError(err)) throw err;
        await tx.query('ROLLBACK TO SAVEPOINT dead_letter');
        // This one is now what the store waits for; the events after it stay held.
        await tx.query(`UPDATE ${this.schema}.dead_letters SET held = false, error = $2, attempts = attempts + 1, last_failed_at = now() WHERE id = $1`, [
          next.id,
          err instanceof Error ? err.message : String(err),
        ]);
        break;
      }
      await deleteDeadLetter(tx, this.schema, next.id);
      applied++;
    }
    const left = Number((await tx.query<{ n: string }>(`SELECT count(*) AS n FROM ${this.schema}.dead_letters WHERE projection = $1 AND store_id = $2`, [dead.projection, dead.storeId])).rows[0].n);
    if (action === 'skip') return { outcome: 'skipped', entry, resumed: left === 0 };
    return { outcome: 'applied', entry, events: applied, resumed: left === 0 };
  }

  /** The source's events strictly between two positions, in the global order. */
  private async between(tx: PoolClient, source: string, from: Position, to: Position): Promise<RecordedEventWithTx[]> {
    const r = await tx.query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM ${source}.events e
       WHERE (e.transaction_id, e.global_position) > ($1::xid8, $2::bigint) AND (e.transaction_id, e.global_position) < ($3::xid8, $4::bigint)
       ORDER BY e.transaction_id, e.global_position`,
      [from.transactionId, from.globalPosition, to.transactionId, to.globalPosition],
    );
    return r.rows.map(toRecorded);
  }

  /** The dead-lettered event as its source stores it (the dead letter's copy when the source's table is elsewhere). */
  private async event(tx: PoolClient, d: DeadLetter): Promise<RecordedEventWithTx> {
    if ((await tx.query<{ ok: boolean }>('SELECT to_regclass($1) IS NOT NULL AS ok', [`${d.source}.events`])).rows[0].ok) {
      const r = await tx.query<EventRow>(`SELECT ${EVENT_COLUMNS} FROM ${d.source}.events WHERE global_position = $1 AND transaction_id = $2::xid8`, [d.globalPosition, d.transactionId]);
      if (r.rows[0]) return toRecorded(r.rows[0]);
    }
    return deadLetterEvent(d);
  }

  // ---- refused Kafka messages --------------------------------------------------------------------

  private async retryTransport(id: TransportId, rebuild: RebuildOptions): Promise<DeadLetterOutcome> {
    const entry = await this.transportEntry(id);
    if (!entry.projection) {
      throw new DeadLetterNotFoundError(`${entry.group} no es una proyección de ${this.schema}: su mensaje rechazado no se puede reintentar desde aquí (descártalo con --skip)`);
    }
    const found =
      entry.position && entry.eventId
        ? await this.options.pool.query<{ ok: boolean }>(
            `SELECT true AS ok FROM ${entry.source}.events WHERE global_position = $1 AND transaction_id = $2::xid8 AND metadata->>'eventId' = $3`,
            [entry.position.globalPosition, entry.position.transactionId, entry.eventId],
          ).catch(() => ({ rowCount: 0 }))
        : { rowCount: 0 };
    if (!found.rowCount) {
      throw new DeadLetterNotFoundError(`El mensaje ${entry.id} no corresponde a ningún evento de ${entry.source} (${entry.error}): no hay nada que reintentar; descártalo con --skip`);
    }
    // The partition went on past the message: only a rebuild from the events table puts it in order.
    const target = await this.projection(entry.projection);
    if (target === 'reaction') {
      throw new DeadLetterNotFoundError(`${entry.group} es una reacción: no se reconstruye (repetiría sus efectos); su mensaje rechazado solo se descarta con --skip`);
    }
    const runner = new ProjectionRunner({
      pool: this.options.pool,
      schema: this.schema,
      transport: this.transport(),
      projections: [target],
      logger: this.options.logger,
    });
    const result = await runner.rebuild(entry.projection, { ...rebuild, verify: false });
    await this.options.pool.query(
      `DELETE FROM ${this.schema}.transport_dead_letters WHERE group_name = $1 AND source = $2 AND partition = $3 AND kafka_offset = $4`,
      [id.group, id.source, id.partition, id.offset],
    );
    return { outcome: 'rebuilt', entry, events: result.events, resumed: true };
  }

  private async transportEntry(id: TransportId): Promise<DeadLetterEntry> {
    const entry = (await this.list()).find((e) => e.kind === 'transport' && e.id === `${id.group}@${id.source}/${id.partition}/${id.offset}`);
    if (!entry) throw new DeadLetterNotFoundError(`No existe el dead letter ${id.group}@${id.source}/${id.partition}/${id.offset} (npm run replay -- --dead-letters los lista)`);
    return entry;
  }

  // ---- helpers -------------------------------------------------------------------------------------

  private projectionEntry(d: DeadLetter): DeadLetterEntry {
    return {
      id: `${this.schema}.${d.projection}:${d.id}`,
      kind: 'projection',
      schema: this.schema,
      group: `${this.schema}.${d.projection}`,
      projection: d.projection,
      source: d.source,
      type: d.type,
      eventId: d.eventId,
      streamId: d.streamId,
      position: { transactionId: d.transactionId, globalPosition: d.globalPosition },
      partition: null,
      offset: null,
      error: d.error,
      attempts: d.attempts,
      createdAt: d.createdAt,
      storeId: d.storeId,
      held: d.held,
    };
  }

  private parse(id: string): { kind: 'projection'; projection: string; n: string } | TransportId {
    const p = PROJECTION_ID.exec(id);
    if (p) {
      if (p[1] !== this.schema) throw new DeadLetterNotFoundError(`El dead letter ${id} no es de ${this.schema}`);
      return { kind: 'projection', projection: p[2], n: p[3] };
    }
    const t = TRANSPORT_ID.exec(id);
    if (t && t[1].startsWith(`${this.schema}.`)) return { kind: 'transport', group: t[1], source: t[2], partition: Number(t[3]), offset: t[4] };
    throw new DeadLetterNotFoundError(`Id de dead letter inválido: ${id} (por ejemplo reporting.sales:12, o reporting.sales@ordering/3/1042 para un mensaje de Kafka rechazado)`);
  }

  private transport(): EventTransport {
    if (!this.options.transport) throw new Error('DeadLetters necesita el transporte del servicio para reintentar o descartar');
    return this.options.transport;
  }

  /** A read model given to this tool, or 'reaction' for one of the service's reactions (known by its stored kind). */
  private async projection(name: string): Promise<Projection | 'reaction'> {
    const p = this.byName.get(name);
    if (p) return p.kind === 'reaction' ? 'reaction' : p;
    const kind = (await this.exists('projections'))
      ? (await this.options.pool.query<{ kind: string }>(`SELECT kind FROM ${this.schema}.projections WHERE name = $1`, [name]).catch(() => ({ rows: [] as { kind: string }[] }))).rows[0]?.kind
      : undefined;
    if (kind === 'reaction') return 'reaction';
    throw new DeadLetterNotFoundError(`${this.schema} no tiene la proyección "${name}" (tiene: ${[...this.byName.keys()].join(', ') || 'ninguna'})`);
  }

  private async exists(table: string): Promise<boolean> {
    return (await this.options.pool.query<{ ok: boolean }>('SELECT to_regclass($1) IS NOT NULL AS ok', [`${this.schema}.${table}`])).rows[0].ok;
  }
}

interface TransportId {
  kind: 'transport';
  group: string;
  source: string;
  partition: number;
  offset: string;
}

/** What can be read of a refused message: the envelope's identity, when it is JSON with one. */
function readEnvelope(value: string | null): { type: string | null; eventId: string | null; streamId: string | null; position: Position | null } | null {
  if (!value) return null;
  try {
    const v = JSON.parse(value) as Record<string, unknown>;
    const position =
      typeof v.globalPosition === 'number' && typeof v.transactionId === 'string' && /^\d{1,20}$/.test(v.transactionId)
        ? { transactionId: v.transactionId, globalPosition: v.globalPosition }
        : null;
    return {
      type: typeof v.type === 'string' ? v.type : null,
      eventId: typeof v.eventId === 'string' ? v.eventId : null,
      streamId: typeof v.streamId === 'string' ? v.streamId : null,
      position,
    };
  } catch {
    return null;
  }
}
