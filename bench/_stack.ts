// The services a bench starts, each in its own process from its build (bench/_services.ts), on the
// run's database, and the owner it registers through the gateway.
import { PostgresEventStore } from '@tiendita/eventsourcing';
import { randomBytes, randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { BenchRun } from './_db';
import { waitFor } from './_measure';
import { cpuSeconds } from './_proc';
import { benchServiceEnv, freePort, startServiceProcess, type BenchService } from './_services';

/** The services a bench can point at one another; one it does not start gets an address nothing answers. */
const URL_VARS = { identity: 'IDENTITY_URL', catalog: 'CATALOG_URL', inventory: 'INVENTORY_URL', ordering: 'ORDERING_URL', reporting: 'REPORTING_URL' } as const;

export interface BenchStack {
  /** http://127.0.0.1:<port> of each started service. */
  urls: Partial<Record<BenchService, string>>;
  gatewayUrl: string;
}

/**
 * Starts `services` in the order given (the gateway among them), each on a free port and with the
 * others' URLs, on the run's database; `extra` is added to every service's environment.
 */
export async function startBenchStack(run: BenchRun, services: BenchService[], extra?: Record<string, string>): Promise<BenchStack> {
  const ports = new Map<BenchService, number>();
  for (const name of services) ports.set(name, await freePort());
  const address = (name: BenchService) => (ports.has(name) ? `http://127.0.0.1:${ports.get(name)}` : 'http://127.0.0.1:9');
  const gatewayPort = ports.get('gateway');
  if (gatewayPort === undefined) throw new Error('startBenchStack: falta el gateway');
  const urls = Object.fromEntries(Object.entries(URL_VARS).map(([name, variable]) => [variable, address(name as BenchService)]));
  const env = benchServiceEnv({ urls, gatewayPort, databaseUrl: run.db.url, secret: run.secret, dataDir: run.dataDir, extra });
  for (const name of services) run.children.push(await startServiceProcess(name, ports.get(name)!, env));
  return { urls: Object.fromEntries(services.map((name) => [name, address(name)])), gatewayUrl: address('gateway') };
}

export interface BenchOwner {
  storeId: string;
  userId: string;
  email: string;
  password: string;
  subdomain: string;
}

/** Registers an owner and store through the gateway, the normal way (201 or a thrown error). */
export async function registerOwner(gatewayUrl: string, names: { lastName: string; storeName: string }): Promise<BenchOwner> {
  const tag = randomBytes(4).toString('hex');
  const owner = { email: `bench-${tag}@example.com`, password: 'Secreto123', subdomain: `bench-${tag}` };
  const reg = await fetch(`${gatewayUrl}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: gatewayUrl },
    body: JSON.stringify({ firstName: 'Bench', ...names, ...owner, businessType: 'grocery', storeDepartment: 'Guatemala' }),
  });
  if (reg.status !== 201) throw new Error(`registro falló: ${reg.status} ${await reg.text()}`);
  const { store, user } = (await reg.json()) as { store: { id: string }; user: { id: string } };
  return { ...owner, storeId: store.id, userId: user.id };
}

/** Signs the owner in through the gateway; the session's Cookie header. */
export async function signIn(gatewayUrl: string, owner: { email: string; password: string }): Promise<string> {
  const login = await fetch(`${gatewayUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: gatewayUrl },
    body: JSON.stringify({ email: owner.email, password: owner.password }),
  });
  if (login.status !== 200) throw new Error(`inicio de sesión falló: ${login.status} ${await login.text()}`);
  return login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

/**
 * Starts counting the CPU each process of the run spends: its services by name, and the database's
 * backends open now as 'postgres'. The returned function answers the seconds each has used since.
 */
export async function cpuMeter(bench: BenchRun): Promise<() => Map<string, number>> {
  const backends = (await bench.pool.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [bench.db.name])).rows.map((r) => r.pid);
  const pids = [...bench.children.map((c) => [c.name, c.child.pid!] as const), ...backends.map((pid) => ['postgres', pid] as const)];
  const before = pids.map(([, pid]) => cpuSeconds(pid));
  return () => {
    const used = new Map<string, number>();
    pids.forEach(([name, pid], i) => used.set(name, (used.get(name) ?? 0) + (cpuSeconds(pid) - before[i] || 0)));
    return used;
  };
}

/**
 * Appends a store's catalogue to catalog's event store the way its commands do: CategoryCreated of
 * each category, then ProductCreated of each product (its data as given, with its productId), in
 * transactions of 1,000 products.
 */
export async function appendCatalog(pool: pg.Pool, storeId: string, actor: string, categories: { id: string; name: string }[], products: { productId: string }[]): Promise<void> {
  const events = new PostgresEventStore(pool, 'catalog');
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    for (const c of categories) {
      await events.append(`category-${c.id}`, [{ type: 'CategoryCreated', data: { categoryId: c.id, storeId, name: c.name, description: null } }], 0, { storeId, actor }, client);
    }
    for (const [i, data] of products.entries()) {
      await events.append(`product-${data.productId}`, [{ type: 'ProductCreated', data }], 0, { storeId, actor }, client);
      if (i % 1000 === 999) {
        await client.query('COMMIT');
        await client.query('BEGIN');
      }
    }
    await client.query('COMMIT');
  } finally {
    client.release();
  }
}

/**
 * What the catalogue benches (catalog, ai) give their product i besides its names and category:
 * SKU, a price between Q5 and Q205, 10 % off every 7th, one image, every 50th inactive, 0 to 39 units.
 */
export function loadProductFields(i: number) {
  return {
    sku: `SKU-${i + 1}`,
    priceCentavos: 500 + ((i * 37) % 20_000),
    discountPercentage: i % 7 === 0 ? 10 : 0,
    images: [`/temp-uploads/products/${randomUUID()}.png`],
    isActive: i % 50 !== 0,
    initialStock: i % 40,
    createdBy: 'bench',
  };
}

/**
 * Waits (5 minutes at most) until catalog lists the store's `products` and shows each one's stock
 * (inventory opens the stock items from ProductCreated and catalog projects them back), then runs
 * what autovacuum does on its own after a bulk load, so a measurement sees the steady state.
 */
export async function catalogSettled(pool: pg.Pool, storeId: string, products: number): Promise<void> {
  await waitFor(
    'la proyección de productos',
    async () => Number((await pool.query('SELECT count(*) AS n FROM catalog.products WHERE store_id = $1', [storeId])).rows[0].n) >= products,
    300_000,
  );
  // Inventory opens each product's stock item (from ProductCreated) and catalog projects it back:
  // let that settle so the measurement sees the steady state, not the tail of the bulk load.
  await waitFor(
    'los ítems de inventario',
    async () => Number((await pool.query('SELECT count(*) AS n FROM catalog.stock_levels WHERE store_id = $1', [storeId])).rows[0].n) >= products,
    300_000,
  );
  // What autovacuum does on its own after a bulk load: statistics and the visibility map.
  await pool.query('VACUUM ANALYZE');
}
