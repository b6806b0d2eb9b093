/**
 * GET /api/orders/{id}/receipt-link: the path of the order's receipt that opens without a session
 * (signed and unguessable; the web client puts its own origin before it), with what the WhatsApp
 * message needs.
 */
export interface ReceiptLinkResponse {
  path: string;
  code: string;
  customerPhone: string | null;
}
