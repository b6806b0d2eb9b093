import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RecordPaymentRequest } from '@tiendita/contracts';
import { apiJson } from '../../../lib/api';
import { settleOrder } from './order-cache';
import type { OrderView } from './types';

/**
 * POST /api/orders/{id}/payments with an Idempotency-Key (one per attempt, reused on a retry): a
 * double tap on 'Marcar como pagado' records one payment. Answers the order with its new balance.
 */
export function recordPayment(orderId: string, body: RecordPaymentRequest, idempotencyKey: string): Promise<OrderView> {
  return apiJson<OrderView>('POST', `/api/orders/${encodeURIComponent(orderId)}/payments`, { json: body, headers: { 'Idempotency-Key': idempotencyKey } });
}

export function useRecordPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ orderId, body, idempotencyKey }: { orderId: string; body: RecordPaymentRequest; idempotencyKey: string }) => recordPayment(orderId, body, idempotencyKey),
    onSuccess: (order) => settleOrder(queryClient, order),
  });
}
