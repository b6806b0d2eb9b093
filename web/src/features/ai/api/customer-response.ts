import { useMutation } from '@tanstack/react-query';
import type { CustomerResponseRequest, CustomerResponseResponse } from '@tiendita/contracts';
import { apiRequest } from '../../../lib/query-client';

/** POST /api/ai/customer-response: suggestedResponse, tone and category for a customer's message. */
export async function suggestCustomerResponse(body: CustomerResponseRequest): Promise<CustomerResponseResponse> {
  const res = await apiRequest('POST', '/api/ai/customer-response', body);
  return (await res.json()) as CustomerResponseResponse;
}

/** On error show 'No se pudo generar la respuesta. Intenta de nuevo.' (AiMessages.responseFailed). */
export function useCustomerResponse() {
  return useMutation({ mutationFn: suggestCustomerResponse });
}
