/** GET /api/orders/{id}/receipt.pdf: the receipt as application/pdf (a link the browser downloads). */
export function receiptPdfUrl(orderId: string): string {
  return `/api/orders/${encodeURIComponent(orderId)}/receipt.pdf`;
}
