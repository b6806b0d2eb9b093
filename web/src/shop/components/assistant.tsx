import { lazy, Suspense, useEffect, useState } from 'react';
import { whenSettled } from '../lib/when-settled';

const loadPanel = () => import('./assistant-panel');
const AssistantPanel = lazy(() => loadPanel().then((m) => ({ default: m.AssistantPanel })));

/**
 * The shop's floating virtual assistant: a button on the first screen; the conversation is its own
 * chunk (assistant-panel.tsx), fetched once the page has settled (whenSettled) or when the button is
 * pressed, so it adds nothing to what a phone runs while the shop starts.
 */
export function Assistant({ store, storeName, onProductPage = false }: { store: string; storeName: string; onProductPage?: boolean }) {
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);

  useEffect(() => whenSettled(() => void loadPanel()), []);

  return (
    <>
      <button
        type="button"
        className={`shop-fab shop-fab--assistant${onProductPage ? ' shop-fab--assistant-product' : ''}`}
        aria-label={open ? 'Cerrar asistente virtual' : 'Abrir asistente virtual'}
        aria-expanded={open}
        onClick={() => {
          setUsed(true);
          setOpen((o) => !o);
        }}
      >
        <svg width="24" height="24" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
          <path d="M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z" />
        </svg>
      </button>
      {used && (
        <Suspense fallback={null}>
          <AssistantPanel store={store} storeName={storeName} open={open} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
