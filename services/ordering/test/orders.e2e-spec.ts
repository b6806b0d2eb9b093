/* eslint-disable @typescript-eslint/no-explicit-any -- responses are read loosely in tests */
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { testEnv } from '@tiendita/service-kit/testing';
import { randomUUID } from 'node:crypto';
import { registerAndLogin, type Stack, type StackClient, startStack } from '../../../gateway/test/support/stack';
import { createApp } from '../src/app';
import { uploadImage } from '../../catalog/test/support';
import { ExpirySweep } from '../src/orders/application/expiry-sweep';

/** Orders through the gateway: identity, inventory, catalog and ordering over real HTTP and PostgreSQL. */
let stack: Stack;
let owner: StackClient;
let shop: Awaited<ReturnType<typeof registerAndLogin>>;
let other: StackClient;
let otherShop: { storeId: string; subdomain: string; userId: string };
const shopper = () => stack.client();

beforeAll(async () => {
  stack = await startStack({ services: ['identity', 'inventory', 'catalog', 'ordering'], serviceEnv: { ordering: { ORDER_EXPIRY_SWEEP_MS: '3600000' } } });
  owner = stack.client();
  shop = await registerAndLogin(owner, { whatsappNumber: '5555-1234' });
  other = stack.client();
  otherShop = await registerAndLogin(other);
  await until(async () => (await stack.pool.query('SELECT 1 FROM ordering.stores WHERE id = ANY($1::uuid[])', [[shop.storeId, otherShop.storeId]])).rowCount, (n) => n === 2);
}, 60_000);
afterAll(() => stack?.stop());

