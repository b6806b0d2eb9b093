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
}

/** The last part of a qualified name, e.g. 'catalog.products__rebuild' → 'products__rebuild', for index names. */
export function physicalName(qualified: string): string {
  return qualified.slice(qualified.lastIndexOf('.') + 1);
}
