/** Toasts of spec 000 §9: at most one shown, 5000 ms each, and a dismissed toast leaves promptly. */
export const TOAST_LIMIT = 1;
export const TOAST_DURATION_MS = 5000;
/** Long enough for the closing animation, then the toast is gone from the DOM. */
export const TOAST_REMOVE_DELAY_MS = 200;
/** Swiping a toast this far to the right dismisses it. */
export const TOAST_SWIPE_THRESHOLD_PX = 50;

export type ToastVariant = 'default' | 'destructive';

export interface ToastInput {
  title: string;
  description?: string;
  variant?: ToastVariant;
  durationMs?: number;
}

export interface ToastItem extends Required<Omit<ToastInput, 'description'>> {
  id: number;
  description?: string;
  open: boolean;
}

let toasts: readonly ToastItem[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const removalTimers = new Map<number, ReturnType<typeof setTimeout>>();

function emit(next: readonly ToastItem[]): void {
  toasts = next;
  listeners.forEach((listener) => listener());
}

function scheduleRemoval(id: number): void {
  if (removalTimers.has(id)) return;
  removalTimers.set(
    id,
    setTimeout(() => {
      removalTimers.delete(id);
      emit(toasts.filter((t) => t.id !== id));
    }, TOAST_REMOVE_DELAY_MS),
  );
}

/** Shows a toast; the newest replaces whatever was showing. Returns its id. */
export function toast(input: ToastInput): number {
  const id = nextId++;
  const item: ToastItem = {
    id,
    title: input.title,
    description: input.description,
    variant: input.variant ?? 'default',
    durationMs: input.durationMs ?? TOAST_DURATION_MS,
    open: true,
  };
  const kept = [item, ...toasts].slice(0, TOAST_LIMIT);
  toasts.filter((t) => !kept.includes(t)).forEach((t) => {
    const timer = removalTimers.get(t.id);
    if (timer) clearTimeout(timer);
    removalTimers.delete(t.id);
  });
  emit(kept);
  return id;
}

/** Closes one toast (or all of them) and removes it after the closing animation. */
export function dismissToast(id?: number): void {
  emit(toasts.map((t) => (id === undefined || t.id === id ? { ...t, open: false } : t)));
  toasts.filter((t) => !t.open).forEach((t) => scheduleRemoval(t.id));
}

export function subscribeToasts(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getToasts(): readonly ToastItem[] {
  return toasts;
}

/** sessionStorage key of a toast to show once the next page of this tab has loaded. */
const CARRIED_TOAST_KEY = 'tiendita.toast';

/**
 * Shows a toast now and again on the page this tab loads next (a full reload such as the login
 * page's into /dashboard), for the rest of its 5 s: otherwise the reload would take it away within
 * ~100 ms, before anyone could read it.
 */
export function toastAcrossReload(input: ToastInput): number {
  const id = toast(input);
  try {
    sessionStorage.setItem(CARRIED_TOAST_KEY, JSON.stringify({ input, until: Date.now() + (input.durationMs ?? TOAST_DURATION_MS) }));
  } catch {
    // Storage refused (private mode, quota): the toast shows on this page only.
  }
  return id;
}

/** Shows the toast a previous page of this tab left for this one (toastAcrossReload), once. */
export function showCarriedToast(): void {
  let carried: { input?: ToastInput; until?: number } | null;
  try {
    const raw = sessionStorage.getItem(CARRIED_TOAST_KEY);
    if (raw === null) return;
    sessionStorage.removeItem(CARRIED_TOAST_KEY);
    carried = JSON.parse(raw) as { input?: ToastInput; until?: number };
  } catch {
    return;
  }
  const left = (carried?.until ?? 0) - Date.now();
  if (!carried?.input || typeof carried.input.title !== 'string' || left <= 0) return;
  toast({ ...carried.input, durationMs: Math.min(left, carried.input.durationMs ?? TOAST_DURATION_MS) });
}
