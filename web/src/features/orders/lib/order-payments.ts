import type { OrderView } from '../api/types';

/** Whether the owner can still take money for an order: it is not cancelled and something is due. */
export function canRecordPayment(order: Pick<OrderView, 'status' | 'balanceDue'>): boolean {
  return order.status !== 'cancelled' && order.balanceDue > 0;
}

