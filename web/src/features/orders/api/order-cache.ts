import { type QueryClient, replaceEqualDeep } from '@tanstack/react-query';
import { invalidateSalesFigures } from '../../reports/api/reports-api';
import { orderKeys } from './keys';
import type { OrderListResponse, OrderView } from './types';

// A change to an order (a payment, a refund, a new status) answers the order as its events left
// it, and the owner's list is a read model that may be a moment behind (it waits for it, at most a
// second, then answers what it has). So the answer goes into every cached copy of the order at
// once, and a list or detail read again keeps the newer of two copies: the card never goes back
// to 'Pendiente' after 'Pago registrado'.

/** updatedAt is the time of the order's last event: of two copies, the later one is newer. */
function newer(cached: OrderView, fetched: OrderView): OrderView {
  return Date.parse(cached.updatedAt) > Date.parse(fetched.updatedAt) ? cached : fetched;
}

function isOrder(data: unknown): data is OrderView {
  return typeof data === 'object' && data !== null && typeof (data as OrderView).id === 'string' && typeof (data as OrderView).updatedAt === 'string';
}

function isList(data: unknown): data is OrderListResponse {
  return typeof data === 'object' && data !== null && Array.isArray((data as OrderListResponse).orders);
}

/**
 * The structural sharing of the orders' queries: a page or an order read again keeps each order's
 * newer copy (what a change answered, while the read model catches up), then shares what is equal.
 */
export function keepNewerOrders(cached: unknown, fetched: unknown): unknown {
  if (isList(cached) && isList(fetched)) {
    const held = new Map(cached.orders.map((o) => [o.id, o]));
    const orders = fetched.orders.map((o) => {
      const mine = held.get(o.id);
      return mine ? newer(mine, o) : o;
    });
    return replaceEqualDeep(cached, { ...fetched, orders });
  }
  if (isOrder(cached) && isOrder(fetched) && cached.id === fetched.id) return replaceEqualDeep(cached, newer(cached, fetched));
  return replaceEqualDeep(cached, fetched);
}

/**
 * After a change the server answered: the order as its detail (opening it shows the change at once)
 * and into every cached page that lists it, then every orders query (and the sales figures) read again.
 */
export function settleOrder(queryClient: QueryClient, order: OrderView | null): Promise<unknown> {
  if (order) {
    queryClient.setQueryData<OrderView>(orderKeys.detail(order.id), (cached) => (cached ? (keepNewerOrders(cached, order) as OrderView) : order));
    queryClient.setQueriesData<OrderListResponse>({ queryKey: [...orderKeys.all, 'list'] }, (page) =>
      page && page.orders.some((o) => o.id === order.id) ? { ...page, orders: page.orders.map((o) => (o.id === order.id ? newer(order, o) : o)) } : page,
    );
  }
  return Promise.all([queryClient.invalidateQueries({ queryKey: orderKeys.all }), invalidateSalesFigures(queryClient)]);
}
