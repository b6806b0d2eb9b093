// Shared by the fault test (gateway/test/faults.e2e-spec.ts) and `npm run bench -- faults`:
// Tiendita started the way `npm start` starts it (scripts/start.mjs, its own DATA_DIR and embedded
// PostgreSQL, which it supervises), a shop with a few products, a stream of public checkouts that
// retries with the same Idempotency-Key as a careful client does, the two faults (kill -9 of one
// service, an immediate PostgreSQL shutdown that npm start follows with a start), and the count of
// what was lost, duplicated or oversold. Node built-ins and fetch only: the test runs it from src
// under jest, the bench from the build.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as freePorts from '../scripts/lib/free-ports.cjs';

const root = join(__dirname, '..');

export const SPANISH_503 = 'Servicio no disponible, inténtalo de nuevo en un momento';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Tiendita {
  url: string;
  dataDir: string;
  /** Every line npm start printed so far. */
  lines: string[];
  /** Resolves with the first line (already printed or to come) that matches, or throws after `ms`. */
  waitForLine(pattern: RegExp, ms: number, after?: number): Promise<string>;
  /** The pid of a service's (or the gateway's) process under this npm start, or null. */
  pidOf(name: string): number | null;
  /** The pid of the embedded PostgreSQL's postmaster, or null. */
  postmasterPid(): number | null;
  /** Ctrl-C: answers npm start's exit code (null when it had to be killed). */
  stop(): Promise<number | null>;
}

/**
 * `node scripts/start.mjs` on `port` with its own DATA_DIR and its own embedded PostgreSQL (never
 * DATABASE_URL: the faults restart the database, and a shared server is never restarted), without
 * the web build and without the demo shop.
 */
export async function startTiendita(options: { port: number; dataDir: string; env?: Record<string, string>; echo?: boolean; readyMs?: number }): Promise<Tiendita> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    PORT: String(options.port),
    DATA_DIR: options.dataDir,
    BUILD_WEB: '0',
    SEED_DEMO: '0',
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    // Every shopper of the stream comes from this one address: the per-address and per-phone order
    // limits (issue 26's fairness) are raised so that they do not answer 429 to the stream itself.
    RATE_ORDER_PER_IP: '1000000',
    ORDER_RATE_PER_PHONE: '1000',
    ORDER_MAX_PENDING_PER_PHONE: '1000',
    ...options.env,
  };
  delete env.DATABASE_URL;
  delete env.INTERNAL_SECRET;
  const child: ChildProcess = spawn(process.execPath, [join(root, 'scripts', 'start.mjs')], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const waiters = new Set<{ pattern: RegExp; from: number; resolve: (line: string) => void }>();
  let partial = '';
  const onData = (chunk: Buffer) => {
    partial += chunk.toString('utf8');
    const parts = partial.split('\n');
    partial = parts.pop() ?? '';
    for (const line of parts) {
      lines.push(line);
      if (options.echo) process.stdout.write(`  | ${line}\n`);
      for (const w of [...waiters]) {
        if (lines.length - 1 >= w.from && w.pattern.test(line)) {
          waiters.delete(w);
          w.resolve(line);
        }
      }
    }
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));

  const waitForLine = (pattern: RegExp, ms: number, after = 0): Promise<string> => {
    const seen = lines.slice(after).find((l) => pattern.test(l));
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const w = { pattern, from: after, resolve: (line: string) => (clearTimeout(timer), resolve(line)) };
      const timer = setTimeout(() => {
        waiters.delete(w);
        reject(new Error(`npm start no mostró ${pattern} en ${ms} ms; últimas líneas:\n${lines.slice(-15).join('\n')}`));
      }, ms);
      waiters.add(w);
    });
  };

  const childrenOf = (ppid: number) =>
    readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .map(Number)
      .filter((pid) => {
        try {
          return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[1]) === ppid;
        } catch {
          return false;
        }
      });
  const pidOf = (name: string): number | null => {
    const main = name === 'gateway' ? 'gateway/dist/main.js' : `services/${name}/dist/main.js`;
    for (const pid of childrenOf(child.pid!)) {
      try {
        if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(main)) return pid;
      } catch {
        // gone meanwhile
      }
    }
    return null;
  };
  const postmasterPid = (): number | null => {
    try {
      const pid = Number(readFileSync(join(options.dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
      return pid > 0 ? pid : null;
    } catch {
      return null;
    }
  };
  const stop = async (): Promise<number | null> => {
    if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
    child.kill('SIGINT');
    let timer: NodeJS.Timeout | undefined;
    const code = await Promise.race([exited, new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), 40_000)))]);
    clearTimeout(timer);
    if (code !== 'timeout') return code;
    child.kill('SIGKILL');
    const pg = postmasterPid();
    if (pg) process.kill(pg, 'SIGQUIT');
    return null;
  };

  try {
    await Promise.race([waitForLine(/^Tiendita lista en /, options.readyMs ?? 150_000), exited.then((code) => Promise.reject(new Error(`npm start terminó (código ${code}):\n${lines.slice(-20).join('\n')}`)))]);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `http://127.0.0.1:${options.port}`, dataDir: options.dataDir, lines, waitForLine, pidOf, postmasterPid, stop };
}

