import { QueryClient } from '@tanstack/react-query';
import { orderKeys } from './keys';
import { keepNewerOrders, settleOrder } from './order-cache';
import type { OrderListParams } from './get-orders';
import type { OrderListResponse, OrderView } from './types';

const PARAMS: OrderListParams = { page: 1, limit: 20, sortBy: 'createdAt', sortOrder: 'desc', search: 'XAYMZX' };

function order(id: string, paymentStatus: OrderView['paymentStatus'], updatedAt: string): OrderView {
  return {
    id,
    storeId: 's1',
    code: id.toUpperCase(),
    customerName: 'Rosa',
    customerPhone: '55517788',
    customerAddress: '2a calle',
    customerEmail: null,
    customerNit: null,
    subtotal: 50,
    tax: 6,
    total: 56,
    status: 'pending',
    orderType: 'whatsapp',
    paymentMethod: null,
    paymentStatus,
    notes: null,
    whatsappMessage: null,
    items: [],
    cashReceived: null,
    change: null,
    payments: [],
    refunds: [],
    amountPaid: paymentStatus === 'paid' ? 56 : 0,
    balanceDue: paymentStatus === 'paid' ? 0 : 56,
    createdAt: '2026-11-28T15:00:00.000Z',
    updatedAt,
  };
}

const list = (...orders: OrderView[]): OrderListResponse => ({ orders, total: orders.length, totalPages: 1, currentPage: 1 });

describe('las copias de un pedido en caché', () => {
  const pending = order('a1', 'pending', '2026-11-28T15:00:00.000Z');
  const paid = order('a1', 'paid', '2026-11-28T15:01:00.000Z');
  const other = order('b2', 'pending', '2026-11-28T14:00:00.000Z');

  it('una lista leída de nuevo conserva la copia más reciente de cada pedido y toma la del servidor en lo demás', () => {
    const merged = keepNewerOrders(list(paid, other), list(pending, { ...other, customerName: 'Rosa María' })) as OrderListResponse;
    expect(merged.orders.map((o) => o.paymentStatus)).toEqual(['paid', 'pending']);
    expect(merged.orders[1].customerName).toBe('Rosa María');
    // A newer copy from the server wins over the cached one.
    expect((keepNewerOrders(list(pending), list(paid)) as OrderListResponse).orders[0].paymentStatus).toBe('paid');
    // What is equal stays the same object (React re-renders nothing).
    const cached = list(paid, other);
    expect(keepNewerOrders(cached, list(paid, other))).toBe(cached);
  });

  it('el detalle leído de nuevo conserva la copia más reciente', () => {
    expect((keepNewerOrders(paid, pending) as OrderView).paymentStatus).toBe('paid');
    expect((keepNewerOrders(pending, paid) as OrderView).paymentStatus).toBe('paid');
    expect(keepNewerOrders(undefined, pending)).toEqual(pending);
  });

  it('tras registrar un pago la tarjeta dice Pagado aunque la lista releída llegue un momento atrasada', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    let served = list(pending, other);
    const options = { queryKey: orderKeys.list(PARAMS), queryFn: async () => served, structuralSharing: keepNewerOrders };
    await client.fetchQuery(options);
    expect(client.getQueryData(orderKeys.list(PARAMS))).toEqual(list(pending, other));

    await settleOrder(client, paid);
    expect(client.getQueryData<OrderListResponse>(orderKeys.list(PARAMS))!.orders[0].paymentStatus).toBe('paid');
    // Its detail, not read yet, opens with the payment.
    expect(client.getQueryData<OrderView>(orderKeys.detail('a1'))!.paymentStatus).toBe('paid');

    // The read model still behind: the list read again keeps the answered payment.
    await client.fetchQuery({ ...options, staleTime: 0 });
    expect(client.getQueryData<OrderListResponse>(orderKeys.list(PARAMS))!.orders[0].paymentStatus).toBe('paid');
    // Caught up, and a later change made elsewhere: the server's copy wins.
    served = list({ ...paid, status: 'confirmed', updatedAt: '2026-11-28T15:02:00.000Z' }, other);
    await client.fetchQuery({ ...options, staleTime: 0 });
    expect(client.getQueryData<OrderListResponse>(orderKeys.list(PARAMS))!.orders[0].status).toBe('confirmed');
    client.clear();
  });

  it('sin pedido en la respuesta (un cambio que no devuelve cuerpo) solo vuelve a leer', async () => {
    const client = new QueryClient();
    client.setQueryData(orderKeys.detail('a1'), pending);
    await settleOrder(client, null);
    expect(client.getQueryData<OrderView>(orderKeys.detail('a1'))).toEqual(pending);
    expect(client.getQueryState(orderKeys.detail('a1'))!.isInvalidated).toBe(true);
    client.clear();
  });
});
