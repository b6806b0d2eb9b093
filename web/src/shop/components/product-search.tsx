import { useEffect, useRef, useState } from 'react';
import { enhanceSearch } from '../api/enhance-search';
import { AI_SEARCH_MIN_CHARS, AI_SEARCH_PAUSE_MS, readSearchHistory, rememberSearch } from '../lib/ai-search';
import type { CategoryView, PublicProductView as SearchSuggestion } from '../lib/contracts';
import { formatMoney } from '../lib/format';
import { SearchIcon } from './icons';

/** Waits this long after the last keystroke before filtering the grid, so a slow network is not flooded. */
const SEARCH_PAUSE_MS = 350;

/**
 * Free-text search with AI suggestions, and the category filter of the shop page. Suggestions
 * are asked for from 3 characters after an 800 ms pause; a failure is logged and hides them.
 */
export function ProductSearch({
  store,
  categories,
  categoryId,
  onSearch,
  onCategory,
  onOpenSuggestion,
}: {
  store: string;
  categories: CategoryView[];
  categoryId: string;
  onSearch: (search: string) => void;
  onCategory: (categoryId: string) => void;
  onOpenSuggestion: (product: SearchSuggestion) => void;
}) {
  const [text, setText] = useState('');
  const [focused, setFocused] = useState(false);
  const [suggestions, setSuggestions] = useState<SearchSuggestion[] | null>(null);
  const [history, setHistory] = useState<string[]>(() => readSearchHistory(store));
  const closeTimer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => {
    const timer = setTimeout(() => onSearch(text.trim()), SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [text, onSearch]);

  useEffect(() => {
    const query = text.trim();
    setSuggestions(null);
    if (query.length < AI_SEARCH_MIN_CHARS) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      enhanceSearch(store, query, controller.signal)
        .then((r) => setSuggestions(r.suggestedProducts))
        .catch((error: unknown) => {
          if (controller.signal.aborted) return;
          console.warn('Búsqueda con IA no disponible', error);
          setSuggestions(null);
        });
    }, AI_SEARCH_PAUSE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [text, store]);

  const remember = () => setHistory(rememberSearch(store, text));
  const showHistory = focused && text.trim() === '' && history.length > 0;
  const showSuggestions = focused && suggestions !== null && text.trim().length >= AI_SEARCH_MIN_CHARS;
  // aria-controls only while the list is there: a reference to a missing id is invalid ARIA.
  const listShown = showHistory || showSuggestions;

  return (
    <form
      className="shop-search"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        remember();
        onSearch(text.trim());
      }}
    >
      <div
        className="shop-search__field"
        onFocus={() => {
          clearTimeout(closeTimer.current);
          setFocused(true);
        }}
        onBlur={() => {
          closeTimer.current = setTimeout(() => setFocused(false), 150);
        }}
      >
        <label className="shop-search__box">
          <span className="visually-hidden">Buscar productos</span>
          <SearchIcon />
          <input
            type="search"
            placeholder="Buscar productos…"
            value={text}
            onChange={(e) => setText(e.target.value)}
            enterKeyHint="search"
            autoComplete="off"
            aria-autocomplete="list"
            aria-controls={listShown ? 'shop-search-suggestions' : undefined}
          />
        </label>
        {showHistory && (
          <ul className="shop-suggest" id="shop-search-suggestions" aria-label="Búsquedas recientes">
            {history.map((term) => (
              <li key={term}>
                <button type="button" className="shop-suggest__item" onClick={() => setText(term)}>
                  <span className="shop-muted">↺</span> {term}
                </button>
              </li>
            ))}
          </ul>
        )}
        {showSuggestions && (
          <ul className="shop-suggest" id="shop-search-suggestions" aria-label="Sugerencias">
            {suggestions.length === 0 ? (
              <li className="shop-suggest__empty">Sin sugerencias para “{text.trim()}”.</li>
            ) : (
              suggestions.slice(0, 6).map((s) => (
                <li key={s.id}>
                  <button
                    type="button"
                    className="shop-suggest__item"
                    onClick={() => {
                      remember();
                      setFocused(false);
                      onOpenSuggestion(s);
                    }}
                  >
                    <span className="shop-suggest__name">{s.name}</span>
                    <span className="shop-suggest__price">{formatMoney(s.finalPrice)}</span>
                  </button>
                </li>
              ))
            )}
          </ul>
        )}
      </div>
      {categories.length > 0 && (
        <label className="shop-search__category">
          <span className="visually-hidden">Categoría</span>
          <select value={categoryId} onChange={(e) => onCategory(e.target.value)}>
            <option value="">Todas las categorías</option>
            {categories.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </label>
      )}
    </form>
  );
}
