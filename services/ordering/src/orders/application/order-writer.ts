import { Inject, Injectable } from '@nestjs/common';
import { fold, handleCommand, type HandleCommandResult, type PostgresEventStore } from '@tiendita/eventsourcing';
import { EVENT_STORE } from '@tiendita/service-kit';
import { checkedOrderDecider, type OrderCommand, type OrderEvent, orderDecider, type OrderState, orderStreamId } from '../domain/order.decider';

/** The order a command is about. */
export const commandOrderId = (c: OrderCommand): string => (c.type === 'PlaceOrder' ? c.command.orderId : c.orderId);

/**
 * The one command path of ordering: load the order's stream, decide, parse every event with its
 * contract schema, append with the expected version (handleCommand retries a clash).
 */
@Injectable()
export class OrderWriter {
  constructor(@Inject(EVENT_STORE) private readonly store: PostgresEventStore) {}

  run(command: OrderCommand, metadata: { storeId: string; actor: string }, retries = 3): Promise<HandleCommandResult<OrderState, OrderEvent>> {
    // A placement names an order the checkout has just made an id for (or found unplaced): its stream
    // is decided on without reading it; one placed meanwhile clashes and is read then.
    return handleCommand(this.store, orderStreamId(commandOrderId(command)), checkedOrderDecider, command, { metadata, retries, newStream: command.type === 'PlaceOrder' });
  }

  /** The order as its stream has it now. */
  async load(orderId: string): Promise<OrderState> {
    const recorded = await this.store.readStream(orderStreamId(orderId));
    return fold(orderDecider, recorded.map((r) => ({ type: r.type, data: r.data }) as OrderEvent));
  }
}
