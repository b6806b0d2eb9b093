import { DEFAULT_PRODUCT_PAGE_SIZE, type ProductListQuery } from '@tiendita/contracts';
import type { ProductListParams } from '../api/keys';

export type SortField = ProductListQuery['sortBy'];
export type SortOrder = ProductListQuery['sortOrder'];

/** The products page's controls: filters, page size, sort and page. */
export interface ProductFilterState {
  search: string;
  /** 'all', 'none' (products without category) or a category id. */
  categoryId: string;
  status: 'all' | 'active' | 'inactive';
  stock: 'all' | 'low' | 'normal';
  limit: number;
  sortBy: SortField;
  sortOrder: SortOrder;
  page: number;
}

/** Default: all products, 12 a page, newest first (spec 001 §9). */
export const DEFAULT_FILTERS: ProductFilterState = {
  search: '',
  categoryId: 'all',
  status: 'all',
  stock: 'all',
  limit: DEFAULT_PRODUCT_PAGE_SIZE,
  sortBy: 'createdAt',
  sortOrder: 'desc',
  page: 1,
};

export function hasActiveFilters(f: ProductFilterState): boolean {
  return f.search !== '' || f.categoryId !== 'all' || f.status !== 'all' || f.stock !== 'all';
}

/** The GET /api/products query of the controls. */
export function listParamsOf(f: ProductFilterState): ProductListParams {
  return {
    sortBy: f.sortBy,
    sortOrder: f.sortOrder,
    page: f.page,
    limit: f.limit,
    ...(f.search.trim() ? { search: f.search.trim() } : {}),
    ...(f.categoryId !== 'all' ? { categoryId: f.categoryId } : {}),
    ...(f.status !== 'all' ? { isActive: f.status === 'active' } : {}),
    ...(f.stock !== 'all' ? { lowStock: f.stock === 'low' } : {}),
  };
}
