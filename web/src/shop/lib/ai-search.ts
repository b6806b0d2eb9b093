// Constants of spec 001 §9 for the shop's AI search and assistant (kept here, not imported from
// contracts' zod module, so the shop bundle stays small).
export const AI_SEARCH_MIN_CHARS = 3;
export const AI_SEARCH_PAUSE_MS = 800;
export const AI_SEARCH_HISTORY_SIZE = 5;
export const ASSISTANT_MIN_DELAY_MS = 1000;
export const ASSISTANT_MAX_DELAY_MS = 2500;
export const ASSISTANT_MAX_PRODUCTS = 10;

const historyKey = (store: string) => `tiendita:busquedas:${store}`;

/** The store's recent searches, newest first (at most 5, kept in this browser). */
export function readSearchHistory(store: string): string[] {
  try {
    const value = JSON.parse(localStorage.getItem(historyKey(store)) ?? '[]') as unknown;
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string').slice(0, AI_SEARCH_HISTORY_SIZE) : [];
  } catch {
    return [];
  }
}

/** Puts a term first in the store's recent searches (no duplicates, case-insensitive). */
export function rememberSearch(store: string, term: string): string[] {
  const t = term.trim();
  if (t.length < AI_SEARCH_MIN_CHARS) return readSearchHistory(store);
  const next = [t, ...readSearchHistory(store).filter((s) => s.toLowerCase() !== t.toLowerCase())].slice(0, AI_SEARCH_HISTORY_SIZE);
  try {
    localStorage.setItem(historyKey(store), JSON.stringify(next));
  } catch {
    // Private mode or full storage: the history is a convenience only.
  }
  return next;
}
