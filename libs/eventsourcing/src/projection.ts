import type { PoolClient } from 'pg';
import type { RecordedEventWithTx } from './event-store';

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
   * 'read-model' (the default) fills its own tables and can be rebuilt from position 0. A
   * 'reaction' acts on events (appends its service's events, moves reservations…): it shares the
   * runner's checkpoints, retries, dead letters and pause, but is never rebuilt, since replaying
   * would repeat its effects. A version change only records the new version, and its first start
   * keeps what its consumer group has already consumed.
   */
  kind?: 'read-model' | 'reaction';
}

/** What a reaction is made of: a name (consumer group `<schema>.<name>`), its sources and its effect. */
export interface ReactionDefinition {
  name: string;
  /** Recorded in `<schema>.projections`; a change rebuilds nothing. Default 1. */
  version?: number;
  sources: readonly string[];
  /** Acts on a batch of events (ordered per source) inside the runner's transaction, which also saves the checkpoint. */
  apply(tx: PoolClient, events: RecordedEventWithTx[]): Promise<void>;
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
  };
}

/** The last part of a qualified name, e.g. 'catalog.products__rebuild' → 'products__rebuild', for index names. */
export function physicalName(qualified: string): string {
  return qualified.slice(qualified.lastIndexOf('.') + 1);
}
