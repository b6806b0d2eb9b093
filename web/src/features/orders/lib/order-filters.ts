import type { OrderListParams, OrderSortBy } from '../api/get-orders';
import type { OrderStatus, OrderType, PaymentStatus } from '../api/types';

export interface OrderFilterState {
  search: string;
  status: OrderStatus | 'all';
  paymentStatus: PaymentStatus | 'all';
  orderType: OrderType | 'all';
  startDate: string;
  endDate: string;
  page: number;
  limit: number;
  sortBy: OrderSortBy;
  sortOrder: 'asc' | 'desc';
}

/** Clear filters: newest first, page 1, size 10. */
export const DEFAULT_ORDER_FILTERS: OrderFilterState = {
  search: '',
  status: 'all',
  paymentStatus: 'all',
  orderType: 'all',
  startDate: '',
  endDate: '',
  page: 1,
  limit: 10,
  sortBy: 'createdAt',
  sortOrder: 'desc',
};

export function orderListParams(f: OrderFilterState): OrderListParams {
  return {
    search: f.search.trim() || undefined,
    status: f.status === 'all' ? undefined : f.status,
    paymentStatus: f.paymentStatus === 'all' ? undefined : f.paymentStatus,
    orderType: f.orderType === 'all' ? undefined : f.orderType,
    startDate: f.startDate || undefined,
    endDate: f.endDate || undefined,
    page: f.page,
    limit: f.limit,
    sortBy: f.sortBy,
    sortOrder: f.sortOrder,
  };
}

export function hasOrderFilters(f: OrderFilterState): boolean {
  return JSON.stringify(f) !== JSON.stringify(DEFAULT_ORDER_FILTERS);
}

/** How many of the sheet's filters are set (status, payment, type, dates), for the phone's 'Filtros' button. */
export function activeFilterCount(f: OrderFilterState): number {
  return [f.status !== 'all', f.paymentStatus !== 'all', f.orderType !== 'all', f.startDate !== '', f.endDate !== ''].filter(Boolean).length;
}
