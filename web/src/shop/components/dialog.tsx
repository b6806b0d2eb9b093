import { useEffect, useId, useRef, type ReactNode } from 'react';
import { CloseIcon } from './icons';

interface DialogProps {
  open: boolean;
  onClose: () => void;
  title: string;
  /** Shows the title to screen readers only. */
  hideTitle?: boolean;
  size?: 'small' | 'large';
  children: ReactNode;
}

/** A modal on the native <dialog>: focus trap, Escape and the backdrop come from the browser. */
export function Dialog({ open, onClose, title, hideTitle, size = 'small', children }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  useEffect(() => {
    if (!open) return;
    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = overflow;
    };
  }, [open]);

  return (
    <dialog
      ref={ref}
      className={`shop-dialog shop-dialog--${size}`}
      aria-labelledby={titleId}
      onClose={() => open && onClose()}
      onClick={(event) => {
        if (event.target === ref.current) onClose();
      }}
    >
      <div className="shop-dialog__panel">
        <header className="shop-dialog__head">
          <h2 id={titleId} className={hideTitle ? 'visually-hidden' : 'shop-dialog__title'}>
            {title}
          </h2>
          <button type="button" className="shop-icon-button" onClick={onClose} aria-label="Cerrar">
            <CloseIcon />
          </button>
        </header>
        <div className="shop-dialog__body">{open ? children : null}</div>
      </div>
    </dialog>
  );
}