async function until<T>(probe: () => Promise<T>, ok: (v: T) => boolean, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (ok(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

const stockRow = async (productId: string) =>
  (await stack.pool.query<{ on_hand: number; reserved: number }>('SELECT on_hand, reserved FROM inventory.stock_rows WHERE product_id = $1', [productId])).rows[0];

/** Creates a product through catalog and waits until ordering and inventory know it. */
async function product(client: StackClient, body: Record<string, unknown>): Promise<string> {
  const res = await client.post('/api/products', { categoryId: 'none', images: [], isActive: true, ...body });
  if (res.status !== 201) throw new Error(`producto: ${res.status} ${res.text}`);
  const id: string = res.body.id;
  await until(async () => (await stack.pool.query('SELECT 1 FROM ordering.products WHERE id = $1', [id])).rowCount, (n) => n === 1);
  await until(() => stockRow(id), (r) => r !== undefined);
  return id;
}

const customerData = { name: 'María Pérez', phone: '5555-0000', address: 'Zona 1, Guatemala', notes: 'Tocar el timbre' };

describe('public checkout', () => {
  it('charges the server’s discounted price whatever the client sends, with IVA contained in the total', async () => {
    const cafe = await product(owner, { name: 'Café de Antigua', sku: 'CAF-1', price: 75.5, discountPercentage: 10, stock: 20 });
    const pan = await product(owner, { name: 'Pan dulce', price: 5, discountPercentage: 0, stock: 20 });
    const res = await shopper().post(`/api/public/orders/${shop.subdomain}`, {
      customerData,
      items: [
        { productId: cafe, quantity: 2, price: 0.01 },
        { productId: pan, quantity: 3, price: 0 },
      ],
      total: 1,
      subtotal: 1,
    });
    expect(res.status).toBe(201);
    // 7550 × 0.9 = 6795 per coffee; 2 × 67.95 + 3 × 5 = 150.90
    expect(res.body).toMatchObject({ status: 'pending', total: 150.9 });
    const tax = Math.round(15090 - 15090 / 1.12);
    expect(res.body.tax).toBe(tax / 100);
    expect(res.body.subtotal).toBe((15090 - tax) / 100);
    expect(res.body.items).toEqual([
      { productId: cafe, productName: 'Café de Antigua', sku: 'CAF-1', quantity: 2, price: 67.95, lineTotal: 135.9 },
      { productId: pan, productName: 'Pan dulce', sku: null, quantity: 3, price: 5, lineTotal: 15 },
    ]);
    expect(res.body.code).toMatch(/^[A-HJ-KM-NP-Z2-9]{6}$/);
    const message: string = res.body.whatsappMessage;
    for (const part of [res.body.code, '2 x Café de Antigua', 'Q67.95', 'Q135.90', 'Total: Q150.90', 'María Pérez', '5555-0000', 'Zona 1, Guatemala', 'Tocar el timbre']) expect(message).toContain(part);
    expect(res.body.whatsappUrl).toBe(`https://wa.me/50255551234?text=${encodeURIComponent(message)}`);
    // Held in inventory, not yet sold.
    expect(await stockRow(cafe)).toMatchObject({ on_hand: 20, reserved: 2 });
  });

  it('validates the customer, the lines and the store with the spec’s messages', async () => {
    const p = await product(owner, { name: 'Tortillas', price: 1, stock: 50 });
    const inactive = await product(owner, { name: 'Producto viejo', price: 1, stock: 5, isActive: false });
    const foreign = await product(other, { name: 'Ajeno', price: 1, stock: 5 });
    const post = (body: unknown, store = shop.subdomain) => shopper().post(`/api/public/orders/${store}`, body);
    const line = [{ productId: p, quantity: 1 }];
    for (const c of [{}, { name: 'Ana' }, { phone: '5555' }, { name: ' ', phone: '5555' }]) {
      const r = await post({ customerData: c, items: line });
      expect(r.status).toBe(400);
      expect(r.body.message).toBe('Datos incompletos: Por favor completa tu nombre y teléfono.');
    }
    expect((await post({ customerData: { ...customerData, name: 'x'.repeat(256) }, items: line })).status).toBe(400);
    expect((await post({ customerData: { ...customerData, phone: '1'.repeat(21) }, items: line })).status).toBe(400);
    expect((await post({ customerData: { ...customerData, notes: 'x'.repeat(1001) }, items: line })).status).toBe(400);
    expect((await post({ customerData, items: [] })).body.message).toBe('Carrito Vacío');
    const many = Array.from({ length: 101 }, () => ({ productId: randomUUID(), quantity: 1 }));
    expect((await post({ customerData, items: many })).status).toBe(400);
    for (const quantity of [0, -1, 1.5, 'dos']) expect((await post({ customerData, items: [{ productId: p, quantity }] })).body.message).toBe('La cantidad debe ser un número entero mayor o igual a 1.');
    const off = await post({ customerData, items: [{ productId: inactive, quantity: 1 }] });
    expect(off.status).toBe(400);
    expect(off.body.message).toBe('Producto no disponible: Producto viejo');
    const alien = await post({ customerData, items: [{ productId: foreign, quantity: 1 }] });
    expect(alien.status).toBe(400);
    expect(alien.body.message).toContain(foreign);
    const missing = await post({ customerData, items: line }, 'no-existe-esta-tienda');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Tienda No Encontrada');
    // `cart` is accepted as the lines key, and the store by id.
    const byId = await post({ customerData, cart: line }, shop.storeId);
    expect(byId.status).toBe(201);
    // The spec's cart line (§3: product, quantity, price): the product's id names it, the price is ignored.
    const specLine = await post({ customerData, cart: [{ product: { id: p, name: 'Tortillas', price: 1 }, quantity: 2, price: 0.01 }] });
    expect(specLine.status).toBe(201);
    expect(specLine.body.items).toEqual([expect.objectContaining({ productId: p, quantity: 2, price: 1 })]);
    for (const bad of [{ quantity: 1 }, { productId: '', quantity: 1 }, { product: {}, quantity: 1 }]) {
      const r = await post({ customerData, items: [bad] });
      expect(r.status).toBe(400);
      expect(r.body.message).toBe('Producto inválido');
    }
    // More than available: inventory's 409 'Sin Stock' passes through unchanged.
    const tooMany = await post({ customerData, items: [{ productId: p, quantity: 51 }] });
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.message).toMatch(/^Sin Stock/);
    expect(tooMany.body.message).toContain('Tortillas');
  });

  it('the same Idempotency-Key makes one order', async () => {
    const p = await product(owner, { name: 'Frijoles', price: 12, stock: 10 });
    const body = { customerData, items: [{ productId: p, quantity: 2 }] };
    const key = randomUUID();
    const [a, b] = await Promise.all([
      shopper().post(`/api/public/orders/${shop.subdomain}`, body, { 'idempotency-key': key }),
      shopper().post(`/api/public/orders/${shop.subdomain}`, body, { 'idempotency-key': key }),
    ]);
    const c = await shopper().post(`/api/public/orders/${shop.subdomain}`, body, { 'idempotency-key': key });
    expect([a.status, b.status, c.status]).toEqual([201, 201, 201]);
    expect(b.body.id).toBe(a.body.id);
    expect(c.body).toEqual(a.body);
    expect(await stockRow(p)).toMatchObject({ reserved: 2 });
    const n = await stack.pool.query(`SELECT count(*)::int AS n FROM ordering.events WHERE type = 'OrderPlaced' AND data->'items'->0->>'productId' = $1`, [p]);
    expect(n.rows[0].n).toBe(1);
  });

  it('oversell: 50 concurrent orders for 5 units, exactly 5 succeed and available never goes below 0', async () => {
    const p = await product(owner, { name: 'Último lote', price: 10, stock: 5 });
    const results = await Promise.all(
      Array.from({ length: 50 }, () => shopper().post(`/api/public/orders/${shop.subdomain}`, { customerData, items: [{ productId: p, quantity: 1 }] })),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 409)).toHaveLength(45);
    expect(results.find((r) => r.status === 409)!.body.message).toMatch(/^Sin Stock/);
    expect(await stockRow(p)).toMatchObject({ on_hand: 5, reserved: 5 });
  }, 60_000);

});

/** The text a receipt PDF shows: pdfkit (uncompressed) writes each run as hex of WinAnsi bytes. */
function pdfText(body: string): string {
  const runs = [...body.matchAll(/\[((?:<[0-9a-fA-F]*>\s*-?[\d.]*\s*)+)\]\s*TJ/g)].map((m) =>
    [...m[1].matchAll(/<([0-9a-fA-F]*)>/g)].map((h) => Buffer.from(h[1], 'hex').toString('latin1')).join(''),
  );
  return runs.join('\n');
}

describe('store settings act on the public checkout (issue 13)', () => {
  let client: StackClient;
  let s: { storeId: string; subdomain: string; userId: string };
  let p: string;
  /** PUT /api/store/{id} through the gateway, then waits until ordering's copy of the store shows `column` = `value`. */
  const setStore = async (changes: Record<string, unknown>, column: string, value: unknown) => {
    const res = await client.put(`/api/store/${s.storeId}`, changes);
    expect(res.status).toBe(200);
    await until(async () => (await stack.pool.query(`SELECT ${column} AS v FROM ordering.stores WHERE id = $1`, [s.storeId])).rows[0]?.v, (v) => v === value);
  };
  const order = (data: Record<string, unknown> = customerData) => shopper().post(`/api/public/orders/${s.subdomain}`, { customerData: data, items: [{ productId: p, quantity: 1 }] });

  beforeAll(async () => {
    client = stack.client();
    s = await registerAndLogin(client, { whatsappNumber: '5555-7777' });
    p = await product(client, { name: 'Cerrado', price: 1, stock: 50 });
  });

  it('allowOnlineOrders off, or no WhatsApp number, refuses public orders with 409; back on, orders come in', async () => {
    await setStore({ allowOnlineOrders: false }, 'allow_online_orders', false);
    const off = await order();
    expect(off.status).toBe(409);
    expect(off.body.message).toBe('Esta tienda no está aceptando pedidos en línea por ahora.');
    // The shop reads the same two fields to hide its checkout.
    expect((await shopper().get(`/api/public/store/${s.subdomain}`)).body).toMatchObject({ allowOnlineOrders: false, whatsappNumber: '5555-7777' });
    await setStore({ allowOnlineOrders: true }, 'allow_online_orders', true);
    expect((await order()).status).toBe(201);

    await setStore({ whatsappNumber: null }, 'whatsapp_number', null);
    const noNumber = await order();
    expect(noNumber.status).toBe(409);
    expect(noNumber.body.message).toBe('Esta tienda no está aceptando pedidos en línea por ahora.');
    await setStore({ whatsappNumber: '5555-7777', allowOnlineOrders: true }, 'whatsapp_number', '5555-7777');
    expect((await order()).status).toBe(201);
  });

  it('requireCustomerInfo makes the address required', async () => {
    await setStore({ requireCustomerInfo: true }, 'require_customer_info', true);
    for (const address of [undefined, '', '   ']) {
      const r = await order({ name: 'Ana', phone: '5555-1111', address });
      expect(r.status).toBe(400);
      expect(r.body.message).toBe('Datos incompletos: Por favor completa tu dirección de entrega.');
      expect(r.body.details.fields.address).toBe('Datos incompletos: Por favor completa tu dirección de entrega.');
    }
    expect((await order({ name: 'Ana', phone: '5555-1111', address: '6a calle 2-30, zona 1' })).status).toBe(201);
    await setStore({ requireCustomerInfo: false }, 'require_customer_info', false);
    expect((await order({ name: 'Ana', phone: '5555-1111' })).status).toBe(201);
  });

  it("an inactive store answers 'Tienda No Encontrada' to the shop and to orders", async () => {
    await setStore({ isActive: false }, 'is_active', false);
    const r = await order();
    expect(r.status).toBe(404);
    expect(r.body.message).toBe('Tienda No Encontrada');
    await until(async () => (await shopper().get(`/api/public/store/${s.subdomain}`)).status, (status) => status === 404);
    expect((await shopper().get(`/api/public/store/${s.subdomain}`)).status).toBe(404);
    await setStore({ isActive: true }, 'is_active', true);
    expect((await order()).status).toBe(201);
  });

  it('the tax regime sets the tax of new orders and what receipts say; receipts carry the header, footer and logo', async () => {
    const general = await client.post('/api/orders', { paymentMethod: 'card', items: [{ productId: p, quantity: 10 }] });
    expect(general.body.tax).toBe(Math.round(1000 - 1000 / 1.12) / 100);
    const logoUrl = await uploadImage(client);
    const settings = await client.put('/api/store/settings', { taxRegime: 'pequeno_contribuyente', receiptHeader: 'NIT 1234567-8\nGracias por preferirnos', receiptFooter: 'Vuelva pronto' });
    expect(settings.status).toBe(200);
    await setStore({ logoUrl, address: 'Calle del Arco 5, Antigua' }, 'logo_url', logoUrl);
    await until(async () => (await stack.pool.query('SELECT tax_rate::float8 AS v FROM ordering.stores WHERE id = $1', [s.storeId])).rows[0].v, (v) => v === 0.05);
    const small = await client.post('/api/orders', { paymentMethod: 'cash', cashReceived: 20, items: [{ productId: p, quantity: 10 }] });
    expect(small.body.tax).toBe(Math.round(1000 - 1000 / 1.05) / 100);

    const pdf = await client.get(`/api/orders/${small.body.id}/receipt.pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const text = pdfText(pdf.text);
    for (const part of ['Calle del Arco 5, Antigua', 'NIT 1234567-8', 'Gracias por preferirnos', 'Impuesto (5%)', 'Pequeño Contribuyente: impuesto del 5%.', 'Vuelva pronto', small.body.code, 'Cliente en tienda']) {
      expect(text).toContain(part);
    }
    expect(text).not.toContain('¡Gracias por su compra!');
    expect(pdf.text).toMatch(/\/Subtype\s*\/Image/);
    // An order charged under the general regime still says IVA 12% when printed again.
    const before = pdfText((await client.get(`/api/orders/${general.body.id}/receipt.pdf`)).text);
    expect(before).toContain('IVA (12%)');
    expect(before).toContain('Precios incluyen IVA (12%)');
  });
});

describe('point of sale', () => {
  it('refuses an empty cart, too little cash and kash/zigi; a cash sale is completed, paid, sold at once, with change', async () => {
    const p = await product(owner, { name: 'Refresco', price: 10, discountPercentage: 20, stock: 10 });
    expect((await owner.post('/api/orders', { items: [], paymentMethod: 'cash' })).body.message).toBe('Carrito Vacío');
    const short = await owner.post('/api/orders', { items: [{ productId: p, quantity: 3, price: 10 }], paymentMethod: 'cash', cashReceived: 23.99 });
    expect(short.status).toBe(400);
    expect(short.body.message).toBe('Pago Insuficiente: El monto recibido es menor al total de la venta');
    const kash = await owner.post('/api/orders', { items: [{ productId: p, quantity: 1 }], paymentMethod: 'kash' });
    expect(kash.status).toBe(400);
    expect(kash.body.message).toContain('Próximamente');
    const sale = await owner.post(
      '/api/orders',
      { customerName: '', orderType: 'pos', paymentMethod: 'cash', paymentStatus: 'pending', status: 'pending', total: 1, subtotal: 1, cashReceived: 50, items: [{ productId: p, quantity: 3, price: 0.5 }] },
      { 'idempotency-key': 'venta-1' },
    );
    expect(sale.status).toBe(201);
    expect(sale.body).toMatchObject({ orderType: 'pos', status: 'completed', paymentStatus: 'paid', paymentMethod: 'cash', customerName: 'Cliente en tienda', customerNit: 'CF', total: 24, cashReceived: 50, change: 26 });
    expect(sale.body.code).toHaveLength(6);
    expect(await stockRow(p)).toMatchObject({ on_hand: 7, reserved: 0 });
    const again = await owner.post('/api/orders', { paymentMethod: 'cash', cashReceived: 50, items: [{ productId: p, quantity: 3 }] }, { 'idempotency-key': 'venta-1' });
    expect(again.body.id).toBe(sale.body.id);
    expect(await stockRow(p)).toMatchObject({ on_hand: 7 });
    const card = await owner.post('/api/orders', { paymentMethod: 'card', customerNit: '1234567-9', customerName: 'Luis', items: [{ productId: p, quantity: 1 }] });
    expect(card.body).toMatchObject({ paymentMethod: 'card', customerNit: '1234567-9', cashReceived: null, change: null, total: 8 });
    // A receiver SAT would refuse is refused before the sale (issue 25): nothing is sold.
    const badNit = await owner.post('/api/orders', { paymentMethod: 'card', customerNit: '1234567-8', items: [{ productId: p, quantity: 1 }] });
    expect(badNit.status).toBe(400);
    expect(badNit.body.message).toBe('NIT inválido');
    const badCui = await owner.post('/api/orders', { paymentMethod: 'card', customerNit: '1234567890123', items: [{ productId: p, quantity: 1 }] });
    expect(badCui.status).toBe(400);
    expect(badCui.body.message).toBe('CUI inválido');
    expect(await stockRow(p)).toMatchObject({ on_hand: 6 });

    const pdf = await owner.get(`/api/orders/${sale.body.id}/receipt.pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.text.startsWith('%PDF-')).toBe(true);
  });
});

describe('owner orders', () => {
  it('moves an order along the flow, records history, refuses illegal changes; cancelling gives the units back', async () => {
    const p = await product(owner, { name: 'Queso', price: 30, stock: 10 });
    const placed = await shopper().post(`/api/public/orders/${shop.subdomain}`, { customerData, items: [{ productId: p, quantity: 4 }] });
    const id = placed.body.id;
    const bad = await owner.put(`/api/orders/${id}/status`, { status: 'delivered' });
    expect(bad.status).toBe(409);
    expect(bad.body.message).toBe('No se puede pasar el pedido de Pendiente a Entregado');
    const ok = await owner.put(`/api/orders/${id}/status`, { status: 'confirmed', notes: 'Confirmado por teléfono' });
    expect(ok.status).toBe(200);
    expect(ok.body.status).toBe('confirmed');
    expect((await owner.put(`/api/orders/${id}/status`, { status: 'cancelled', notes: 'Cliente canceló' })).status).toBe(200);
    const history = await owner.get(`/api/orders/${id}/history`);
    expect(history.body.map((h: any) => [h.previousStatus, h.status, h.notes])).toEqual([
      [null, 'pending', 'Pedido creado'],
      ['pending', 'confirmed', 'Confirmado por teléfono'],
      ['confirmed', 'cancelled', 'Cliente canceló'],
    ]);
    // Each entry names its author, never a raw id: the shopper for the order, the owner for the changes.
    const ownerName = `${shop.registration.firstName} ${shop.registration.lastName}`;
    expect(history.body.map((h: any) => h.createdBy)).toEqual([customerData.name, ownerName, ownerName]);
    expect(history.body[1]).toMatchObject({ orderId: id });
    // The screens read action, timestamp and notes (spec §3): the status reached and when.
    for (const h of history.body) expect(h).toMatchObject({ action: h.status, timestamp: h.createdAt });
    await until(() => stockRow(p), (r) => r.reserved === 0);
    expect(await stockRow(p)).toMatchObject({ on_hand: 10, reserved: 0 });
    expect((await owner.put(`/api/orders/${id}/status`, { status: 'confirmed' })).body.message).toBe('No se puede pasar el pedido de Cancelado a Confirmado');
  });

  it('the reads right after an order, a cancellation or a delivery show the stock it moved (no waiting by the client)', async () => {
    const p = await product(owner, { name: 'Tortillas', price: 5, stock: 10 });
    const available = async () => {
      const [products, inventory, shopList] = await Promise.all([
        owner.get('/api/products?limit=100'),
        owner.get('/api/inventory'),
        shopper().get(`/api/public/products/${shop.subdomain}?limit=100`),
      ]);
      const inv = (inventory.body as any[]).find((x) => x.id === p);
      return [products.body.products.find((x: any) => x.id === p).stock, inv.stock, inv.reserved, shopList.body.products.find((x: any) => x.id === p).stock];
    };
    for (let round = 0; round < 3; round++) {
      const placed = await shopper().post(`/api/public/orders/${shop.subdomain}`, { customerData, items: [{ productId: p, quantity: 3 }] });
      expect(placed.status).toBe(201);
      // The owner's list shows the order at once, and every stock view its hold.
      expect((await owner.get('/api/orders?search=' + placed.body.code)).body.total).toBe(1);
      expect(await available()).toEqual([7, 10, 3, 7]);
      expect((await owner.put(`/api/orders/${placed.body.id}/status`, { status: 'cancelled' })).status).toBe(200);
      expect(await available()).toEqual([10, 10, 0, 10]);
    }
    const sold = await shopper().post(`/api/public/orders/${shop.subdomain}`, { customerData, items: [{ productId: p, quantity: 2 }] });
    for (const status of ['confirmed', 'preparing', 'ready', 'out_for_delivery']) expect((await owner.put(`/api/orders/${sold.body.id}/status`, { status })).status).toBe(200);
    // Out for delivery: the units left the shelf.
    expect(await available()).toEqual([8, 8, 0, 8]);
  });

  it("another store's order answers 404 on every route", async () => {
    const p = await product(owner, { name: 'Secreto', price: 1, stock: 5 });
    const { body } = await shopper().post(`/api/public/orders/${shop.subdomain}`, { customerData, items: [{ productId: p, quantity: 1 }] });
    for (const res of [
      await other.get(`/api/orders/${body.id}`),
      await other.get(`/api/orders/${body.id}/history`),
      await other.get(`/api/orders/${body.id}/receipt.pdf`),
      await other.put(`/api/orders/${body.id}/status`, { status: 'confirmed' }),
    ]) {
      expect(res.status).toBe(404);
    }
    expect((await other.get('/api/orders?limit=50')).body.orders.map((o: any) => o.id)).not.toContain(body.id);
    expect((await owner.get(`/api/orders/${body.id}`)).status).toBe(200);
    expect((await shopper().get('/api/orders')).status).toBe(401);
  });

  it('lists with search, filters, sort and pages', async () => {
    const lister = stack.client();
    const s = await registerAndLogin(lister, { whatsappNumber: '5555-3333' });
    const p = await product(lister, { name: 'Arroz', price: 10, stock: 100 });
    await until(async () => (await stack.pool.query('SELECT 1 FROM ordering.stores WHERE id = $1', [s.storeId])).rowCount, (n) => n === 1);
    const ids: string[] = [];
    for (let i = 1; i <= 7; i++) {
      const r = await shopper().post(`/api/public/orders/${s.subdomain}`, { customerData: { name: `Cliente ${i}`, phone: `5000000${i}` }, items: [{ productId: p, quantity: i }] });
      ids.push(r.body.id);
    }
    const pos = await lister.post('/api/orders', { paymentMethod: 'card', items: [{ productId: p, quantity: 1 }] });
    await lister.put(`/api/orders/${ids[0]}/status`, { status: 'confirmed' });

    const all = await lister.get('/api/orders');
    expect(all.body).toMatchObject({ total: 8, totalPages: 1, currentPage: 1 });
    expect(all.body.orders[0].id).toBe(pos.body.id);
    const page = await lister.get('/api/orders?limit=5&page=2&sortBy=total&sortOrder=asc');
    expect(page.body).toMatchObject({ total: 8, totalPages: 2, currentPage: 2 });
    expect(page.body.orders.map((o: any) => o.total)).toEqual([50, 60, 70]);
    expect((await lister.get('/api/orders?search=Cliente 3')).body.orders.map((o: any) => o.id)).toEqual([ids[2]]);
    expect((await lister.get('/api/orders?search=50000005')).body.orders.map((o: any) => o.id)).toEqual([ids[4]]);
    const code = all.body.orders.find((o: any) => o.id === ids[5]).code;
    expect((await lister.get(`/api/orders?search=${code}`)).body.orders.map((o: any) => o.id)).toEqual([ids[5]]);
    expect((await lister.get(`/api/orders?search=${ids[6].slice(-8)}`)).body.orders.map((o: any) => o.id)).toEqual([ids[6]]);
    expect((await lister.get('/api/orders?status=confirmed')).body.orders.map((o: any) => o.id)).toEqual([ids[0]]);
    expect((await lister.get('/api/orders?orderType=pos')).body.total).toBe(1);
    expect((await lister.get('/api/orders?paymentStatus=paid')).body.total).toBe(1);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Guatemala' }).format(new Date());
    expect((await lister.get(`/api/orders?startDate=${today}&endDate=${today}`)).body.total).toBe(8);
    expect((await lister.get('/api/orders?endDate=2020-01-01')).body.total).toBe(0);
    // Any whole page size from 1 to 100 (the page offers 5, 10, 20 and 50); anything else is refused in Spanish.
    const byThree = await lister.get('/api/orders?limit=3&page=3');
    expect(byThree.body).toMatchObject({ total: 8, totalPages: 3, currentPage: 3 });
    expect(byThree.body.orders).toHaveLength(2);
    for (const bad of ['0', '101', '2.5', 'diez']) {
      const r = await lister.get(`/api/orders?limit=${bad}`);
      expect([bad, r.status, r.body.message]).toEqual([bad, 400, 'Tamaño de página inválido: usa un número entero entre 1 y 100.']);
    }
    // Totals come from the per-day counts: they follow every status change and agree with the rows.
    await lister.put(`/api/orders/${ids[1]}/status`, { status: 'cancelled' });
    await lister.put(`/api/orders/${ids[0]}/status`, { status: 'preparing' });
    for (const filter of ['', 'status=pending', 'status=preparing', 'status=cancelled', 'status=confirmed', 'orderType=whatsapp', 'paymentStatus=pending', `status=completed&startDate=${today}`, `orderType=whatsapp&endDate=${today}`, 'startDate=2020-01-01&endDate=2020-12-31']) {
      const r = await lister.get(`/api/orders?limit=50&${filter}`);
      expect([filter, r.body.total]).toEqual([filter, r.body.orders.length]);
    }
    expect((await lister.get('/api/orders?status=pending')).body.total).toBe(5);
    expect((await lister.get('/api/orders?status=cancelled')).body.total).toBe(1);
    expect((await lister.get('/api/orders?status=preparing')).body.total).toBe(1);
    expect((await lister.get('/api/orders?status=confirmed')).body.total).toBe(0);
    // Sorted by status, then by id, in either direction.
    const byStatus = (await lister.get('/api/orders?limit=50&sortBy=status&sortOrder=asc')).body.orders.map((o: any) => o.status);
    expect(byStatus).toEqual([...byStatus].sort());
    const byId = (await lister.get('/api/orders?limit=50&sortBy=id&sortOrder=desc')).body.orders.map((o: any) => o.id);
    expect(byId).toEqual([...byId].sort().reverse());
    const one = all.body.orders.find((o: any) => o.id === ids[1]);
    expect(Object.keys(one).sort()).toEqual(
      ['id', 'storeId', 'code', 'customerName', 'customerPhone', 'customerAddress', 'customerEmail', 'customerNit', 'subtotal', 'tax', 'total', 'status', 'orderType', 'paymentMethod', 'paymentStatus', 'notes', 'whatsappMessage', 'items', 'cashReceived', 'change', 'payments', 'refunds', 'amountPaid', 'balanceDue', 'createdAt', 'updatedAt'].sort(),
    );
  }, 60_000);
});

describe('expiry', () => {
  it('pending orders past ORDER_HOLD_HOURS are cancelled once by the system, even with two ordering processes', async () => {
    const p = await product(owner, { name: 'Perecedero', price: 3, stock: 10 });
    const placed = await shopper().post(`/api/public/orders/${shop.subdomain}`, { customerData, items: [{ productId: p, quantity: 2 }] });
    expect(placed.status).toBe(201);
    const env = testEnv(stack.db.url, { ORDER_HOLD_HOURS: '0.0000001', ORDER_EXPIRY_SWEEP_MS: '3600000', INVENTORY_URL: stack.services.inventory!.url });
    const apps: NestFastifyApplication[] = [await createApp(env), await createApp(env)];
    try {
      await Promise.all(apps.map((a) => a.get(ExpirySweep).sweep()));
      await Promise.all(apps.map((a) => a.get(ExpirySweep).sweep()));
    } finally {
      for (const a of apps) await a.close();
    }
    const events = await stack.pool.query(`SELECT data FROM ordering.events WHERE stream_id = $1 AND type = 'OrderStatusChanged'`, [`order-${placed.body.id}`]);
    expect(events.rows).toHaveLength(1);
    expect(events.rows[0].data).toMatchObject({ status: 'cancelled', previousStatus: 'pending', changedBy: 'system' });
    const history = await until(() => owner.get(`/api/orders/${placed.body.id}/history`), (r) => r.body.length === 2);
    expect(history.body[1].notes).toContain('Cancelado automáticamente');
    await until(() => stockRow(p), (r) => r.reserved === 0);
    expect(await stockRow(p)).toMatchObject({ on_hand: 10, reserved: 0 });
  }, 60_000);
});
