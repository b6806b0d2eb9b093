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
  touched: Set<string>;
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
