import { Suspense, useEffect, useState, type ReactNode } from 'react';

/**
 * Renders a lazy dialog only once it has been opened, then keeps it (so it closes the normal way).
 * `preload` fetches its chunk when the browser is idle, so the first open does not wait for the
 * network; the shop's first screen neither downloads nor runs it.
 */
export function Deferred({ open, preload, children }: { open: boolean; preload: () => Promise<unknown>; children: ReactNode }) {
  const [mounted, setMounted] = useState(open);
  if (open && !mounted) setMounted(true);

  useEffect(() => {
    const id = window.requestIdleCallback?.(() => void preload(), { timeout: 8000 });
    return () => {
      if (id !== undefined) window.cancelIdleCallback?.(id);
    };
  }, [preload]);

  return mounted ? <Suspense fallback={null}>{children}</Suspense> : null;
}
