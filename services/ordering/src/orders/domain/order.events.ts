import { OrderingEventSchemas, type OrderPlaced, type OrderStatusChanged, type PaymentRecorded, type PaymentRefunded } from '@tiendita/contracts';

/** Events of an order (stream `order-<orderId>`). */
export type OrderEvent =
  | { type: 'OrderPlaced'; data: OrderPlaced }
  | { type: 'OrderStatusChanged'; data: OrderStatusChanged }
  | { type: 'PaymentRecorded'; data: PaymentRecorded }
  | { type: 'PaymentRefunded'; data: PaymentRefunded };

export const orderStreamId = (orderId: string): string => `order-${orderId}`;

/** An event checked against its contract schema (what is appended is what consumers will parse). */
export function parseOrderEvent(event: OrderEvent): OrderEvent {
  return { type: event.type, data: OrderingEventSchemas[event.type].parse(event.data) } as OrderEvent;
}
