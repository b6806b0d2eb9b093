import { useMutation } from '@tanstack/react-query';
import type { GenerateDescriptionRequest, GenerateDescriptionResponse } from '@tiendita/contracts';
import { apiRequest } from '../../../lib/query-client';

/** POST /api/ai/generate-description: a description within the store's aiDescriptionLength. */
export async function generateDescription(body: { productName: string; category?: string; price?: number | null }): Promise<GenerateDescriptionResponse> {
  const payload: Partial<GenerateDescriptionRequest> = { productName: body.productName, category: body.category, price: body.price ?? undefined };
  const res = await apiRequest('POST', '/api/ai/generate-description', payload);
  return (await res.json()) as GenerateDescriptionResponse;
}

export function useGenerateDescription() {
  return useMutation({ mutationFn: generateDescription });
}
