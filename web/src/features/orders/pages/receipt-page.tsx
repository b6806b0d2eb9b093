import { useEffect } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { Alert, Button, Skeleton } from 'antd';
import { DownloadOutlined, PlusOutlined, PrinterOutlined } from '@ant-design/icons';
import { serverMessageOr } from '../../../lib/api-error';
import { useStoreSettings } from '../../settings/api/get-store-settings';
import { useStore } from '../../store/api/get-store';
import { useOrder } from '../api/get-order';
import { receiptPdfUrl } from '../api/receipt-pdf';
import { Receipt } from '../components/receipt';
import { SendReceiptButton } from '../components/send-receipt-button';
import '../receipt.css';

/**
 * /orders/{id}/receipt: the receipt alone, for an 80 mm thermal printer; ?print=1 opens the print dialog.
 * From here the owner sends it to the customer by WhatsApp, or starts the next sale.
 */
export function ReceiptPage() {
  const { id = '' } = useParams();
  const [search] = useSearchParams();
  const order = useOrder(id);
  const store = useStore();
  const settings = useStoreSettings();
  const autoPrint = search.get('print') === '1';

  useEffect(() => {
    if (autoPrint && order.isSuccess && !store.isPending && !settings.isPending) {
      const timer = setTimeout(() => window.print(), 300);
      return () => clearTimeout(timer);
    }
  }, [autoPrint, order.isSuccess, store.isPending, settings.isPending]);

  if (order.isPending) return <Skeleton active />;
  if (order.isError) return <Alert type="error" showIcon title={serverMessageOr(order.error, 'No se pudo cargar el recibo.')} />;
  return (
    <div className="receipt-page">
      <div className="receipt-page__actions">
        <Button icon={<PrinterOutlined />} onClick={() => window.print()}>
          Imprimir
        </Button>
        <Button type="primary" icon={<DownloadOutlined />} href={receiptPdfUrl(order.data.id)} download={`recibo-${order.data.code}.pdf`}>
          Descargar PDF
        </Button>
        <SendReceiptButton orderId={order.data.id} storeName={store.data?.name ?? ''} />
        <Link to="/pos">
          <Button icon={<PlusOutlined />}>Nueva venta</Button>
        </Link>
        <Link to="/orders">
          <Button>Pedidos</Button>
        </Link>
      </div>
      <Receipt order={order.data} store={store.data} settings={settings.data} />
    </div>
  );
}
