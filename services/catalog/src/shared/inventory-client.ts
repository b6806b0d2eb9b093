import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { type ImportStockRequest, ImportStockResponse, InventoryMessages, type SetStockRequest, SetStockResponse } from '@tiendita/contracts';
import { type Position } from '@tiendita/eventsourcing';
import { InternalClient, type OwnerIdentity, SERVICE_CONFIG, ServiceUnavailableError } from '@tiendita/service-kit';
import type { CatalogConfig } from '../config';

export type { SetStockRequest } from '@tiendita/contracts';

/** The reason inventory records for a stock change made in the product form. */
export const PRODUCT_FORM_STOCK_REASON = 'Corrección desde el formulario de producto';

/**
 * Catalog → inventory: the product form's stock edit, an idempotent internal command (the same
 * adjustmentId applied twice records one adjustment), sent through service-kit's signed client,
 * which retries it after a lost connection and passes inventory's own errors on as they are.
 */
@Injectable()
export class InventoryClient implements OnModuleDestroy {
  private readonly client: InternalClient<'inventory'>;

  constructor(@Inject(SERVICE_CONFIG) config: CatalogConfig) {
    this.client = new InternalClient({ inventory: config.INVENTORY_URL }, config.INTERNAL_SECRET, { connections: 16 });
  }

  async setStock(owner: OwnerIdentity, productId: string, body: SetStockRequest): Promise<{ position: Position | null }> {
    try {
      const res = await this.client.json('inventory', 'POST', `/internal/stock-items/${productId}/set`, body, owner, { idempotent: true, schema: SetStockResponse });
      return { position: res.position ?? null };
    } catch (error) {
      if (error instanceof ServiceUnavailableError) throw new ServiceUnavailableError(InventoryMessages.stockUpdateFailed);
      throw error;
    }
  }

  /** A product import's stock counts, item by item (idempotent on each adjustmentId); refused items answer their message. */
  async importStock(owner: OwnerIdentity, body: ImportStockRequest): Promise<ImportStockResponse> {
    try {
      return await this.client.json('inventory', 'POST', '/internal/stock-items/import', body, owner, { idempotent: true, schema: ImportStockResponse, timeoutMs: 60_000 });
    } catch (error) {
      if (error instanceof ServiceUnavailableError) throw new ServiceUnavailableError(InventoryMessages.stockUpdateFailed);
      throw error;
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.client.close();
  }
}
