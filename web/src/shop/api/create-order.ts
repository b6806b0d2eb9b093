import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '../../lib/api';

/** POST /api/public/orders/{store} body (spec 001 §7). Prices are the server's, never sent. */
export interface CreatePublicOrderRequest {
  customerData: { name: string; phone: string; address: string; notes: string };
  items: { productId: string; quantity: number }[];
}

/** The 201 answer: amounts in quetzales; whatsappUrl is null when the store has no WhatsApp number. */
export interface PublicOrderCreated {
  id: string;
  code: string;
  status: 'pending';
  items: { productId: string; productName: string; quantity: number; price: number }[];
  subtotal: number;
  tax: number;
  total: number;
  whatsappMessage: string;
  whatsappUrl: string | null;
}

/**
 * Places a public order with an Idempotency-Key: the same key (one per checkout attempt, reused on a
 * retry) answers the same order, so a double tap or a retry on a bad connection makes one order.
 */
export async function createPublicOrder(store: string, body: CreatePublicOrderRequest, idempotencyKey: string): Promise<PublicOrderCreated> {
  return apiJson<PublicOrderCreated>('POST', `/api/public/orders/${encodeURIComponent(store)}`, { json: body, headers: { 'Idempotency-Key': idempotencyKey } });
}

export function useCreatePublicOrder(store: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: CreatePublicOrderRequest; idempotencyKey: string }) => createPublicOrder(store, body, idempotencyKey),
    // Stock changed: the shop's products show what is left.
    onSettled: () => queryClient.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).startsWith('/api/public/products') }),
  });
}
