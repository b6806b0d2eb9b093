import type { ProductView } from '@tiendita/contracts';

const fold = (s: string): string =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

const byName = new Intl.Collator('es').compare;

/** The device's catalogue as the POS grid shows it offline: active products, by name or SKU and category, by name. */
export function filterCatalog(products: readonly ProductView[], search: string, categoryId: string): ProductView[] {
  const q = fold(search.trim());
  return products
    .filter((p) => p.isActive)
    .filter((p) => categoryId === 'all' || p.categoryId === categoryId)
    .filter((p) => !q || fold(p.name).includes(q) || fold(p.sku ?? '').includes(q))
    .sort((a, b) => byName(a.name, b.name))
    .slice(0, 100);
}
