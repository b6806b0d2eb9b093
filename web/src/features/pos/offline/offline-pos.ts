import { useEffect, useSyncExternalStore } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { OFFLINE_CARD_PAYMENTS_DEFAULT, type OfflineCardPayments, type ProductView } from '@tiendita/contracts';
import { serverMessageOr } from '../../../lib/api';
import { createPosOrder } from '../../orders/api/create-pos-order';
import { useRememberFelOnDevice } from '../../fel/lib/fel-on-device';
import { getProducts } from '../../products/api/get-products';
import { useStoreSettings } from '../../settings/api/get-store-settings';
import { loadMeta, preloadedCatalog, queueStore, readCatalog, saveCatalog, saveMeta, takeFromCatalog } from './idb-store';
import { enqueueSale, type QueuedSale, queuedSales, retrySale, sendQueue } from './sale-queue';

/**
 * The POS's offline state, shared by the header and the checkout: whether the browser is online,
 * the queued sales, whether they are being sent. Sending starts when the POS opens online, when
 * the connection comes back and after each offline sale made while online again.
 */
export interface OfflineState {
  online: boolean;
  sending: boolean;
  sales: QueuedSale[];
  /** The owner's choice for card sales while offline, as last seen online (kept on the device). */
  cardOffline: OfflineCardPayments;
}

let state: OfflineState = { online: typeof navigator === 'undefined' ? true : navigator.onLine, sending: false, sales: [], cardOffline: OFFLINE_CARD_PAYMENTS_DEFAULT };
const listeners = new Set<() => void>();
const set = (next: Partial<OfflineState>) => {
  state = { ...state, ...next };
  for (const l of listeners) l();
};
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

export async function refreshQueue(): Promise<void> {
  set({ sales: await queuedSales(queueStore) });
}

let running: Promise<number> | null = null;

/** Sends the queue (one round at a time in this tab; the server's idempotency covers other tabs). Answers how many were sent. */
export function syncQueue(): Promise<number> {
  if (running) return running;
  running = (async () => {
    await refreshQueue();
    if (!state.sales.some((s) => s.status === 'pending')) return 0;
    set({ sending: true });
    try {
      const r = await sendQueue(queueStore, (sale) => createPosOrder(sale.body, sale.deviceSaleId), (e) => serverMessageOr(e, 'Sin conexión con el servidor.'));
      return r.sent;
    } finally {
      await refreshQueue();
      set({ sending: false });
    }
  })().finally(() => {
    running = null;
  });
  return running;
}

export async function retryFailedSale(deviceSaleId: string): Promise<void> {
  await retrySale(queueStore, deviceSaleId);
  await syncQueue();
}

export async function discardSale(deviceSaleId: string): Promise<void> {
  await queueStore.remove(deviceSaleId);
  await refreshQueue();
}

/** Saves the store's active products (up to 2,000) for offline use; best effort. */
async function refreshCatalog(): Promise<void> {
  const products: ProductView[] = [];
  for (let page = 1; page <= 20; page++) {
    const r = await getProducts({ isActive: true, limit: 100, page, sortBy: 'name', sortOrder: 'asc' });
    products.push(...r.products);
    if (page >= r.totalPages) break;
  }
  await saveCatalog(products);
}

/** The catalogue as the device last saw it, for the POS offline (the early read of an offline start first). */
export const offlineCatalog = readCatalog;
/** That early read's products if they are here already: the POS's first render shows them. */
export const preloadedProducts = (): ProductView[] | null => {
  const c = preloadedCatalog();
  return c === undefined ? null : (c?.products ?? []);
};

const CARD_OFFLINE_KEY = 'offlineCardPayments';

/** The POS's offline state; while mounted it follows the connection, sends the queue and keeps the catalogue and the card choice fresh. */
export function useOfflinePos(): OfflineState {
  const queryClient = useQueryClient();
  // FEL on or off as last seen online: an offline receipt prints the contingency's access number (issue 28).
  useRememberFelOnDevice(typeof navigator === 'undefined' || navigator.onLine);
  const settings = useStoreSettings();
  const cardOffline = settings.data?.offlineCardPayments;
  useEffect(() => {
    if (cardOffline) {
      set({ cardOffline });
      void saveMeta(CARD_OFFLINE_KEY, cardOffline).catch(() => undefined);
    } else {
      void loadMeta<OfflineCardPayments>(CARD_OFFLINE_KEY).then((kept) => kept && set({ cardOffline: kept }), () => undefined);
    }
  }, [cardOffline]);
  useEffect(() => {
    const afterSync = (sent: number) => {
      if (sent > 0) void queryClient.invalidateQueries();
    };
    const online = () => {
      set({ online: true });
      void syncQueue().then(afterSync, () => undefined);
      void refreshCatalog().catch(() => undefined);
    };
    const offline = () => set({ online: false });
    window.addEventListener('online', online);
    window.addEventListener('offline', offline);
    set({ online: navigator.onLine });
    if (navigator.onLine) online();
    else void refreshQueue();
    return () => {
      window.removeEventListener('online', online);
      window.removeEventListener('offline', offline);
    };
  }, [queryClient]);
  return useSyncExternalStore(subscribe, () => state);
}

/** Whether a failed sale call never reached an answer (no network): the sale can go to the queue. */
export function isNetworkFailure(error: unknown): boolean {
  return error instanceof TypeError || (typeof navigator !== 'undefined' && !navigator.onLine);
}

/** The device's stock updates, one after the other (each reads and writes the whole catalogue). */
let stockWrites: Promise<void> = Promise.resolve();

/**
 * An offline sale (cash, or card pending confirmation): written to the queue first, and the receipt
 * shows as soon as it is stored (issue 28: within 200 ms); then its units leave the device's stock,
 * the header's count follows, and it is sent at once if the connection is back.
 */
export async function queueOfflineSale(sale: Parameters<typeof enqueueSale>[1]): Promise<QueuedSale> {
  const queued = await enqueueSale(queueStore, sale);
  stockWrites = stockWrites.then(() => takeFromCatalog(sale.lines)).catch(() => undefined);
  void stockWrites
    .then(refreshQueue)
    .then(() => (navigator.onLine ? syncQueue() : 0))
    .catch(() => undefined);
  return queued;
}
