import type { OrderListParams } from './get-orders';

/** Query keys of the orders feature; where joined by '/' they are the GET paths (spec 001 §7). */
export const orderKeys = {
  all: ['/api/orders'] as const,
  list: (params: OrderListParams) => ['/api/orders', 'list', params] as const,
  detail: (id: string) => ['/api/orders', id] as const,
  history: (id: string) => ['/api/orders', id, 'history'] as const,
};
