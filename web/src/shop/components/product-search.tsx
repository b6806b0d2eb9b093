import { useEffect, useState } from 'react';
import type { CategoryView } from '../lib/contracts';
import { SearchIcon } from './icons';

/** Waits this long after the last keystroke before asking the server, so a slow network is not flooded. */
const SEARCH_PAUSE_MS = 350;

/** Free-text search and the category filter of the shop page. */
export function ProductSearch({
  categories,
  categoryId,
  onSearch,
  onCategory,
}: {
  categories: CategoryView[];
  categoryId: string;
  onSearch: (search: string) => void;
  onCategory: (categoryId: string) => void;
}) {
  const [text, setText] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => onSearch(text.trim()), SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [text, onSearch]);

  return (
    <form className="shop-search" role="search" onSubmit={(e) => (e.preventDefault(), onSearch(text.trim()))}>
      <label className="shop-search__box">
        <span className="visually-hidden">Buscar productos</span>
        <SearchIcon />
        <input type="search" placeholder="Buscar productos…" value={text} onChange={(e) => setText(e.target.value)} enterKeyHint="search" />
      </label>
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
