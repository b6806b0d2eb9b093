/* eslint-disable @typescript-eslint/no-explicit-any -- responses are read loosely in tests */
import type { OrderPlaced, OrderStatus } from '@tiendita/contracts';
import { PostgresEventStore } from '@tiendita/eventsourcing';
import { randomUUID } from 'node:crypto';
import { registerAndLogin, type Stack, type StackClient, startStack } from '../../../gateway/test/support/stack';
import { orderDecider, orderStreamId, type OrderCommand, type OrderEvent, type OrderState } from '../src/orders/domain/order.decider';
import { ORDER_SEARCH_TEXT } from '../src/read-model/orders.projection';

/**
 * GET /api/orders against the rows themselves: every sort, both ways, under filters and searches,
 * read page by page (from either end of the sort's index), gives the filtered orders in the order
 * SQL gives them, with their total; and the search matches what ILIKE on the search text did.
 */
let stack: Stack;
let owner: StackClient;
let shop: { storeId: string; subdomain: string; userId: string };

const HOUR = 3_600_000;
const NAMES = ['María Pérez', 'JOSÉ PÉREZ', 'Ana Perez', 'Tienda 100% Natural', 'Tienda 1000 Natural', 'ana_maria', 'anaXmaria', 'Luis López', 'C\\D'];
const ORDERS = 46;
const day = (ms: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Guatemala' }).format(new Date(ms));
const now = Date.now();

beforeAll(async () => {
  stack = await startStack({ services: ['identity', 'ordering'], serviceEnv: { ordering: { ORDER_EXPIRY_SWEEP_MS: '3600000' } } });
  owner = stack.client();
  shop = await registerAndLogin(owner, { whatsappNumber: '5555-4444' });
  // Orders written as events (as the bench does): days apart, with equal times and equal totals
  // (so the id breaks ties), both types, and every status the list filters by.
  const events = new PostgresEventStore(stack.pool, 'ordering');
  const entries: { streamId: string; event: OrderEvent; metadata: { storeId: string; actor: string } }[] = [];
  let history = 0;
  for (let i = 0; i < ORDERS; i++) {
    const orderId = randomUUID();
    const pos = i % 3 === 0;
    const total = 1000 * (1 + (i % 7));
    const placedAt = new Date(now - ((i * 7) % 23) * 5 * HOUR).toISOString();
    const order: OrderPlaced = {
      orderId,
      storeId: shop.storeId,
      code: `C${String(i).padStart(5, '0')}`,
      orderType: pos ? 'pos' : 'whatsapp',
      status: pos ? 'completed' : 'pending',
      paymentMethod: pos ? 'cash' : 'whatsapp',
      paymentStatus: pos ? 'paid' : 'pending',
      customerName: NAMES[i % NAMES.length],
      customerPhone: pos ? null : `5${String(1000000 + i * 37)}`,
      customerAddress: null,
      customerEmail: null,
      customerNit: null,
      notes: null,
      items: [{ productId: randomUUID(), productName: 'Arroz', sku: null, quantity: 1, unitPrice: total, lineTotal: total }],
      subtotal: total - Math.round((total * 12) / 112),
      tax: Math.round((total * 12) / 112),
      total,
      cashReceived: null,
      change: null,
      whatsappMessage: null,
      placedBy: 'test',
      placedAt,
    };
    const steps: OrderStatus[] = pos ? [] : ([[], ['confirmed'], ['cancelled'], ['confirmed', 'preparing', 'ready', 'out_for_delivery', 'delivered', 'completed'], ['confirmed', 'preparing']] as OrderStatus[][])[i % 5];
    // Written as it was recorded (the event, not a checkout), then moved along by the decider.
    const placedEvent: OrderEvent = { type: 'OrderPlaced', data: order };
    entries.push({ streamId: orderStreamId(orderId), event: placedEvent, metadata: { storeId: shop.storeId, actor: 'test' } });
    history++;
    const commands: OrderCommand[] = steps.map((status, k) => ({
      type: 'ChangeOrderStatus',
      orderId,
      storeId: shop.storeId,
      status,
      notes: null,
      changedBy: 'test',
      changedById: 'test',
      changedAt: new Date(Date.parse(placedAt) + (k + 1) * 60_000).toISOString(),
    }));
    let state: OrderState = orderDecider.evolve(orderDecider.initialState(), placedEvent);
    for (const command of commands) {
      for (const event of orderDecider.decide(command, state)) {
        state = orderDecider.evolve(state, event);
        entries.push({ streamId: orderStreamId(orderId), event, metadata: { storeId: shop.storeId, actor: 'test' } });
        history++;
      }
    }
  }
  await events.appendEach(entries);
  events.close();
  // Every event is a line of an order's history once projected.
  const projected = async () => Number((await stack.pool.query('SELECT count(*) AS n FROM ordering.order_history WHERE store_id = $1', [shop.storeId])).rows[0].n);
  const deadline = Date.now() + 15_000;
  while ((await projected()) !== history && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  expect(await projected()).toBe(history);
}, 60_000);
afterAll(() => stack?.stop());

/** A filter as the list takes it, and the same filter in SQL over ordering.orders (parameters from $2). */
interface Case {
  query: string;
  sql: string;
  args: unknown[];
}

const escaped = (search: string) => `%${search.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
/** A search (ILIKE with $2), with a status filter ($3) when given. */
const searchCase = (search: string, status?: string): Case => ({
  query: `search=${encodeURIComponent(search)}${status ? `&status=${status}` : ''}`,
  sql: `${ORDER_SEARCH_TEXT} ILIKE $2${status ? ' AND status = $3' : ''}`,
  args: status ? [escaped(search), status] : [escaped(search)],
});

/** What the list must show: ILIKE on the search text, the filters, the sort and the id in the sort's direction. */
async function expected(c: Case, sortBy: string, desc: boolean): Promise<string[]> {
  const column = { createdAt: 'created_at', total: 'total', status: 'status', id: 'id' }[sortBy]!;
  const dir = desc ? 'DESC' : 'ASC';
  const r = await stack.pool.query<{ id: string }>(
    `SELECT id FROM ordering.orders WHERE store_id = $1 AND ${c.sql} ORDER BY ${column === 'id' ? `id ${dir}` : `${column} ${dir}, id ${dir}`}`,
    [shop.storeId, ...c.args],
  );
  return r.rows.map((row) => row.id);
}

async function pagesAgreeWithTheRows(cases: Case[], limits = [5, 20]): Promise<void> {
  for (const c of cases) {
    for (const sortBy of ['createdAt', 'total', 'status', 'id']) {
      for (const sortOrder of ['asc', 'desc']) {
        const want = await expected(c, sortBy, sortOrder === 'desc');
        for (const limit of limits) {
          const query = `${c.query}&sortBy=${sortBy}&sortOrder=${sortOrder}&limit=${limit}`;
          const pages: string[] = [];
          const totalPages = Math.max(1, Math.ceil(want.length / limit));
          for (let page = 1; page <= totalPages + 1; page++) {
            const body = (await owner.get(`/api/orders?${query}&page=${page}`)).body;
            expect({ query, page, total: body.total, totalPages: body.totalPages, currentPage: body.currentPage }).toEqual({ query, page, total: want.length, totalPages, currentPage: page });
            if (page > totalPages) expect({ query, page, past: body.orders }).toEqual({ query, page, past: [] });
            pages.push(...body.orders.map((o: any) => o.id));
          }
          expect({ query, pages }).toEqual({ query, pages: want });
        }
      }
    }
  }
}

describe('GET /api/orders: sorts both ways, filters, searches and pages', () => {
  it('every sort, both ways, under every filter: the pages add up to the filtered rows in order, with their total', async () => {
    const from = day(now - 2 * 24 * HOUR);
    const to = day(now - 24 * HOUR);
    await pagesAgreeWithTheRows([
      { query: 'x=1', sql: 'true', args: [] },
      { query: 'status=completed', sql: 'status = $2', args: ['completed'] },
      { query: 'status=pending', sql: 'status = $2', args: ['pending'] },
      { query: 'status=cancelled&orderType=whatsapp', sql: 'status = $2 AND order_type = $3', args: ['cancelled', 'whatsapp'] },
      { query: 'orderType=pos', sql: 'order_type = $2', args: ['pos'] },
      { query: 'paymentStatus=pending&status=preparing', sql: 'payment_status = $2 AND status = $3', args: ['pending', 'preparing'] },
      { query: 'status=ready', sql: 'status = $2', args: ['ready'] },
      {
        query: `startDate=${from}&endDate=${to}`,
        sql: `created_at >= ($2::date::timestamp AT TIME ZONE 'America/Guatemala') AND created_at < (($3::date + 1)::timestamp AT TIME ZONE 'America/Guatemala')`,
        args: [from, to],
      },
      { query: `startDate=${to}&orderType=whatsapp`, sql: `created_at >= ($2::date::timestamp AT TIME ZONE 'America/Guatemala') AND order_type = $3`, args: [to, 'whatsapp'] },
      searchCase('Pérez'),
      searchCase('a', 'pending'),
      searchCase('c0'),
    ]);
  }, 120_000);

  it('the search is ILIKE on customer, phone, code and id: any case, accents as typed, % _ and \\ taken literally', async () => {
    const names = async (search: string) => {
      const body = (await owner.get(`/api/orders?search=${encodeURIComponent(search)}&limit=50`)).body;
      expect(body.total).toBe(body.orders.length);
      return [...new Set(body.orders.map((o: any) => o.customerName as string))].sort();
    };
    // ILIKE ignores case, not accents: 'perez' is not 'Pérez'.
    expect(await names('perez')).toEqual(['Ana Perez']);
    expect(await names('PEREZ')).toEqual(['Ana Perez']);
    expect(await names('pérez')).toEqual(expect.arrayContaining(['María Pérez']));
    expect(await names('pérez')).not.toContain('Ana Perez');
    // Upper-case accented letters: whatever ILIKE does with them in this database (lower-casing by its locale).
    for (const search of ['PÉREZ', 'josé pérez', 'MARÍA']) {
      const want = await expected(searchCase(search), 'createdAt', true);
      expect({ search, ids: (await owner.get(`/api/orders?search=${encodeURIComponent(search)}&limit=50`)).body.orders.map((o: any) => o.id) }).toEqual({ search, ids: want });
    }
    expect(await names('100%')).toEqual(['Tienda 100% Natural']);
    expect(await names('a_m')).toEqual(['ana_maria']);
    expect(await names('\\')).toEqual(['C\\D']);
    expect(await names('%')).toEqual(['Tienda 100% Natural']);
    expect(await names('_')).toEqual(['ana_maria']);
    // Phone, code and id; a search that matches nothing, on any page.
    const one = (await owner.get('/api/orders?search=C00007')).body;
    expect(one.orders.map((o: any) => o.code)).toEqual(['C00007']);
    // A search answers the same order as the rest of the API (its own total, not the number of matches).
    expect(one.orders[0]).toEqual((await owner.get(`/api/orders/${one.orders[0].id}`)).body);
    const broad = (await owner.get('/api/orders?search=c0&sortBy=total&sortOrder=desc&limit=50')).body.orders;
    const plain = (await owner.get('/api/orders?sortBy=total&sortOrder=desc&limit=50')).body.orders;
    expect(broad).toEqual(plain);
    expect((await owner.get(`/api/orders?search=${one.orders[0].id.slice(-10).toUpperCase()}`)).body.orders.map((o: any) => o.code)).toEqual(['C00007']);
    expect((await owner.get(`/api/orders?search=${one.orders[0].customerPhone}`)).body.orders.map((o: any) => o.code)).toEqual(['C00007']);
    expect((await owner.get('/api/orders?search=nadie')).body).toMatchObject({ orders: [], total: 0, totalPages: 1 });
    expect((await owner.get('/api/orders?search=nadie&page=3')).body).toMatchObject({ orders: [], total: 0, currentPage: 3 });
    // Past the last page of a search, its total still comes, however far.
    expect((await owner.get('/api/orders?search=Perez&page=9&limit=5')).body).toMatchObject({ orders: [], total: (await expected(searchCase('Perez'), 'id', false)).length, currentPage: 9 });
    // As far as pages go (1,000,000, as the products list), and no further (issue 24: bounded, 400 in Spanish).
    expect((await owner.get('/api/orders?search=Perez&page=1000000&limit=50')).body).toMatchObject({ orders: [], total: (await expected(searchCase('Perez'), 'id', false)).length });
    expect((await owner.get('/api/orders?page=1000000&limit=50')).body).toMatchObject({ orders: [], total: ORDERS });
    const far = await owner.get('/api/orders?page=1000000000000000000&limit=50');
    expect([far.status, far.body.message]).toEqual([400, 'Página inválida: usa un número entero entre 1 y 1000000.']);
  }, 60_000);

  it('after status changes the counts and the pages still agree', async () => {
    const pending = (await owner.get('/api/orders?status=pending&limit=50')).body.orders;
    for (const o of pending.slice(0, 3)) expect((await owner.put(`/api/orders/${o.id}/status`, { status: 'cancelled' })).status).toBe(200);
    // Changes are answered from their events: the list's read waits for the projection, then the rows are compared.
    expect((await owner.get('/api/orders?status=cancelled&limit=50')).body.orders.map((o: { id: string }) => o.id)).toEqual(expect.arrayContaining(pending.slice(0, 3).map((o: { id: string }) => o.id)));
    await pagesAgreeWithTheRows(
      [
        { query: 'status=pending', sql: 'status = $2', args: ['pending'] },
        { query: 'status=cancelled', sql: 'status = $2', args: ['cancelled'] },
        searchCase('ana', 'cancelled'),
      ],
      [5],
    );
  }, 60_000);

  it('a search called again follows its store: a status change or a new order shows in the next call', async () => {
    const search = async (query: string) => (await owner.get(`/api/orders?search=a&${query}&limit=50`)).body;
    const pendingBefore = await search('status=pending');
    expect(await search('status=pending')).toEqual(pendingBefore);
    expect(pendingBefore.orders.length).toBeGreaterThan(0);
    const [gone] = pendingBefore.orders;
    expect((await owner.put(`/api/orders/${gone.id}/status`, { status: 'cancelled' })).status).toBe(200);
    const pendingAfter = await search('status=pending');
    expect(pendingAfter.total).toBe(pendingBefore.total - 1);
    expect(pendingAfter.orders.map((o: any) => o.id)).not.toContain(gone.id);
    expect((await search('status=cancelled')).orders.map((o: any) => o.id)).toContain(gone.id);

    // A new order of the same customer, written as an event: the next search finds it.
    const everything = await search('sortBy=createdAt&sortOrder=desc');
    const orderId = randomUUID();
    const placed: OrderEvent[] = [{ type: 'OrderPlaced', data: { ...(gone as any), orderId, storeId: shop.storeId, code: 'NUEVO1', customerName: 'Rosa Pérez', status: 'pending', paymentMethod: 'whatsapp', paymentStatus: 'pending', orderType: 'whatsapp', customerPhone: '55550000', customerAddress: null, customerEmail: null, customerNit: null, notes: null, items: [{ productId: randomUUID(), productName: 'Arroz', sku: null, quantity: 1, unitPrice: 1000, lineTotal: 1000 }], subtotal: 893, tax: 107, total: 1000, cashReceived: null, change: null, whatsappMessage: null, placedBy: 'test', placedAt: new Date().toISOString() } as OrderPlaced }];
    const events = new PostgresEventStore(stack.pool, 'ordering');
    await events.append(orderStreamId(orderId), placed, 0, { storeId: shop.storeId, actor: 'test' });
    events.close();
    const deadline = Date.now() + 10_000;
    while (!(await stack.pool.query('SELECT 1 FROM ordering.orders WHERE id = $1', [orderId])).rows[0] && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const after = await search('sortBy=createdAt&sortOrder=desc');
    expect(after.total).toBe(everything.total + 1);
    expect(after.orders[0]).toMatchObject({ id: orderId, code: 'NUEVO1', customerName: 'Rosa Pérez' });
  }, 60_000);
});
