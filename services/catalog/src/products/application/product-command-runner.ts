import { ProjectionHost, EVENT_STORE } from '@tiendita/service-kit';
import { Inject, Injectable } from '@nestjs/common';
import { CatalogMessages } from '@tiendita/contracts';
import { fold, handleCommand, type HandleCommandResult, NotFoundError, type PostgresEventStore } from '@tiendita/eventsourcing';
import type { OwnerIdentity } from '@tiendita/service-kit';
import type { ProductCommand } from '../domain/product.decide';
import { productDecider } from '../domain/product.decider';
import { productStreamId } from '../domain/product.events';
import type { ProductEvent } from '../domain/product.events';
import type { ProductState } from '../domain/product.state';
import { isUuid } from '../../shared/sql';

/** The shared four steps of every product command: load + fold, decide, append, retry on a clash. */
@Injectable()
export class ProductCommandRunner {
  constructor(
    @Inject(EVENT_STORE) private readonly store: PostgresEventStore,
    private readonly readModels: ProjectionHost,
  ) {}

  /**
   * Decides the command on the stream as it is now without appending anything: throws the error
   * the command would (404, 400…) and answers the current state. Lets a handler check a command
   * before it asks another service for its part (the product form's stock goes to inventory first).
   */
  async check(command: ProductCommand): Promise<ProductState> {
    if (!isUuid(command.productId)) throw new NotFoundError(CatalogMessages.productNotFound);
    const recorded = await this.store.readStream(productStreamId(command.productId));
    const state = fold(productDecider, recorded.map((r) => ({ type: r.type, data: r.data }) as ProductEvent));
    productDecider.decide(command, state);
    return state;
  }

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
