interface QuantityPickerProps {
  value: number;
  min?: number;
  max: number;
  onChange: (value: number) => void;
  label: string;
}

/** − n + with the plus disabled at the maximum (the stock). */
export function QuantityPicker({ value, min = 1, max, onChange, label }: QuantityPickerProps) {
  return (
    <div className="shop-qty" role="group" aria-label={label}>
      <button type="button" onClick={() => onChange(value - 1)} disabled={value <= min} aria-label="Quitar uno">
        −
      </button>
      <output aria-live="polite">{value}</output>
      <button type="button" onClick={() => onChange(value + 1)} disabled={value >= max} aria-label="Agregar uno">
        +
      </button>
    </div>
  );
}
