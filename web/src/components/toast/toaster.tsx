import { useEffect, useRef, useState, useSyncExternalStore, type PointerEvent } from 'react';
import { dismissToast, getToasts, subscribeToasts, TOAST_SWIPE_THRESHOLD_PX, type ToastItem } from './toast-store';
import './toast.css';

const HOTKEY = 'F8';

/** The notification region: F8 moves focus to it; toasts announce themselves politely (errors assertively). */
export function Toaster() {
  const items = useSyncExternalStore(subscribeToasts, getToasts, getToasts);
  const regionRef = useRef<HTMLElement>(null);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === HOTKEY) {
        event.preventDefault();
        regionRef.current?.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);

  // The region lives in the browser's top layer (a manual popover), raised again whenever a toast
  // appears: a native modal <dialog> opened earlier would otherwise cover it and dim it under its backdrop.
  useEffect(() => {
    const region = regionRef.current;
    if (!region || typeof region.showPopover !== 'function' || items.length === 0) return;
    try {
      if (region.matches(':popover-open')) region.hidePopover();
      region.showPopover();
    } catch {
      // A browser without popovers keeps the fixed region and its z-index.
    }
  }, [items]);

  return (
    <section ref={regionRef} popover="manual" className="toast-region" aria-label={`Notificaciones (${HOTKEY})`} tabIndex={-1}>
      <ol className="toast-list">
        {items.map((item) => (
          <Toast key={item.id} item={item} />
        ))}
      </ol>
    </section>
  );
}

function Toast({ item }: { item: ToastItem }) {
  const [offset, setOffset] = useState(0);
  const [paused, setPaused] = useState(false);
  const start = useRef<{ x: number; pointerId: number } | null>(null);

  useEffect(() => {
    if (!item.open || paused) return;
    const timer = setTimeout(() => dismissToast(item.id), item.durationMs);
    return () => clearTimeout(timer);
  }, [item.id, item.open, item.durationMs, paused]);

  const onPointerDown = (event: PointerEvent<HTMLLIElement>) => {
    if ((event.target as HTMLElement).closest('button')) return;
    start.current = { x: event.clientX, pointerId: event.pointerId };
    event.currentTarget.setPointerCapture?.(event.pointerId);
  };
  const onPointerMove = (event: PointerEvent<HTMLLIElement>) => {
    if (!start.current || start.current.pointerId !== event.pointerId) return;
    setOffset(Math.max(0, event.clientX - start.current.x));
  };
  const onPointerEnd = (event: PointerEvent<HTMLLIElement>) => {
    if (!start.current || start.current.pointerId !== event.pointerId) return;
    const distance = event.clientX - start.current.x;
    start.current = null;
    if (distance >= TOAST_SWIPE_THRESHOLD_PX) dismissToast(item.id);
    else setOffset(0);
  };

  const destructive = item.variant === 'destructive';
  return (
    <li
      className={`toast${destructive ? ' toast--destructive' : ''}`}
      data-state={item.open ? 'open' : 'closed'}
      data-swiping={offset > 0 ? 'true' : undefined}
      role={destructive ? 'alert' : 'status'}
      aria-atomic="true"
      style={offset > 0 ? { transform: `translateX(${offset}px)`, opacity: Math.max(0.3, 1 - offset / 200) } : undefined}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerEnd}
      onPointerCancel={onPointerEnd}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      <div className="toast-text">
        <span className="toast-title">{item.title}</span>
        {item.description ? (
          <>
            <span className="visually-hidden">: </span>
            <span className="toast-description">{item.description}</span>
          </>
        ) : null}
      </div>
      <button type="button" className="toast-close" aria-label="Cerrar notificación" onClick={() => dismissToast(item.id)}>
        <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
          <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      </button>
    </li>
  );
}
