import { ApiError } from '../../../lib/api';
import { filterCatalog } from './catalog-filter';
import { enqueueSale, isPermanentRefusal, localNumber, MemoryQueueStore, queuedSales, retrySale, sendQueue } from './sale-queue';

const coffee = { productId: '11111111-1111-4111-8111-111111111111', name: 'Café', quantity: 2, price: 20.5 };
const bread = { productId: '22222222-2222-4222-8222-222222222222', name: 'Pan', quantity: 1, price: 5 };
const customer = { customerName: 'Cliente en tienda', customerNit: 'CF' };
const messageOf = (e: unknown) => (e instanceof ApiError ? (e.serverMessage ?? 'error') : 'Sin conexión con el servidor.');

async function queueOf(n: number) {
  const store = new MemoryQueueStore('TK7');
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = `00000000-0000-4000-8000-00000000000${i}`;
    ids.push(id);
    await enqueueSale(store, { deviceSaleId: id, lines: [coffee, bread], cashReceived: 50, customer, now: new Date(`2026-11-28T10:0${i}:00Z`) });
  }
  return { store, ids };
}

describe('the offline sale queue', () => {
  it('a queued sale carries its body for POST /api/orders: cash, the lines, the device id, its local number, when and the prices shown', async () => {
    const store = new MemoryQueueStore('TK7');
    const sale = await enqueueSale(store, { deviceSaleId: 'abc', lines: [coffee, bread], cashReceived: 50, customer, now: new Date('2026-11-28T10:00:00Z') });
    expect(sale).toMatchObject({ localNumber: 'TK7-0001', total: 46, change: 4, status: 'pending', attempts: 0 });
    expect(sale.body).toEqual({
      ...customer,
      paymentMethod: 'cash',
      cashReceived: 50,
      items: [
        { productId: coffee.productId, quantity: 2 },
        { productId: bread.productId, quantity: 1 },
      ],
      offline: {
        deviceSaleId: 'abc',
        localNumber: 'TK7-0001',
        soldAt: '2026-11-28T10:00:00.000Z',
        shownPrices: [
          { productId: coffee.productId, unitPrice: 20.5 },
          { productId: bread.productId, unitPrice: 5 },
        ],
      },
    });
    expect((await enqueueSale(store, { deviceSaleId: 'def', lines: [bread], cashReceived: null, customer })).localNumber).toBe('TK7-0002');
    expect(localNumber('T1', 12345)).toBe('T1-12345');
  });

  it("a card sale (the owner's 'pago con tarjeta pendiente de confirmar') is queued as card, without cash or change", async () => {
    const store = new MemoryQueueStore('TK7');
    const sale = await enqueueSale(store, { deviceSaleId: 'abc', lines: [coffee], paymentMethod: 'card', cashReceived: 100, customer });
    expect(sale).toMatchObject({ paymentMethod: 'card', cashReceived: null, change: null, total: 41 });
    expect(sale.body.paymentMethod).toBe('card');
    expect(sale.body).not.toHaveProperty('cashReceived', 100);
    expect(sale.body.cashReceived).toBeUndefined();
    expect((await enqueueSale(store, { deviceSaleId: 'def', lines: [coffee], cashReceived: 50, customer })).paymentMethod).toBe('cash');
  });

  it('sends oldest first and empties the queue', async () => {
    const { store, ids } = await queueOf(3);
    const sent: string[] = [];
    const r = await sendQueue(store, async (s) => void sent.push(s.deviceSaleId), messageOf);
    expect(r).toEqual({ sent: 3, failed: 0, stopped: false });
    expect(sent).toEqual(ids);
    expect(await queuedSales(store)).toEqual([]);
  });

  it('a network failure stops the round and keeps that sale and the later ones, in order, for the next', async () => {
    const { store, ids } = await queueOf(3);
    let calls = 0;
    const r = await sendQueue(
      store,
      async () => {
        if (++calls === 2) throw new TypeError('Failed to fetch');
      },
      messageOf,
      { concurrency: 1 },
    );
    expect(r).toEqual({ sent: 1, failed: 0, stopped: true });
    const left = await queuedSales(store);
    expect(left.map((s) => [s.deviceSaleId, s.status, s.attempts, s.error])).toEqual([
      [ids[1], 'pending', 1, 'Sin conexión con el servidor.'],
      [ids[2], 'pending', 0, null],
    ]);
    // A server busy (503) or a lost session (401) is tried again too.
    expect(isPermanentRefusal(new ApiError(503, '{"message":"Servicio no disponible"}'))).toBe(false);
    expect(isPermanentRefusal(new ApiError(401, '{"message":"No autenticado"}'))).toBe(false);
  });

  it('sends a few at a time, started oldest first; after a network failure no further sale starts and the rest wait', async () => {
    const { store, ids } = await queueOf(9);
    const started: string[] = [];
    let inFlight = 0;
    let most = 0;
    const r = await sendQueue(
      store,
      async (s) => {
        started.push(s.deviceSaleId);
        if (s.deviceSaleId === ids[4]) throw new TypeError('Failed to fetch');
        most = Math.max(most, ++inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight--;
      },
      messageOf,
      { concurrency: 3 },
    );
    expect(most).toBe(3);
    // Sales 1-3 start together, 4 and 5 as the first two end; 5 fails at once, so 6 never starts.
    expect(started).toEqual(ids.slice(0, 5));
    expect(r).toEqual({ sent: 4, failed: 0, stopped: true });
    const left = await queuedSales(store);
    expect(left.map((s) => [s.deviceSaleId, s.attempts])).toEqual([
      [ids[4], 1],
      [ids[5], 0],
      [ids[6], 0],
      [ids[7], 0],
      [ids[8], 0],
    ]);
    // The next round sends the rest.
    expect((await sendQueue(store, async () => undefined, messageOf)).sent).toBe(5);
    expect(await queuedSales(store)).toEqual([]);
  });

  it('a sale the server refuses for good is kept as failed with its message; the others still go; retried, it goes again', async () => {
    const { store, ids } = await queueOf(3);
    const refuse = ids[0];
    const r = await sendQueue(
      store,
      async (s) => {
        if (s.deviceSaleId === refuse) throw new ApiError(400, '{"message":"La fecha de la venta sin conexión está en el futuro."}');
      },
      messageOf,
    );
    expect(r).toEqual({ sent: 2, failed: 1, stopped: false });
    const [failed] = await queuedSales(store);
    expect(failed).toMatchObject({ deviceSaleId: refuse, status: 'failed', error: 'La fecha de la venta sin conexión está en el futuro.' });
    // Not sent again by the next round until the owner retries it.
    const again = await sendQueue(store, async () => undefined, messageOf);
    expect(again.sent).toBe(0);
    await retrySale(store, refuse);
    expect((await sendQueue(store, async () => undefined, messageOf)).sent).toBe(1);
    expect(await queuedSales(store)).toEqual([]);
  });

  it('a sale sent twice keeps its device id (the server answers the same order): the queue sends the same body', async () => {
    const { store } = await queueOf(1);
    const bodies: unknown[] = [];
    await sendQueue(
      store,
      async (s) => {
        bodies.push(s.body);
        throw new TypeError('lost answer');
      },
      messageOf,
    );
    await sendQueue(store, async (s) => void bodies.push(s.body), messageOf);
    expect(bodies).toHaveLength(2);
    expect(bodies[0]).toEqual(bodies[1]);
  });
});

describe('the offline catalogue', () => {
  const product = (name: string, sku: string | null, categoryId: string | null, isActive = true) =>
    ({ id: name, name, sku, categoryId, isActive, stock: 1, finalPrice: 1 }) as unknown as Parameters<typeof filterCatalog>[0][number];
  const all = [product('Pan dulce', 'PAN-1', 'c1'), product('Café de altura', 'CAF-400', 'c2'), product('Azúcar', null, 'c1', false)];

  it('finds by name without accents or by SKU, within a category, active only, by name', () => {
    expect(filterCatalog(all, 'cafe', 'all').map((p) => p.name)).toEqual(['Café de altura']);
    expect(filterCatalog(all, 'pan-1', 'all').map((p) => p.name)).toEqual(['Pan dulce']);
    expect(filterCatalog(all, '', 'c1').map((p) => p.name)).toEqual(['Pan dulce']);
    expect(filterCatalog(all, '', 'all').map((p) => p.name)).toEqual(['Café de altura', 'Pan dulce']);
  });
});
