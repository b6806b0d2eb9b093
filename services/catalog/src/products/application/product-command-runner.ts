import { Inject, Injectable } from '@nestjs/common';
import { CatalogMessages } from '@tiendita/contracts';
import { handleCommand, type HandleCommandResult, NotFoundError, type PostgresEventStore } from '@tiendita/eventsourcing';
import type { OwnerIdentity } from '@tiendita/service-kit';
import { CATALOG_EVENT_STORE } from '../../shared/tokens';
import type { ProductCommand } from '../domain/product.decide';
import { productDecider } from '../domain/product.decider';
import { productStreamId } from '../domain/product.events';
import type { ProductEvent } from '../domain/product.events';
import type { ProductState } from '../domain/product.state';
import { ProjectionHost } from '../../shared/projection-host';
import { isUuid } from '../../shared/sql';

/** The shared four steps of every product command: load + fold, decide, append, retry on a clash. */
@Injectable()
export class ProductCommandRunner {
  constructor(
    @Inject(CATALOG_EVENT_STORE) private readonly store: PostgresEventStore,
    private readonly readModels: ProjectionHost,
  ) {}

  /** Runs the command; resolves once the product views show the product's stream as it now is. */
  async run(owner: OwnerIdentity, command: ProductCommand): Promise<HandleCommandResult<ProductState, ProductEvent>> {
    // A malformed id cannot name a product: the same 404 as another store's product.
    if (!isUuid(command.productId)) throw new NotFoundError(CatalogMessages.productNotFound);
    const streamId = productStreamId(command.productId);
    const result = await handleCommand(this.store, streamId, productDecider, command, {
      metadata: { storeId: owner.storeId, actor: owner.userId },
    });
    await this.readModels.waitForStream(streamId, result.version);
    return result;
  }
}
