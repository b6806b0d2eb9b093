import { lazy, Suspense, useEffect, useState } from 'react';
import { whenSettled } from '../lib/when-settled';
import { ChatIcon } from './icons';

const loadPanel = () => import('./assistant-panel');
const AssistantPanel = lazy(() => loadPanel().then((m) => ({ default: m.AssistantPanel })));

/**
 * The shop's floating virtual assistant (its open state is the shop's: the header opens it on a phone): a button on the first screen; the conversation is its own
 * chunk (assistant-panel.tsx), fetched once the page has settled (whenSettled) or when the button is
 * pressed, so it adds nothing to what a phone runs while the shop starts.
 */
export function Assistant({
  store,
  storeName,
  onProductPage = false,
  open,
  onToggle,
}: {
  store: string;
  storeName: string;
  onProductPage?: boolean;
  open: boolean;
  onToggle: (open: boolean) => void;
}) {
  const [used, setUsed] = useState(open);

  useEffect(() => whenSettled(() => void loadPanel()), []);
  useEffect(() => {
    if (open) setUsed(true);
  }, [open]);

  return (
    <>
      {/* On a phone this round button is hidden (it would sit on the cards' buttons): the header's serves. */}
      <button
        type="button"
        className={`shop-fab shop-fab--assistant${onProductPage ? ' shop-fab--assistant-product' : ''}`}
        aria-label={assistantLabel(open)}
        aria-expanded={open}
        onClick={() => onToggle(!open)}
      >
        <ChatIcon size={24} />
      </button>
      {used && (
        <Suspense fallback={null}>
          <AssistantPanel store={store} storeName={storeName} open={open} onClose={() => onToggle(false)} />
        </Suspense>
      )}
    </>
  );
}

/** The assistant button's name, open or closed. */
export function assistantLabel(open: boolean): string {
  return open ? 'Cerrar asistente virtual' : 'Abrir asistente virtual';
}
