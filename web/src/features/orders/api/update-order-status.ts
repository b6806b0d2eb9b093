import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PaymentRecordMethod } from '@tiendita/contracts';
import { apiFetch } from '../../../lib/api';
import { settleOrder } from './order-cache';
import type { OrderStatus, OrderView } from './types';

export interface StatusChange {
  id: string;
  status: OrderStatus;
  notes?: string;
  /** Cancelling a paid order: how the money goes back (the server refunds by each method paid without it). */
  refundMethod?: PaymentRecordMethod;
}

/** PUT /api/orders/{id}/status `{ status, notes, refundMethod }`. */
export async function updateOrderStatus({ id, status, notes, refundMethod }: StatusChange): Promise<OrderView | null> {
  const res = await apiFetch('PUT', `/api/orders/${encodeURIComponent(id)}/status`, { json: { status, notes: notes?.trim() || undefined, refundMethod } });
  const text = await res.text();
  return text ? (JSON.parse(text) as OrderView) : null;
}

export function useUpdateOrderStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateOrderStatus,
    onSuccess: (order) => settleOrder(queryClient, order),
  });
}
