import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CorrectReceiverRequest, FelInvoiceView } from '@tiendita/contracts';
import { apiJson, isApiError } from '../../../lib/api';
import { felKeys, isFelQuery } from './keys';

/** How many times a receipt asks again for an invoice that is not there yet (the FEL service queues it a moment after the sale). */
const ABSENT_TRIES = 8;

/**
 * GET /api/orders/{id}/invoice: the order's DTE, or null when it has none (FEL off, or not paid
 * yet). While it is pending it is asked again every few seconds; while absent, a few times (a sale
 * just made gets its document a moment later).
 */
export function useOrderInvoice(orderId: string) {
  return useQuery({
    queryKey: felKeys.invoice(orderId),
    queryFn: async () => {
      try {
        return await apiJson<FelInvoiceView>('GET', `/api/orders/${orderId}/invoice`);
      } catch (error) {
        if (isApiError(error) && error.status === 404) return null;
        throw error;
      }
    },
    refetchInterval: (q) => (q.state.data?.status === 'pending' ? 3000 : q.state.data === null && q.state.dataUpdateCount <= ABSENT_TRIES ? 1500 : false),
  });
}

function useInvoiceMutation<V>(run: (v: V) => Promise<FelInvoiceView>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: (invoice) => {
      client.setQueryData(felKeys.invoice(invoice.orderId), invoice);
      void client.invalidateQueries({ predicate: (q) => isFelQuery(q.queryKey) && q.queryKey[2] !== 'invoice' });
    },
  });
}

/** POST /api/orders/{id}/invoice/retry. */
export function useRetryInvoice() {
  return useInvoiceMutation((orderId: string) => apiJson<FelInvoiceView>('POST', `/api/orders/${orderId}/invoice/retry`));
}

/** PUT /api/orders/{id}/invoice/receiver: a refused receiver NIT corrected, certified again. */
export function useCorrectReceiver() {
  return useInvoiceMutation(({ orderId, body }: { orderId: string; body: CorrectReceiverRequest }) => apiJson<FelInvoiceView>('PUT', `/api/orders/${orderId}/invoice/receiver`, { json: body }));
}

/** The document's XML (certified once certified) and its annulment. */
export const invoiceXmlUrl = (orderId: string) => `/api/orders/${orderId}/invoice.xml`;
export const annulmentXmlUrl = (orderId: string) => `/api/orders/${orderId}/invoice/annulment.xml`;
/** A credit note (NCRE) of one of the sale's refunds. */
export const creditNoteXmlUrl = (orderId: string, refundId: string) => `/api/orders/${orderId}/invoice/credit-notes/${refundId}.xml`;
