import { ORDER_NEXT_STATUS, ORDER_NOT_CANCELLABLE, ORDER_STATUS_LABELS, type OrderPlaced, type OrderStatus, type OrderStatusChanged } from '@tiendita/contracts';
import { assertNever, type Decider, IllegalStateError, NotFoundError } from '@tiendita/eventsourcing';

/** Events of an order (stream `order-<orderId>`). */
export type OrderEvent = { type: 'OrderPlaced'; data: OrderPlaced } | { type: 'OrderStatusChanged'; data: OrderStatusChanged };

export type OrderState = { status: 'none' } | { status: 'placed'; order: OrderPlaced; current: OrderStatus; updatedAt: string };

/** Places the order (after its stock was reserved). Placing an order already placed is a no-op (retries, Idempotency-Key). */
export interface PlaceOrder {
  type: 'PlaceOrder';
  order: OrderPlaced;
}

/** The owner moves the order one step forward or cancels it. */
export interface ChangeOrderStatus {
  type: 'ChangeOrderStatus';
  orderId: string;
  storeId: string;
  status: OrderStatus;
  notes: string | null;
  changedBy: string;
  changedAt: string;
}

/** The system cancels a pending order not confirmed in time; a no-op once it left pending. */
export interface ExpireOrder {
  type: 'ExpireOrder';
  orderId: string;
  notes: string;
  changedAt: string;
}

export type OrderCommand = PlaceOrder | ChangeOrderStatus | ExpireOrder;

export const orderStreamId = (orderId: string): string => `order-${orderId}`;

/** Whether the status flow of spec §4 allows `from` → `to`. */
export function canChangeStatus(from: OrderStatus, to: OrderStatus): boolean {
  if (to === 'cancelled') return !ORDER_NOT_CANCELLABLE.includes(from);
  return ORDER_NEXT_STATUS[from] === to;
}

export function illegalChangeMessage(from: OrderStatus, to: OrderStatus): string {
  return `No se puede pasar el pedido de ${ORDER_STATUS_LABELS[from]} a ${ORDER_STATUS_LABELS[to]}`;
}

export function evolveOrder(state: OrderState, event: OrderEvent): OrderState {
  switch (event.type) {
    case 'OrderPlaced':
      if (state.status !== 'none') return state;
      return { status: 'placed', order: event.data, current: event.data.status, updatedAt: event.data.placedAt };
    case 'OrderStatusChanged':
      if (state.status !== 'placed') return state;
      return { ...state, current: event.data.status, updatedAt: event.data.changedAt };
    default:
      return state;
  }
}

function decide(command: OrderCommand, state: OrderState): OrderEvent[] {
  switch (command.type) {
    case 'PlaceOrder':
      if (state.status !== 'none') return [];
      return [{ type: 'OrderPlaced', data: command.order }];
    case 'ChangeOrderStatus': {
      if (state.status !== 'placed' || state.order.storeId !== command.storeId) throw new NotFoundError('Pedido no encontrado');
      if (!canChangeStatus(state.current, command.status)) {
        throw new IllegalStateError(illegalChangeMessage(state.current, command.status), { from: state.current, to: command.status });
      }
      return [
        {
          type: 'OrderStatusChanged',
          data: {
            orderId: command.orderId,
            storeId: command.storeId,
            status: command.status,
            previousStatus: state.current,
            notes: command.notes,
            changedBy: command.changedBy,
            changedAt: command.changedAt,
          },
        },
      ];
    }
    case 'ExpireOrder':
      if (state.status !== 'placed' || state.current !== 'pending') return [];
      return [
        {
          type: 'OrderStatusChanged',
          data: {
            orderId: command.orderId,
            storeId: state.order.storeId,
            status: 'cancelled',
            previousStatus: 'pending',
            notes: command.notes,
            changedBy: 'system',
            changedAt: command.changedAt,
          },
        },
      ];
    default:
      return assertNever(command);
  }
}

export const orderDecider: Decider<OrderState, OrderCommand, OrderEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: evolveOrder,
  decide,
};
