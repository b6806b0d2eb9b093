import type { PoolClient } from 'pg';
import type { Position, RecordedEventWithTx } from './event-table';

/** The events of one source after `from` up to and including `to`, in (transaction id, global position) order. */
export interface EventRange {
  source: string;
  from: Position;
  to: Position;
}

/** Where the stages of one range keep what they hand on (see `Projection.rangeStages`). */
export interface RangeScratch {
  /** Qualified prefix of this range's scratch tables: a stage names them `${prefix}_<what>`. */
  prefix: string;
  /** TEMP tables (one transaction runs every stage) rather than UNLOGGED ones shared across connections. */
  temporary: boolean;
}

/** One stage of a range applied in SQL. */
export type RangeStage<T extends string = string> = (tx: PoolClient, range: EventRange, t: Record<T, string>, scratch: RangeScratch) => Promise<void>;

/** `CREATE … TABLE` of a scratch table (`name` is `${scratch.prefix}_<what>`). */
export function createScratchTable(scratch: RangeScratch, name: string): string {
  return scratch.temporary ? `CREATE TEMP TABLE ${physicalName(name)}` : `CREATE UNLOGGED TABLE ${name}`;
}

/** The scratch of a range run in one transaction: TEMP tables in this session's temporary schema. */
export function temporaryScratch(name: string): RangeScratch {
  return { prefix: `pg_temp.${name}`, temporary: true };
}

/**
 * A read-model projection of one consuming service. Its tables are named through `t` so the
 * runner can build the same projection into shadow tables for a rebuild and swap them in.
 * Index and constraint names must be derived from the physical table names (see `physicalName`).
 */
export interface Projection<T extends string = string> {
  /** Unique within the service, e.g. 'product_list'. Consumer group: `<service>.<name>`. */
  name: string;
  /** Bumping it rebuilds the projection from position 0. */
  version: number;
  /** Source contexts whose events it reads, e.g. ['catalog', 'inventory']. */
  sources: readonly string[];
  /** Logical table names it owns. */
  tables: readonly T[];
  /** Creates its tables (IF NOT EXISTS) under the physical names given. */
  setup(tx: PoolClient, t: Record<T, string>): Promise<void>;
  /** Applies a batch of events (ordered per source) to its tables, inside the runner's transaction. */
  apply(tx: PoolClient, events: RecordedEventWithTx[], t: Record<T, string>): Promise<void>;
  /**
   * Optional, for rebuilds: applies every event of a range to the tables in SQL, without reading the
   * events into this process. It must leave exactly the rows `apply` leaves for the same events
   * (whatever the batching): a verified rebuild compares the result with the live tables, and the
   * projection's tests compare both paths. The rebuild calls it for consecutive ranges of at most
   * `rebuildRangeSize` events, each in its own transaction; the live runner always uses `apply`.
   */
  applyRange?(tx: PoolClient, range: EventRange, t: Record<T, string>): Promise<void>;
  /**
   * Optional, with `applyRange`: the same work split into stages that a rebuild runs as a pipeline,
   * each stage on its own connection and in its own transaction: stage k of a range starts once
   * stage k−1 of that range and stage k of the range before have committed, so stage 0 of the next
   * range runs while later stages work on earlier ones (a statement uses one CPU; the stages use
   * several). Stages hand their results on through tables named from `scratch` (each range has its
   * own), which a stage drops once it has read them. `applyRange` must give the same rows, e.g. by
   * running the stages one after another in its transaction with `temporaryScratch`.
   */
  rangeStages?: readonly RangeStage<T>[];
  /**
   * 'read-model' (the default) fills its own tables and can be rebuilt from position 0. A
   * 'reaction' acts on events (appends its service's events, moves reservations…): it shares the
   * runner's checkpoints, retries, dead letters and pause, but is never rebuilt, since replaying
   * would repeat its effects. A version change only records the new version, and its first start
   * keeps what its consumer group has already consumed.
   */
  kind?: 'read-model' | 'reaction';
  /**
   * Under a steady stream of events, the live subscription waits this long after a batch before
   * reading the next (default 0: at once), so events gather into fewer, larger batches: each batch
   * costs a transaction, a checkpoint and a pass of its own, and at 100 checkouts a second one pass
   * per event held both cores. A quiet source is still read at once on its NOTIFY; a read or a write
   * that waits for this projection (`caughtUp`, read-your-writes) cuts the wait short. Only for a
   * projection whose readers wait for it (ProjectionHost.fresh, waitForPosition): anything else would
   * see it up to this much later under load. Postgres transport only.
   */
  liveBatchDelayMs?: number;
}

/**
 * The liveBatchDelayMs of the projections on the checkout's path (session 15): at 100 checkouts a
 * second, 100 ms gathers ~10 checkouts into each batch; the machine's CPU per checkout fell from
 * 19.7 to 12.7 ms and the checkout's p99 from 158–376 ms to 53 ms in the ordering bench.
 */
export const STEADY_STREAM_BATCH_DELAY_MS = 100;

/** What a reaction is made of: a name (consumer group `<schema>.<name>`), its sources and its effect. */
export interface ReactionDefinition {
  name: string;
  /** Recorded in `<schema>.projections`; a change rebuilds nothing. Default 1. */
  version?: number;
  sources: readonly string[];
  /** Acts on a batch of events (ordered per source) inside the runner's transaction, which also saves the checkpoint. */
  apply(tx: PoolClient, events: RecordedEventWithTx[]): Promise<void>;
  /** See Projection.liveBatchDelayMs. */
  liveBatchDelayMs?: number;
}

/**
 * A reaction run by the ProjectionRunner: a poison event is retried a few times, then
 * dead-lettered, and pauses this reaction only (recorded in `<schema>.projections`).
 */
export function reaction(definition: ReactionDefinition): Projection<never> {
  return {
    kind: 'reaction',
    name: definition.name,
    version: definition.version ?? 1,
    sources: definition.sources,
    tables: [],
    setup: async () => undefined,
    apply: (tx, events) => definition.apply(tx, events),
    liveBatchDelayMs: definition.liveBatchDelayMs,
  };
}

/** The last part of a qualified name, e.g. 'catalog.products__rebuild' → 'products__rebuild', for index names. */
export function physicalName(qualified: string): string {
  return qualified.slice(qualified.lastIndexOf('.') + 1);
}

/** The qualified name of an index `<table>_<suffix>` of a qualified table, in the table's schema (for DROP INDEX). */
export function qualifiedIndexName(qualifiedTable: string, suffix: string): string {
  const dot = qualifiedTable.lastIndexOf('.');
  return `${dot < 0 ? '' : qualifiedTable.slice(0, dot + 1)}${physicalName(qualifiedTable)}_${suffix}`;
}
