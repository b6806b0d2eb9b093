import { InternalClient } from '@tiendita/service-kit';
import pg from 'pg';
import type { Logger } from 'pino';
import { orderStreamId } from './domain/order.events';

/**
 * The advisory lock of ordering's processes: each running one holds it shared for its whole life
 * (on a connection of its own), so a starting process that gets it exclusively knows no other one
 * is in the middle of a checkout.
 */
export const ORDERING_PROCESSES_LOCK = 74_160_026;

/** How long the start waits at most for inventory's list of holds (inventory may be down too). */
const LIST_TIMEOUT_MS = 3000;

export interface CheckoutRecoveryOptions {
  databaseUrl: string;
  /** The service's pool (reads ordering's own events). */
  pool: pg.Pool;
  inventoryUrl: string;
  internalSecret: string;
  logger: Logger;
}

/**
 * The lock connection: taken shared for the life of the process, taken again after a lost
 * connection (a PostgreSQL restart drops it). Ended with the process.
 */
export class OrderingProcessLease {
  private client: pg.Client | null = null;
  private closed = false;

  private constructor(
    private readonly databaseUrl: string,
    private readonly logger: Logger,
  ) {}

  static async open(databaseUrl: string, logger: Logger): Promise<OrderingProcessLease> {
    const lease = new OrderingProcessLease(databaseUrl, logger);
    lease.client = await lease.connect();
    return lease;
  }

  /** Whether no other ordering process runs: the lock exclusively (a just-killed one's session may take a moment to end). */
  async alone(attempts = 5, pauseMs = 400): Promise<boolean> {
    for (let i = 0; i < attempts; i++) {
      const r = await this.client!.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [ORDERING_PROCESSES_LOCK]);
      if (r.rows[0].ok) return true;
      if (i < attempts - 1) await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
    return false;
  }

  /** From now on this process is one of those running: the lock shared (and the exclusive one let go). */
  async share(): Promise<void> {
    await this.client!.query('SELECT pg_advisory_lock_shared($1)', [ORDERING_PROCESSES_LOCK]);
    await this.client!.query('SELECT pg_advisory_unlock($1)', [ORDERING_PROCESSES_LOCK]).catch(() => undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.client?.end().catch(() => undefined);
  }

  private async connect(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.databaseUrl, application_name: 'tiendita-ordering-lease' });
    client.on('error', () => undefined);
    client.on('end', () => void this.reconnect(client));
    await client.connect();
    return client;
  }

  /** The connection was lost: connect again (backoff up to 5 s) and hold the lock shared again. */
  private async reconnect(lost: pg.Client): Promise<void> {
    if (this.closed || this.client !== lost) return;
    this.client = null;
    for (let attempt = 1; !this.closed; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(5000, 250 * 2 ** Math.min(attempt - 1, 5))));
      try {
        const client = await this.connect();
        if (this.closed) return void (await client.end().catch(() => undefined));
        await client.query('SELECT pg_advisory_lock_shared($1)', [ORDERING_PROCESSES_LOCK]);
        this.client = client;
        return;
      } catch (err) {
        this.logger.debug({ err, attempt }, 'No se pudo retomar el candado de procesos de ordering; se reintenta');
      }
    }
  }
}

/**
 * When ordering starts, before it listens: the stock held in inventory for orders it never recorded
 * goes back at once. A checkout holds the units first and records the order after; a process killed
 * in between leaves a hold no order will confirm, and the shop showed those units as unavailable
 * until the hold ran out (10 minutes). Only when no other ordering process runs (one could be
 * between the two steps of a live checkout): then every hold without its order is a lost one.
 * A shopper who retries with the same Idempotency-Key afterwards is reserved anew by inventory,
 * against the stock as it is then, so nothing is sold twice. Releasing is idempotent (a hold
 * released already releases nothing). Answers the orders whose holds were given back.
 */
export async function releaseLostCheckouts(options: CheckoutRecoveryOptions, lease: OrderingProcessLease): Promise<string[]> {
  const { pool, logger } = options;
  if (!(await lease.alone())) {
    logger.info('Otro proceso de ordering está atendiendo: las reservas sin pedido se liberan al vencer');
    return [];
  }
  const inventory = new InternalClient({ inventory: options.inventoryUrl }, options.internalSecret, { connections: 4 });
  const caller = { userId: 'ordering', storeId: null };
  try {
    const { orders } = await inventory.json<{ orders: { orderId: string; storeId: string }[] }>(
      'inventory',
      'POST',
      '/internal/reservations/held',
      { before: new Date().toISOString() },
      caller,
      { idempotent: true, timeoutMs: LIST_TIMEOUT_MS },
    );
    if (orders.length === 0) return [];
    const recorded = await pool.query<{ stream_id: string }>('SELECT stream_id FROM ordering.events WHERE stream_id = ANY($1::text[]) AND stream_position = 1', [
      orders.map((o) => orderStreamId(o.orderId)),
    ]);
    const known = new Set(recorded.rows.map((r) => r.stream_id));
    const lost = orders.filter((o) => !known.has(orderStreamId(o.orderId)));
    const released: string[] = [];
    for (const o of lost) {
      await inventory.json('inventory', 'POST', '/internal/reservations/release', { orderId: o.orderId }, { userId: 'ordering', storeId: o.storeId }, { idempotent: true, timeoutMs: LIST_TIMEOUT_MS });
      released.push(o.orderId);
    }
    if (released.length > 0) logger.info({ orders: released.length }, `Reservas de ${released.length} pedido(s) que el proceso anterior no llegó a registrar devueltas al stock`);
    return released;
  } finally {
    await inventory.close();
  }
}

/**
 * configure() of ordering's start (main.ts): the process's lease (answered: it lives as long as the
 * process), then the lost checkouts' holds released. A failure here (inventory down, say) is logged and the start goes on: those holds then
 * run out with their time, as before.
 */
export async function recoverLostCheckouts(options: CheckoutRecoveryOptions): Promise<OrderingProcessLease | null> {
  let lease: OrderingProcessLease;
  try {
    lease = await OrderingProcessLease.open(options.databaseUrl, options.logger);
  } catch (err) {
    options.logger.warn({ err }, 'No se pudo tomar el candado de procesos de ordering: las reservas sin pedido se liberan al vencer');
    return null;
  }
  try {
    await releaseLostCheckouts(options, lease);
  } catch (err) {
    options.logger.warn({ err }, 'No se pudieron revisar las reservas de pedidos que el proceso anterior no registró; se liberan al vencer');
  } finally {
    await lease.share().catch((err: unknown) => options.logger.warn({ err }, 'No se pudo tomar el candado de procesos de ordering'));
  }
  return lease;
}
