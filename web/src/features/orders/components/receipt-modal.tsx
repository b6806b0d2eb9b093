import { Button, Modal, Space } from 'antd';
import { DownloadOutlined, PrinterOutlined } from '@ant-design/icons';
import { useStoreSettings } from '../../settings/api/get-store-settings';
import { useStore } from '../../store/api/get-store';
import { receiptPdfUrl } from '../api/receipt-pdf';
import type { OrderView } from '../api/types';
import { Receipt } from './receipt';
import '../receipt.css';

/** The receipt dialog: preview, print (the 80 mm print view) or download the PDF. */
export function ReceiptModal({ order, onClose }: { order: OrderView | null; onClose: () => void }) {
  const store = useStore();
  const settings = useStoreSettings();
  return (
    <Modal
      open={order !== null}
      onCancel={onClose}
      title="Recibo"
      destroyOnHidden
      footer={
        order && (
          <Space wrap>
            <Button icon={<PrinterOutlined />} href={`/orders/${order.id}/receipt?print=1`} target="_blank">
              Imprimir
            </Button>
            <Button type="primary" icon={<DownloadOutlined />} href={receiptPdfUrl(order.id)} download={`recibo-${order.code}.pdf`}>
              Descargar PDF
            </Button>
          </Space>
        )
      }
    >
      {order && (
        <div className="receipt-preview">
          <Receipt order={order} store={store.data} settings={settings.data} />
        </div>
      )}
    </Modal>
  );
}
