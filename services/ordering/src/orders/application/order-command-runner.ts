import { Injectable } from '@nestjs/common';
import { isUuid, OrderMessages, type OrderView } from '@tiendita/contracts';
import { type HandleCommandResult, NotFoundError } from '@tiendita/eventsourcing';
import type { OwnerIdentity } from '@tiendita/service-kit';
import type { OrderCommand, OrderEvent, OrderState } from '../domain/order.decider';
import { OrderReader } from './order-reader';
import { commandOrderId, OrderWriter } from './order-writer';

/**
 * An owner's command on one order: written through the one command path, answered with the order as
 * its events now make it (the write model's state, as the orders projection will show it: no wait
 * for the projection, whose reads catch up on their own, see OrderReader.fresh).
 */
@Injectable()
export class OrderCommandRunner {
  constructor(
    private readonly writer: OrderWriter,
    private readonly reader: OrderReader,
  ) {}

  async run(owner: OwnerIdentity, command: OrderCommand): Promise<{ result: HandleCommandResult<OrderState, OrderEvent>; view: () => Promise<OrderView> }> {
    const orderId = commandOrderId(command);
    // A malformed id cannot name an order: the same 404 as another store's order.
    if (!isUuid(orderId)) throw new NotFoundError(OrderMessages.orderNotFound);
    const result = await this.writer.run(command, { storeId: owner.storeId, actor: owner.userId });
    return { result, view: () => this.reader.ofState(owner.storeId, result.newState) };
  }
}
