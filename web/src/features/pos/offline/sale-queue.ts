import type { PosOrderRequest } from '@tiendita/contracts';
import { isApiError } from '../../../lib/api';

/**
 * The device's queue of offline POS sales (issue 28; protocol in docs/decisions/0017-offline-pos.md).
 * A sale is written here before its receipt shows; it is sent later, oldest first, with its
 * deviceSaleId (the server's idempotency key: sent twice, one sale). The storage is an interface so
 * the rules run the same on IndexedDB (idb-store.ts) and in memory (the unit tests).
 */

/** A line as the receipt shows it (quetzales). */
export interface QueuedLine {
  productId: string;
  name: string;
  quantity: number;
  price: number;
}

export type QueuedStatus = 'pending' | 'failed';

export interface QueuedSale {
  deviceSaleId: string;
  /** Order on the device: sales are sent in this order. */
  seq: number;
  localNumber: string;
  soldAt: string;
  /** The body POST /api/orders gets (with `offline`). */
  body: PosOrderRequest;
  lines: QueuedLine[];
  total: number;
  /** Cash, or card pending confirmation (the owner's choice for card sales offline); older entries have none: cash. */
  paymentMethod?: OfflinePaymentMethod;
  cashReceived: number | null;
  change: number | null;
  status: QueuedStatus;
  /** The server's refusal of a failed sale (Spanish), or the last network problem of a pending one. */
  error: string | null;
  attempts: number;
}

/** Where the queue lives. `nextSeq` hands out increasing numbers (the receipt's local number) and survives reloads. */
export interface QueueStore {
  all(): Promise<QueuedSale[]>;
  put(sale: QueuedSale): Promise<void>;
  remove(deviceSaleId: string): Promise<void>;
  nextSeq(): Promise<number>;
  deviceCode(): Promise<string>;
}

/** The receipt's readable number: the device's code and its sale count, e.g. 'TK7-0007'. */
export function localNumber(deviceCode: string, seq: number): string {
  return `${deviceCode}-${String(seq).padStart(4, '0')}`;
}

/** How an offline sale is paid: cash, or a card payment the owner confirms later ('pago con tarjeta pendiente de confirmar'). */
export type OfflinePaymentMethod = 'cash' | 'card';

export interface NewOfflineSale {
  deviceSaleId: string;
  lines: QueuedLine[];
  /** Cash unless told otherwise. */
  paymentMethod?: OfflinePaymentMethod;
  cashReceived: number | null;
  customer: Pick<PosOrderRequest, 'customerName' | 'customerPhone' | 'customerNit'>;
  now?: Date;
}

const cents = (q: number): number => Math.round(q * 100);

/** Writes a sale to the queue (before its receipt shows) and answers it as queued. A card sale carries no cash. */
export async function enqueueSale(store: QueueStore, input: NewOfflineSale): Promise<QueuedSale> {
  const paymentMethod = input.paymentMethod ?? 'cash';
  const sale = paymentMethod === 'card' ? { ...input, cashReceived: null } : input;
  const total = sale.lines.reduce((sum, l) => sum + cents(l.price) * l.quantity, 0) / 100;
  const seq = await store.nextSeq();
  const number = localNumber(await store.deviceCode(), seq);
  const soldAt = (sale.now ?? new Date()).toISOString();
  const body: PosOrderRequest = {
    ...sale.customer,
    paymentMethod,
    cashReceived: sale.cashReceived ?? undefined,
    items: sale.lines.map((l) => ({ productId: l.productId, quantity: l.quantity })),
    offline: { deviceSaleId: sale.deviceSaleId, localNumber: number, soldAt, shownPrices: sale.lines.map((l) => ({ productId: l.productId, unitPrice: l.price })) },
  };
  const queued: QueuedSale = {
    deviceSaleId: sale.deviceSaleId,
    seq,
    localNumber: number,
    soldAt,
    body,
    lines: sale.lines,
    total,
    paymentMethod,
    cashReceived: sale.cashReceived,
    change: sale.cashReceived === null ? null : Math.max(0, cents(sale.cashReceived) - cents(total)) / 100,
    status: 'pending',
    error: null,
    attempts: 0,
  };
  await store.put(queued);
  return queued;
}

