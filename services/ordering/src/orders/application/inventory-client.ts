import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { type ReserveStockRequest, ReserveStockResponse } from '@tiendita/contracts';
import type { Position } from '@tiendita/eventsourcing';
import { type CallerIdentity, InternalClient, SERVICE_CONFIG } from '@tiendita/service-kit';
import type { OrderingConfig } from '../../config';

/**
 * Ordering → inventory: reserve (or, for a POS sale, sell) an order's stock before the order
 * exists. Idempotent by orderId, so the signed client may retry it; inventory's own errors
 * (409 'Sin Stock: …') come back as the same typed errors and reach the browser unchanged.
 */
@Injectable()
export class InventoryClient implements OnModuleDestroy {
  private readonly client: InternalClient<'inventory'>;

  constructor(@Inject(SERVICE_CONFIG) config: OrderingConfig) {
    this.client = new InternalClient({ inventory: config.INVENTORY_URL }, config.INTERNAL_SECRET, { connections: 32 });
  }

  reserve(caller: CallerIdentity, body: ReserveStockRequest): Promise<ReserveStockResponse> {
    return this.client.json('inventory', 'POST', '/internal/reservations', body, caller, { idempotent: true, schema: ReserveStockResponse });
  }

  /** Waits (at most ~2 s) until inventory has acted on ordering's events up to `position` (a cancellation's units back). */
  settled(caller: CallerIdentity, position: Position): Promise<{ settled: boolean }> {
    // Best effort, once: the status change has happened whatever this answers.
    return this.client.json('inventory', 'POST', '/internal/reservations/settled', position, caller, { idempotent: false, timeoutMs: 3000 });
  }

  /** Gives back the units held for an order that was never placed (its append failed). */
  release(caller: CallerIdentity, orderId: string): Promise<{ released: number }> {
    return this.client.json('inventory', 'POST', '/internal/reservations/release', { orderId }, caller, { idempotent: true });
  }

  async onModuleDestroy(): Promise<void> {
    await this.client.close();
  }
}