export interface Shop {
  subdomain: string;
  cookie: string;
  products: { id: string; stock: number }[];
}

async function post(url: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: url, ...headers }, body: JSON.stringify(body) });
}

/** An owner registered the normal way, signed in, with one product per entry of `stocks` (its units). */
export async function openShop(url: string, stocks: number[]): Promise<Shop> {
  const tag = randomUUID().slice(0, 8);
  const email = `fallas-${tag}@example.com`;
  const subdomain = `fallas-${tag}`;
  const reg = await post(url, '/api/auth/register', {
    firstName: 'Prueba',
    lastName: 'Fallas',
    email,
    password: 'Secreto123',
    storeName: 'Tienda de fallas',
    subdomain,
    businessType: 'grocery',
    storeDepartment: 'Guatemala',
    whatsappNumber: '5555-1234',
  });
  if (reg.status !== 201) throw new Error(`registro: ${reg.status} ${await reg.text()}`);
  const login = await post(url, '/api/auth/login', { email, password: 'Secreto123' });
  if (login.status !== 200) throw new Error(`inicio de sesión: ${login.status} ${await login.text()}`);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const products: Shop['products'] = [];
  for (let i = 0; i < stocks.length; i++) {
    const stock = stocks[i];
    const res = await post(
      url,
      '/api/products',
      { name: `Producto ${i + 1}`, description: 'Para la prueba de fallas', sku: `FAL-${i + 1}`, price: 10 + i, discountPercentage: 0, stock, categoryId: 'none', images: [], isActive: true },
      { cookie },
    );
    if (res.status !== 201) throw new Error(`producto: ${res.status} ${await res.text()}`);
    products.push({ id: ((await res.json()) as { id: string }).id, stock });
  }
  // The shop sells them once its public list shows their stock.
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await fetch(`${url}/api/public/products/${subdomain}?page=1&limit=100`);
    const list = res.ok ? ((await res.json()) as { products: { id: string; stock: number }[] }).products : [];
    if (products.every((p) => list.some((x) => x.id === p.id && x.stock === p.stock))) break;
    if (Date.now() > deadline) throw new Error('los productos no aparecieron con su stock en la tienda pública');
    await sleep(200);
  }
  return { subdomain, cookie, products };
}

/** One checkout's end: accepted (the order), refused for lack of stock, or given up. */
export interface CheckoutOutcome {
  key: string;
  productId: string;
  status: number | 'network';
  orderId: string | null;
  attempts: number;
  startedAt: number;
  endedAt: number;
  /** When the attempt that was answered began (its answer came at endedAt). */
  lastAttemptAt: number;
  /** The customer name it was sent with: one per checkout, so the owner's list tells whose order is whose. */
  customer: string;
}

export interface StreamStats {
  outcomes: CheckoutOutcome[];
  /** Every answer of 500 or more, with whether it was the Spanish 503. */
  answers5xx: number;
  answers5xxNotSpanish503: number;
  /** Bodies of the 5xx that were not the Spanish 503 (for the report). */
  oddBodies: string[];
  networkErrors: number;
  /** Attempts answered 429 (retried after its Retry-After). */
  throttled: number;
}

/** A careful client's wait before its n-th retry (n ≥ 1): 250 ms doubled up to 2 s, with jitter so retries do not arrive together. */
function retryWait(n: number): number {
  const base = Math.min(2000, 250 * 2 ** Math.min(n - 1, 3));
  return base / 2 + Math.random() * base;
}

/**
 * Public checkouts of one unit at `perSecond`, each with its own Idempotency-Key, retried with the
 * same key after a 5xx or a lost connection (backoff with jitter, for at most `giveUpMs`), as a
 * careful shop checkout does. stop() ends the stream and waits for every checkout to settle.
 */
