import { useCallback, useMemo, useSyncExternalStore } from 'react';

/**
 * One cart line. `price` is the discounted price the server charges (a departure from spec 001 §3's
 * list-price public cart, recorded in docs/architecture.md), `listPrice` the price before discount.
 */
export interface CartLine {
  productId: string;
  name: string;
  price: number;
  listPrice?: number;
  quantity: number;
  stock: number;
  imageUrl: string | null;
}

/** What the cart needs of a product to add it. */
export interface CartProduct {
  id: string;
  name: string;
  price: number;
  finalPrice: number;
  stock: number;
  imageUrl: string | null;
}

const EMPTY: readonly CartLine[] = [];
const cache = new Map<string, readonly CartLine[]>();
const listeners = new Set<() => void>();

const storageKey = (store: string) => `tiendita.cart.${store}`;

function isLine(value: unknown): value is CartLine {
  if (!value || typeof value !== 'object') return false;
  const line = value as Record<string, unknown>;
  return (
    typeof line.productId === 'string' &&
    typeof line.name === 'string' &&
    typeof line.price === 'number' &&
    typeof line.quantity === 'number' &&
    typeof line.stock === 'number'
  );
}

function read(store: string): readonly CartLine[] {
  const cached = cache.get(store);
  if (cached) return cached;
  let lines: readonly CartLine[] = EMPTY;
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(storageKey(store)) ?? '[]');
    if (Array.isArray(parsed)) lines = parsed.filter(isLine).map((l) => ({ ...l, imageUrl: l.imageUrl ?? null }));
  } catch {
    lines = EMPTY;
  }
  cache.set(store, lines);
  return lines;
}

function write(store: string, lines: readonly CartLine[]): void {
  cache.set(store, lines);
  try {
    if (lines.length === 0) localStorage.removeItem(storageKey(store));
    else localStorage.setItem(storageKey(store), JSON.stringify(lines));
  } catch {
    // Private mode or a full storage: the cart still works for this visit.
  }
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab of the same shop changed the cart.
  const onStorage = (event: StorageEvent) => {
    if (event.key?.startsWith('tiendita.cart.')) {
      cache.clear();
      listener();
    }
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

const clamp = (quantity: number, stock: number) => Math.min(Math.max(Math.floor(quantity), 0), Math.max(stock, 0));

/** Adds a quantity of a product, capped at its stock; a product without stock is ignored (spec 001 §5). */
export function addToCart(store: string, product: CartProduct, quantity: number): void {
  if (product.stock <= 0 || quantity <= 0) return;
  const lines = read(store);
  const existing = lines.find((l) => l.productId === product.id);
  const next: CartLine = {
    productId: product.id,
    name: product.name,
    price: product.finalPrice,
    listPrice: product.price,
    stock: product.stock,
    imageUrl: product.imageUrl,
    quantity: clamp((existing?.quantity ?? 0) + quantity, product.stock),
  };
  write(store, existing ? lines.map((l) => (l.productId === product.id ? next : l)) : [...lines, next]);
}

/** Sets a line's quantity, capped at stock; 0 or less removes the line. */
export function setCartQuantity(store: string, productId: string, quantity: number): void {
  const lines = read(store);
  const line = lines.find((l) => l.productId === productId);
  if (!line) return;
  const capped = clamp(quantity, line.stock);
  write(store, capped <= 0 ? lines.filter((l) => l.productId !== productId) : lines.map((l) => (l === line ? { ...l, quantity: capped } : l)));
}

export function removeFromCart(store: string, productId: string): void {
  write(store, read(store).filter((l) => l.productId !== productId));
}

export function clearCart(store: string): void {
  write(store, EMPTY);
}

/** Number of units in a cart, and its total at the lines' prices. */
export function cartTotals(lines: readonly CartLine[]): { count: number; total: number } {
  let count = 0;
  let cents = 0;
  for (const line of lines) {
    count += line.quantity;
    cents += Math.round(line.price * 100) * line.quantity;
  }
  return { count, total: cents / 100 };
}

/** The cart of one store, kept in this browser's localStorage. */
export function useCart(store: string) {
  const getSnapshot = useCallback(() => read(store), [store]);
  const lines = useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
  return useMemo(() => ({ lines, ...cartTotals(lines) }), [lines]);
}
