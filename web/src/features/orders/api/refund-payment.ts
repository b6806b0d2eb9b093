import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RefundPaymentRequest } from '@tiendita/contracts';
import { apiJson } from '../../../lib/api';
import { settleOrder } from './order-cache';
import type { OrderView } from './types';

/** POST /api/orders/{id}/refunds: money given back (never more than was paid). Answers the order. */
export function refundPayment(orderId: string, body: RefundPaymentRequest): Promise<OrderView> {
  return apiJson<OrderView>('POST', `/api/orders/${encodeURIComponent(orderId)}/refunds`, { json: body });
}

export function useRefundPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ orderId, body }: { orderId: string; body: RefundPaymentRequest }) => refundPayment(orderId, body),
    onSuccess: (order) => settleOrder(queryClient, order),
  });
}
