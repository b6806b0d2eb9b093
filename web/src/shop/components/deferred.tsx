import { Suspense, useEffect, useState, type ReactNode } from 'react';
import { whenSettled } from '../lib/when-settled';

/**
 * Renders a lazy dialog only once it has been opened, then keeps it (so it closes the normal way).
 * `preload` fetches its chunk once the page has settled (whenSettled), so the first open usually
 * does not wait for the network; the shop's first screen neither downloads nor runs it.
 */
export function Deferred({ open, preload, children }: { open: boolean; preload: () => Promise<unknown>; children: ReactNode }) {
  const [mounted, setMounted] = useState(open);
  if (open && !mounted) setMounted(true);

  useEffect(() => whenSettled(() => void preload()), [preload]);

  return mounted ? <Suspense fallback={null}>{children}</Suspense> : null;
}