/** The queue oldest first. */
export async function queuedSales(store: QueueStore): Promise<QueuedSale[]> {
  return (await store.all()).sort((a, b) => a.seq - b.seq);
}

/**
 * Whether the server refused the sale for good (a 4xx other than 401, 408 and 429: bad data, a
 * product of another store). Anything else (no network, a 5xx, the session gone) is tried again later.
 */
export function isPermanentRefusal(error: unknown): boolean {
  return isApiError(error) && error.status >= 400 && error.status < 500 && ![401, 403, 408, 429].includes(error.status);
}

export interface SendResult {
  sent: number;
  failed: number;
  /** Sending stopped at a sale that may go through later (offline again, server busy). */
  stopped: boolean;
}

/**
 * How many sales are on their way at once. Each sale is a fact on its own (its own id, its own
 * shown prices and time; never refused for stock), so the server's answer does not depend on which of
 * two sales arrives first: only which one is recorded short when the stock runs out. A few at a time
 * let the server work on one while the next travels (100 sales one by one took 34 s on a loaded VM).
 */
export const SEND_CONCURRENCY = 4;

/**
 * Sends the pending sales, started oldest first, up to `concurrency` at a time. A sale the server
 * accepts (or had already: same deviceSaleId) leaves the queue; one refused for good stays as failed
 * with the server's message (the owner sees it and may send it again or discard it); at the first
 * other error no further sale is started (those on their way finish), and that sale and the ones not
 * started wait for the next round.
 */
export async function sendQueue(
  store: QueueStore,
  send: (sale: QueuedSale) => Promise<unknown>,
  messageOf: (error: unknown) => string,
  { concurrency = SEND_CONCURRENCY }: { concurrency?: number } = {},
): Promise<SendResult> {
  const result: SendResult = { sent: 0, failed: 0, stopped: false };
  const pending = (await queuedSales(store)).filter((s) => s.status === 'pending');
  let next = 0;
  const worker = async () => {
    while (!result.stopped && next < pending.length) {
      const sale = pending[next++];
      try {
        await send(sale);
        await store.remove(sale.deviceSaleId);
        result.sent++;
      } catch (error) {
        const permanent = isPermanentRefusal(error);
        if (permanent) result.failed++;
        else result.stopped = true;
        await store.put({ ...sale, attempts: sale.attempts + 1, status: permanent ? 'failed' : 'pending', error: messageOf(error) });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, pending.length)) }, worker));
  return result;
}

/** A failed sale back to pending (the owner fixed the cause: sends it with the next round). */
export async function retrySale(store: QueueStore, deviceSaleId: string): Promise<void> {
  const sale = (await store.all()).find((s) => s.deviceSaleId === deviceSaleId);
  if (sale) await store.put({ ...sale, status: 'pending', error: null });
}

/** The same rules in memory (tests, and a browser without IndexedDB). */
export class MemoryQueueStore implements QueueStore {
  private readonly sales = new Map<string, QueuedSale>();
  private seq = 0;

  constructor(private readonly code = 'T1') {}

  async all(): Promise<QueuedSale[]> {
    return [...this.sales.values()].map((s) => ({ ...s }));
  }
  async put(sale: QueuedSale): Promise<void> {
    this.sales.set(sale.deviceSaleId, { ...sale });
  }
  async remove(deviceSaleId: string): Promise<void> {
    this.sales.delete(deviceSaleId);
  }
  async nextSeq(): Promise<number> {
    return ++this.seq;
  }
  async deviceCode(): Promise<string> {
    return this.code;
  }
}