export function checkoutStream(url: string, shop: Shop, perSecond: number, giveUpMs = 90_000) {
  const stats: StreamStats = { outcomes: [], answers5xx: 0, answers5xxNotSpanish503: 0, oddBodies: [], networkErrors: 0, throttled: 0 };
  const running = new Set<Promise<void>>();
  let n = 0;
  const one = async () => {
    const key = randomUUID();
    const product = shop.products[n % shop.products.length];
    const phone = `5${String(1_000_000 + (n % 9_000_000)).padStart(7, '0')}`;
    const customer = `Cliente ${++n}`;
    const startedAt = Date.now();
    let lastAttemptAt = startedAt;
    let attempts = 0;
    let status: number | 'network' = 'network';
    let orderId: string | null = null;
    while (Date.now() - startedAt < giveUpMs) {
      attempts++;
      lastAttemptAt = Date.now();
      try {
        const res = await post(url, `/api/public/orders/${shop.subdomain}`, { customerData: { name: customer, phone }, items: [{ productId: product.id, quantity: 1 }] }, { 'idempotency-key': key });
        const text = await res.text();
        status = res.status;
        if (res.status >= 500) {
          stats.answers5xx++;
          let spanish = false;
          try {
            const body = JSON.parse(text) as { message?: string };
            spanish = res.status === 503 && typeof body.message === 'string' && /inténtalo|Inténtalo/.test(body.message);
          } catch {
            spanish = false;
          }
          if (!spanish) {
            stats.answers5xxNotSpanish503++;
            if (stats.oddBodies.length < 10) stats.oddBodies.push(`${res.status} ${text.slice(0, 200)}`);
          }
          await sleep(retryWait(attempts));
          continue;
        }
        if (res.status === 429) {
          stats.throttled++;
          await sleep(1000 * Number(res.headers.get('retry-after') ?? 1));
          continue;
        }
        if (res.status === 201) orderId = (JSON.parse(text) as { id: string }).id;
        break;
      } catch {
        stats.networkErrors++;
        status = 'network';
        await sleep(retryWait(attempts));
      }
    }
    stats.outcomes.push({ key, productId: product.id, status, orderId, attempts, startedAt, endedAt: Date.now(), lastAttemptAt, customer });
  };
  // Open loop by the clock: a tick that comes late (a busy machine) starts every checkout that was due.
  const t0 = Date.now();
  const timer = setInterval(() => {
    const due = Math.floor(((Date.now() - t0) * perSecond) / 1000);
    while (n < due) {
      const p = one().finally(() => running.delete(p));
      running.add(p);
    }
  }, Math.max(5, Math.floor(1000 / perSecond / 2)));
  return {
    stats,
    /** Seconds from `since` until the first checkout attempt made after it was accepted, or null. */
    acceptedAgainAfter(since: number): number | null {
      const ok = stats.outcomes.filter((o) => o.status === 201 && o.lastAttemptAt >= since).map((o) => o.endedAt);
      return ok.length ? (Math.min(...ok) - since) / 1000 : null;
    },
    async stop(): Promise<StreamStats> {
      clearInterval(timer);
      while (running.size > 0) await Promise.all([...running]);
      return stats;
    },
  };
}

/** Sends SIGKILL to a service of this npm start; answers when it was sent. */
export function killService(t: Tiendita, name: string): number {
  const pid = t.pidOf(name);
  if (!pid) throw new Error(`no encontré el proceso de ${name}`);
  process.kill(pid, 'SIGKILL');
  return Date.now();
}

/** An immediate shutdown of the embedded PostgreSQL (SIGQUIT to its postmaster); npm start starts it again. */
export function stopPostgresNow(t: Tiendita): number {
  const pid = t.postmasterPid();
  if (!pid) throw new Error('no encontré el postmaster de PostgreSQL embebido');
  process.kill(pid, 'SIGQUIT');
  return Date.now();
}

/** A PORT whose neighbours above are free too (npm start uses PORT and the next ports for its services). */
export function freePortBlock(): Promise<number> {
  return freePorts.freePortBlock(10);
}

/** Polls a GET until it answers 200 (or `ms` pass): when it did, or null. */
export async function firstOk(url: string, path: string, since: number, ms: number, headers: Record<string, string> = {}): Promise<number | null> {
  while (Date.now() - since < ms) {
    try {
      const res = await fetch(`${url}${path}`, { headers });
      await res.arrayBuffer();
      if (res.ok) return Date.now();
    } catch {
      // not there yet
    }
    await sleep(100);
  }
  return null;
}

