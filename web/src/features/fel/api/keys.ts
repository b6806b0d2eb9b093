/** Query keys of the FEL feature; joined by '/' they are the GET paths (the list's carries its query string). */
export const felKeys = {
  all: ['/api/fel'] as const,
  settings: ['/api/fel/settings'] as const,
  summary: ['/api/fel/summary'] as const,
  documents: (query: string) => ['/api/fel/documents', query] as const,
  invoice: (orderId: string) => ['/api/orders', orderId, 'invoice'] as const,
};

/** Whether a query belongs to FEL (its settings, list, counts or an order's invoice): what a change invalidates. */
export function isFelQuery(key: readonly unknown[]): boolean {
  return key[0] === '/api/fel/settings' || key[0] === '/api/fel/summary' || key[0] === '/api/fel/documents' || (key[0] === '/api/orders' && key[2] === 'invoice');
}
