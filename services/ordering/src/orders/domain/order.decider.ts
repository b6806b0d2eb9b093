import type { Decider } from '@tiendita/eventsourcing';
import type { OrderCommand } from './order.commands';
import { decideOrder } from './order.decide';
import { type OrderEvent, parseOrderEvent } from './order.events';
import { evolveOrder, type OrderState } from './order.state';

export type { ChangeOrderStatus, ExpireOrder, OrderCommand, OrderCustomer, PlaceOrder, RecordPayment, RefundPayment, StoreSnapshot } from './order.commands';
export { canChangeStatus, illegalChangeMessage } from './order.decide';
export { type OrderEvent, orderStreamId } from './order.events';
export { balanceDue, evolveOrder, type OrderState, paymentStatusOf, type PlacedOrderState } from './order.state';

/** The Order aggregate as a pure decider (stream `order-<orderId>`). */
export const orderDecider: Decider<OrderState, OrderCommand, OrderEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: evolveOrder,
  decide: decideOrder,
};

/** The decider the application writes with: every event it decides is parsed with its contract schema before it is appended. */
export const checkedOrderDecider: Decider<OrderState, OrderCommand, OrderEvent> = {
  ...orderDecider,
  decide: (command, state) => decideOrder(command, state).map(parseOrderEvent),
};
