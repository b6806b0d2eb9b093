import { Button } from 'antd';
import { toast } from '../../../components/toast/toast-store';
import { WhatsAppOutlined } from '@ant-design/icons';
import { whatsappLink, whatsappShareLink, type ReceiptLinkResponse } from '@tiendita/contracts';
import { useState } from 'react';
import { apiJson, serverMessageOr } from '../../../lib/api';

/** The customer's message: the receipt's signed link, which opens without a session. */
export function receiptMessage(storeName: string, link: ReceiptLinkResponse, origin: string): string {
  return `¡Gracias por tu compra en ${storeName}! Aquí está tu recibo ${link.code}: ${origin}${link.path}`;
}

/**
 * 'Enviar por WhatsApp': asks the server for the receipt's signed link, then opens WhatsApp with it,
 * to the customer's number when the sale has one (else WhatsApp asks for the contact).
 */
export function SendReceiptButton({ orderId, storeName }: { orderId: string; storeName: string }) {
  const [busy, setBusy] = useState(false);
  const send = async () => {
    // Opened inside the tap so no pop-up blocker stops it; it goes to WhatsApp once the link is there.
    const tab = window.open('', '_blank');
    setBusy(true);
    try {
      const link = await apiJson<ReceiptLinkResponse>('GET', `/api/orders/${encodeURIComponent(orderId)}/receipt-link`);
      const text = receiptMessage(storeName, link, window.location.origin);
      const url = whatsappLink(link.customerPhone, text) ?? whatsappShareLink(text);
      if (tab) tab.location.href = url;
      else window.location.assign(url);
    } catch (error) {
      tab?.close();
      toast({ title: serverMessageOr(error, 'No se pudo preparar el enlace del recibo. Intenta de nuevo.'), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button icon={<WhatsAppOutlined />} loading={busy} onClick={() => void send()}>
      Enviar por WhatsApp
    </Button>
  );
}
