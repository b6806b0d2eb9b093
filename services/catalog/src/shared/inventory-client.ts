import { Inject, Injectable } from '@nestjs/common';
import { ErrorBody, InventoryMessages } from '@tiendita/contracts';
import { DomainError, type Position } from '@tiendita/eventsourcing';
import { SERVICE_CONFIG, signInternalHeaders, type OwnerIdentity } from '@tiendita/service-kit';
import type { CatalogConfig } from '../config';

export interface SetStockRequest {
  /** Idempotency key: the same id applied twice records one adjustment. */
  adjustmentId: string;
  newStock: number;
  adjustmentType: 'correction';
  reason: string;
  /** Opens the stock item with this value first if ProductCreated has not reached inventory yet. */
  openingStock: number;
}

/** The reason inventory records for a stock change made in the product form. */
export const PRODUCT_FORM_STOCK_REASON = 'Corrección desde el formulario de producto';

/**
 * Catalog → inventory: the product form's stock edit, an idempotent internal command over HTTP
 * signed like the gateway's calls (the owner's user and store). Retries a failed connection.
 */
@Injectable()
export class InventoryClient {
  constructor(@Inject(SERVICE_CONFIG) private readonly config: CatalogConfig) {}

  async setStock(owner: OwnerIdentity, productId: string, body: SetStockRequest): Promise<{ position: Position | null }> {
    const path = `/internal/stock-items/${productId}/set`;
    let lastError: unknown;
    for (let attempt = 0; attempt < 3; attempt++) {
      let res: Response;
      try {
        res = await fetch(new URL(path, this.config.INVENTORY_URL), {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...signInternalHeaders(this.config.INTERNAL_SECRET, { method: 'POST', path, ...owner }) },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(5000),
        });
      } catch (error) {
        lastError = error;
        await new Promise((r) => setTimeout(r, 100 * (attempt + 1)));
        continue;
      }
      if (res.ok) return { position: ((await res.json()) as { position?: Position | null }).position ?? null };
      const parsed = ErrorBody.safeParse(await res.json().catch(() => null));
      if (res.status < 500 && parsed.success) throw new DomainError(parsed.data.message, res.status, parsed.data.code, parsed.data.details);
      lastError = new Error(`inventario respondió ${res.status}`);
      if (res.status !== 503) break;
    }
    throw new DomainError(InventoryMessages.stockUpdateFailed, 503, 'SERVICE_UNAVAILABLE', { cause: String(lastError) });
  }
}
