import { Client, type Pool } from 'pg';
import { assertSchemaName, notifyChannel, PostgresEventStore } from './event-store';
import { withSchemaLock } from './pg-util';
import { checkpointDdl, type EventTransport, type SubscribeOptions, type Subscription } from './subscription';
import { PgSubscription } from './postgres-subscription';

export interface PostgresTransportOptions {
  /** Pool of the consuming service (its schema holds the checkpoints and read models). */
  pool: Pool;
  /**
   * Pool for the subscriptions' passes: their reads, checkpoints and batch transactions (default:
   * `pool`). A pool of its own keeps a pass out of the queue of the service's commands: while a WAL
   * flush stalls, hundreds of appends can wait for a connection of the service's pool, and a pass
   * behind them (a read-your-writes wait with it) starts only once that queue has drained.
   */
  passPool?: Pool;
  /** The consuming service's schema. */
  schema: string;
  /** Connection string used for LISTEN (one dedicated connection per transport). */
  connectionString: string;
  /** Fallback poll when no NOTIFY arrives, in ms. */
  pollIntervalMs?: number;
  /** Wait after a failed batch, in ms (default 1000), doubled after each further failure in a row, up to 16 times. */
  retryDelayMs?: number;
  /** First wait before connecting the LISTEN connection again after it was lost, in ms (default 500), doubled up to 10 s. */
  listenRetryMs?: number;
  /** Where the LISTEN connection's loss and return are told (default: console). */
  logger?: TransportLogger;
}

/** What the transport logs: the loss and return of its LISTEN connection. */
export interface TransportLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

const consoleLogger: TransportLogger = {
  info: (obj, msg) => console.info(msg, obj),
  warn: (obj, msg) => console.warn(msg, obj),
};

/** Longest wait between attempts to connect the LISTEN connection again (ms). */
export const LISTEN_RETRY_MAX_MS = 10_000;

/**
 * Catch-up subscriptions on the source service's events table in the same PostgreSQL,
 * woken by LISTEN/NOTIFY, reading only up to the oldest transaction in flight.
 */
export class PostgresTransport implements EventTransport {
  readonly kind = 'postgres' as const;
  private listener: Client | null = null;
  private readonly wakers = new Map<string, Set<() => void>>();
  private readonly subs = new Set<PgSubscription>();
  private ready: Promise<void> | null = null;

  private readonly options: PostgresTransportOptions & { passPool: Pool };

  constructor(options: PostgresTransportOptions) {
    assertSchemaName(options.schema);
    this.options = { ...options, passPool: options.passPool ?? options.pool };
  }

  private closed = false;
  private reconnectTimer: NodeJS.Timeout | null = null;

  private async init(): Promise<void> {
    this.ready ??= (async () => {
      await withSchemaLock(this.options.pool, this.options.schema, (client) => client.query(checkpointDdl(this.options.schema)));
      this.listener = await this.connectListener();
    })();
    return this.ready;
  }

  /** The LISTEN connection: NOTIFYs wake the subscriptions; when it is lost it is made again (listenLost). */
  private async connectListener(): Promise<Client> {
    const listener = new Client({ connectionString: this.options.connectionString, application_name: `tiendita-${this.options.schema}-listen` });
    listener.on('error', () => undefined);
    await listener.connect();
    listener.on('notification', (msg) => {
      for (const wake of this.wakers.get(msg.channel) ?? []) wake();
    });
    listener.once('end', () => this.listenLost(listener));
    for (const channel of this.wakers.keys()) await listener.query(`LISTEN ${channel}`);
    return listener;
  }

  /**
   * The LISTEN connection ended under us (PostgreSQL restarted, the backend was terminated): until
   * it is back, subscriptions would wait for their 1 s poll. It is connected again with backoff
   * (listenRetryMs doubled up to LISTEN_RETRY_MAX_MS), its channels listened to again, and every
   * subscription woken once, since NOTIFYs sent meanwhile were lost.
   */
  private listenLost(lost: Client): void {
    if (this.closed || this.listener !== lost) return;
    this.listener = null;
    const log = this.options.logger ?? consoleLogger;
    const schema = this.options.schema;
    log.warn({ schema }, `Se perdió la conexión LISTEN de ${schema} con PostgreSQL; se reconecta`);
    const first = this.options.listenRetryMs ?? 500;
    const attempt = (n: number): void => {
      this.reconnectTimer = setTimeout(() => {
        this.reconnectTimer = null;
        if (this.closed) return;
        this.connectListener().then(
          (listener) => {
            if (this.closed) {
              void listener.end().catch(() => undefined);
              return;
            }
            this.listener = listener;
            log.info({ schema, attempts: n }, `Conexión LISTEN de ${schema} restablecida (intento ${n})`);
            // The database is back: a subscription waiting out a backoff of failed passes tries now.
            for (const sub of this.subs) sub.databaseBack();
          },
          (err: unknown) => {
            if (n === 1 || n % 10 === 0) log.warn({ schema, attempts: n, err: err instanceof Error ? err.message : String(err) }, `La conexión LISTEN de ${schema} aún no se restablece; se reintenta`);
            attempt(n + 1);
          },
        );
      }, Math.min(LISTEN_RETRY_MAX_MS, first * 2 ** Math.min(n - 1, 10)));
      this.reconnectTimer.unref?.();
    };
    attempt(1);
  }

  async subscribe(options: SubscribeOptions): Promise<Subscription> {
    await this.init();
    assertSchemaName(options.source);
    const channel = notifyChannel(options.source);
    if (!this.wakers.has(channel)) {
      this.wakers.set(channel, new Set());
      // Without a listener (lost, being made again) the channel is listened to once it is back.
      if (this.listener) await this.listener.query(`LISTEN ${channel}`);
    }
    const sub = new PgSubscription(this.options, options, new PostgresEventStore(this.options.passPool, options.source));
    this.wakers.get(channel)!.add(sub.notify);
    this.subs.add(sub);
    sub.start();
    void sub.done.then(() => {
      this.wakers.get(channel)?.delete(sub.notify);
      this.subs.delete(sub);
    });
    return {
      group: options.group,
      source: options.source,
      done: sub.done,
      caughtUp: () => sub.caughtUp(),
      stop: async () => {
        this.wakers.get(channel)?.delete(sub.notify);
        this.subs.delete(sub);
        await sub.stop();
      },
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    await Promise.all([...this.subs].map((s) => s.stop()));
    this.subs.clear();
    const listener = this.listener;
    this.listener = null;
    if (listener) await listener.end().catch(() => undefined);
  }
}

