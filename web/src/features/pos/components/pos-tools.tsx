import { forwardRef, useId } from 'react';
import { CloseCircleFilled, SearchOutlined } from '@ant-design/icons';
import { QUANTITY_OPTIONS } from '../lib/pos-cart';
import './pos-tools.css';

/**
 * The POS's search, category and quantity per click as plain form controls (issue 28: the POS opened
 * offline shows its first product within 1 s). antd's Input.Search, Select and Segmented computed and
 * inserted their CSS-in-JS styles on the POS's first render (about a third of its time on a phone's
 * processor); these read the same and are styled by pos.css. A native select also opens the phone's own picker.
 */
interface SearchProps {
  value: string;
  onChange: (value: string) => void;
  /** Enter or the search button: a scanner's SKU, or the text to search. */
  onSearch: (value: string) => void;
  onClear: () => void;
}

export const PosSearch = forwardRef<HTMLInputElement, SearchProps>(function PosSearch({ value, onChange, onSearch, onClear }, ref) {
  return (
    <div className="pos-search">
      <input
        ref={ref}
        type="search"
        enterKeyHint="search"
        className="pos-search__input"
        placeholder="Nombre o SKU, o escanea"
        aria-label="Buscar por nombre o SKU"
        autoComplete="off"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.nativeEvent.isComposing) {
            e.preventDefault();
            onSearch(e.currentTarget.value);
          }
        }}
        autoFocus
      />
      {value !== '' && (
        <button type="button" className="pos-search__clear" aria-label="Borrar búsqueda" onClick={onClear}>
          <CloseCircleFilled />
        </button>
      )}
      <button type="button" className="pos-search__go" aria-label="Buscar" onClick={() => onSearch(value)}>
        <SearchOutlined />
      </button>
    </div>
  );
});

export interface CategoryOption {
  value: string;
  label: string;
}

export function PosCategorySelect({ value, onChange, options }: { value: string; onChange: (value: string) => void; options: CategoryOption[] }) {
  return (
    <select className="pos-select" aria-label="Categoría" value={value} onChange={(e) => onChange(e.target.value)}>
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  );
}

/** 'Cantidad por clic': radio buttons that look like a segmented control. */
export function PosPerClick({ value, onChange }: { value: number; onChange: (value: number) => void }) {
  const id = useId();
  return (
    <div className="pos__per-click">
      <span id={id}>Cantidad por clic</span>
      <div className="pos-seg" role="radiogroup" aria-labelledby={id}>
        {QUANTITY_OPTIONS.map((n) => (
          <label key={n} className={`pos-seg__item${n === value ? ' pos-seg__item--on' : ''}`}>
            <input type="radio" className="pos-seg__input" name={id} value={n} checked={n === value} onChange={() => onChange(n)} />
            <span>{n}</span>
          </label>
        ))}
      </div>
    </div>
  );
}
