/** Shown while a screen's chunk or the session lookup is on its way. */
export function PageLoader() {
  return (
    <div className="page-loader" role="status" aria-live="polite">
      <div className="page-loader__spinner" aria-hidden="true" />
      <span className="visually-hidden">Cargando…</span>
    </div>
  );
}
