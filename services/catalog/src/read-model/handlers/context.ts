import {
  CatalogEventSchemas,
  type CatalogEventType,
  InventoryStockEventSchemas,
  type InventoryStockEventType,
} from '@tiendita/contracts';
import type { RecordedEventWithTx } from '@tiendita/eventsourcing';
import type { PoolClient } from 'pg';
import type { CatalogTables } from '../catalog-tables';

/** What every event handler of the catalog projection gets. */
export interface EventContext {
  tx: PoolClient;
  t: CatalogTables;
  event: RecordedEventWithTx;
  /** Products whose shop JSON (public_json) must be made again at the end of the batch. */
  touched: TouchedProducts;
}

/**
 * The products a batch changed (their shop JSON is made again at its end, and they are announced).
 * `current` holds those whose JSON a run of stock moves already made with the row it wrote (see
 * onStockMoves); any later change to such a product takes it out again, so its JSON is made at the
 * end like the others'.
 */
export class TouchedProducts extends Set<string> {
  readonly current = new Set<string>();

  override add(id: string): this {
    this.current?.delete(id);
    return super.add(id);
  }

  /** The product's row and JSON were written together, after every earlier change of the batch. */
  addCurrent(id: string): void {
    this.add(id);
    this.current.add(id);
  }

  /** The products whose JSON must still be made. */
  stale(): string[] {
    return [...this].filter((id) => !this.current.has(id));
  }
}

/** Applies one event to the read model. */
export type EventHandler = (context: EventContext) => Promise<void>;

/** The event's data parsed with its catalog contract. */
export function parseCatalog<K extends CatalogEventType>(type: K, data: unknown) {
  return CatalogEventSchemas[type].parse(data) as ReturnType<(typeof CatalogEventSchemas)[K]['parse']>;
}

/** The event's data parsed with its inventory contract. */
export function parseInventory<K extends InventoryStockEventType>(type: K, data: unknown) {
  return InventoryStockEventSchemas[type].parse(data) as ReturnType<(typeof InventoryStockEventSchemas)[K]['parse']>;
}