export interface Reconciliation {
  accepted: number;
  refused: number;
  /** Checkouts that never got a final answer (the shopper gave up after giveUpMs). */
  givenUp: number;
  ordersListed: number;
  /** Orders in the list of checkouts whose shopper never got the answer (not lost, not duplicated: unknown to them). */
  unanswered: number;
  lost: number;
  duplicated: number;
  oversold: number;
  /**
   * Units the shop shows as unavailable beyond its orders: holds without an order (stock held, order
   * never appended). ordering releases those of its killed process when it starts again; a checkout
   * whose shopper stopped retrying keeps its hold until it runs out. Not oversold: undersold for a while.
   */
  stuckUnits: number;
  /** One line per product counted as oversold or with stuck units. */
  detail: string[];
}

/**
 * What the owner's order list and the shop's stock say against what the shoppers were told, each
 * order known by its checkout's customer name: lost = an accepted order missing from the list;
 * duplicated = a checkout with more than one order; oversold = a product with more orders than units,
 * or whose public stock is not its units less its orders (each order holds or took one unit).
 */
export async function reconcile(url: string, shop: Shop, stats: StreamStats, waitMs = 30_000): Promise<Reconciliation> {
  const accepted = stats.outcomes.filter((o) => o.status === 201);
  const byCustomer = new Map(stats.outcomes.map((o) => [o.customer, o]));
  const list = async (): Promise<{ id: string; customerName: string | null }[]> => {
    const orders: { id: string; customerName: string | null }[] = [];
    for (let page = 1; ; page++) {
      const res = await fetch(`${url}/api/orders?page=${page}&limit=100`, { headers: { cookie: shop.cookie } });
      if (!res.ok) throw new Error(`lista de pedidos: ${res.status} ${await res.text()}`);
      const body = (await res.json()) as { orders: { id: string; customerName: string | null }[]; totalPages: number };
      orders.push(...body.orders);
      if (page >= body.totalPages) return orders;
    }
  };
  // The list is a read model: give it a moment to show every accepted order.
  const deadline = Date.now() + waitMs;
  let orders = await list();
  const missing = () => accepted.filter((o) => !orders.some((x) => x.id === o.orderId));
  while (missing().length > 0 && Date.now() < deadline) {
    await sleep(500);
    orders = await list();
  }
  const perCheckout = new Map<string, number>();
  for (const o of orders) perCheckout.set(o.customerName ?? '', (perCheckout.get(o.customerName ?? '') ?? 0) + 1);
  const duplicated = [...perCheckout.values()].filter((count) => count > 1).reduce((sum, count) => sum + count - 1, 0);
  const unanswered = orders.filter((o) => byCustomer.get(o.customerName ?? '')?.status !== 201).length;
  const held = (id: string) => orders.filter((o) => byCustomer.get(o.customerName ?? '')?.productId === id).length;
  const stockNow = async () => {
    const res = await fetch(`${url}/api/public/products/${shop.subdomain}?page=1&limit=100`);
    return new Map(((await res.json()) as { products: { id: string; stock: number }[] }).products.map((p) => [p.id, p.stock]));
  };
  // A product sold out may leave the public list: its stock is then 0. Oversold: more orders than
  // units, or more shown for sale than the units less the orders (the next checkouts would oversell).
  const shown = (stock: Map<string, number>, id: string) => stock.get(id) ?? 0;
  const oversoldOnes = (stock: Map<string, number>) => shop.products.filter((p) => held(p.id) > p.stock || shown(stock, p.id) > p.stock - held(p.id) || shown(stock, p.id) < 0);
  const settled = (stock: Map<string, number>) => shop.products.every((p) => shown(stock, p.id) === p.stock - held(p.id));
  let stock = await stockNow();
  while (!settled(stock) && Date.now() < deadline) {
    await sleep(500);
    stock = await stockNow();
  }
  const wrong = oversoldOnes(stock);
  const stuckUnits = shop.products.reduce((sum, p) => sum + Math.max(0, p.stock - held(p.id) - shown(stock, p.id)), 0);
  return {
    accepted: accepted.length,
    refused: stats.outcomes.filter((o) => o.status === 409).length,
    givenUp: stats.outcomes.filter((o) => o.status === 'network' || (typeof o.status === 'number' && o.status >= 500)).length,
    ordersListed: orders.length,
    unanswered,
    lost: missing().length,
    duplicated,
    oversold: wrong.length,
    stuckUnits,
    detail: shop.products.filter((p) => shown(stock, p.id) !== p.stock - held(p.id)).map((p) => `${p.id}: tenía ${p.stock}, pedidos ${held(p.id)}, la tienda muestra ${shown(stock, p.id)}`),
  };
}
