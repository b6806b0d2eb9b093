import type { CSSProperties, ReactNode } from 'react';
import './panel.css';

/**
 * A titled box that looks like antd's Card, in plain markup: antd's Card brings its Tabs (~18 KB
 * gzipped) and its Tag the colour picker's presets, too much for the owner's first screen. The title
 * is an h2, under the page's h1.
 */
export function Panel({ title, extra, className, style, children }: { title?: ReactNode; extra?: ReactNode; className?: string; style?: CSSProperties; children: ReactNode }) {
  return (
    <section className={className ? `panel ${className}` : 'panel'} style={style}>
      {title || extra ? (
        <div className="panel__head">
          {title ? <h2 className="panel__title">{title}</h2> : <span />}
          {extra ? <div className="panel__extra">{extra}</div> : null}
        </div>
      ) : null}
      <div className="panel__body">{children}</div>
    </section>
  );
}

/** Grey lines while a panel's data loads (antd's Skeleton look, without its code). */
export function LoadingLines({ rows = 3, label = 'Cargando…' }: { rows?: number; label?: string }) {
  return (
    <div className="loading-lines" role="status" aria-label={label}>
      {Array.from({ length: rows }, (_, i) => (
        <span key={i} style={{ width: i === rows - 1 ? '60%' : '100%' }} />
      ))}
    </div>
  );
}

/** antd preset colour names (contracts' status colours) as a chip with readable text (WCAG AA). */
const CHIP_COLORS: Record<string, [string, string, string]> = {
  gold: ['#fffbe6', '#874d00', '#ffe58f'],
  blue: ['#e6f4ff', '#0958d9', '#91caff'],
  geekblue: ['#f0f5ff', '#1d39c4', '#adc6ff'],
  cyan: ['#e6fffb', '#006d75', '#87e8de'],
  purple: ['#f9f0ff', '#531dab', '#d3adf7'],
  lime: ['#fcffe6', '#3f6600', '#eaff8f'],
  green: ['#f6ffed', '#237804', '#b7eb8f'],
  red: ['#fff1f0', '#cf1322', '#ffa39e'],
};

/** A small coloured label, like antd's Tag. */
export function Chip({ color, children }: { color?: string; children: ReactNode }) {
  const [background, text, border] = CHIP_COLORS[color ?? ''] ?? ['#fafafa', '#334155', '#d9d9d9'];
  return (
    <span className="chip" style={{ background, color: text, borderColor: border }}>
      {children}
    </span>
  );
}
