import { useId } from 'react';
import { formatDecimal } from '../lib/contracts';

const STAR = 'M12 2.5l2.9 6 6.6.9-4.8 4.6 1.2 6.5L12 17.4l-5.9 3.1 1.2-6.5L2.5 9.4l6.6-.9z';

function Star({ fill, size }: { fill: number; size: number }) {
  const id = useId();
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id={id}>
          <stop offset={`${fill * 100}%`} stopColor="#f59e0b" />
          <stop offset={`${fill * 100}%`} stopColor="#d1d5db" />
        </linearGradient>
      </defs>
      <path d={STAR} fill={`url(#${id})`} />
    </svg>
  );
}

/** Five stars filled to a rating of 0 to 5, read out as "4,5 de 5 estrellas". */
export function Stars({ value, size = 16 }: { value: number; size?: number }) {
  const label = `${formatDecimal(value, 1)} de 5 estrellas`;
  return (
    <span className="shop-stars" role="img" aria-label={label}>
      {[0, 1, 2, 3, 4].map((i) => (
        <Star key={i} size={size} fill={Math.min(Math.max(value - i, 0), 1)} />
      ))}
    </span>
  );
}

/** Picks 1 to 5 stars with radio buttons, so arrows and Tab work from the keyboard. */
export function StarInput({ value, onChange, label }: { value: number; onChange: (value: number) => void; label: string }) {
  const name = useId();
  return (
    <fieldset className="shop-star-input">
      <legend>{label}</legend>
      {[1, 2, 3, 4, 5].map((n) => (
        <label key={n} className={n <= value ? 'is-on' : undefined}>
          <input type="radio" name={name} value={n} checked={value === n} onChange={() => onChange(n)} className="visually-hidden" />
          <svg width={28} height={28} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path d={STAR} />
          </svg>
          <span className="visually-hidden">{n === 1 ? '1 estrella' : `${n} estrellas`}</span>
        </label>
      ))}
    </fieldset>
  );
}
