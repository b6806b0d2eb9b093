import { Button, Result, Tag } from 'antd';
import { OfflineCardMessages } from '@tiendita/contracts';
import { formatMoney } from '../../../lib/format';
import { FelContingencyNote } from '../../fel/components/fel-contingency-note';
import type { QueuedSale } from './sale-queue';

/** The receipt of a sale kept on the device: its local number, lines, total and change; it is sent when the connection returns. */
export function OfflineReceipt({ sale, onClose }: { sale: QueuedSale; onClose: () => void }) {
  return (
    <Result
      status="success"
      title="Venta guardada sin conexión"
      subTitle={
        <div className="pos-offline-receipt">
          <p>
            Recibo <strong data-testid="pos-local-number">{sale.localNumber}</strong> · {new Date(sale.soldAt).toLocaleString('es-GT')}
          </p>
          <ul>
            {sale.lines.map((l) => (
              <li key={l.productId}>
                {l.quantity} × {l.name} — {formatMoney(Math.round(l.price * 100 * l.quantity) / 100)}
              </li>
            ))}
          </ul>
          <p>Total {formatMoney(sale.total)}</p>
          {sale.paymentMethod === 'card' ? (
            <Tag color="gold" data-testid="pos-card-pending">
              {OfflineCardMessages.pendingLabel}
            </Tag>
          ) : (
            sale.change !== null && <strong className="pos-change">Cambio: {formatMoney(sale.change)}</strong>
          )}
          <FelContingencyNote deviceSaleId={sale.deviceSaleId} />
          <p>Se enviará a tu tienda cuando vuelva la conexión.</p>
        </div>
      }
      extra={[
        <Button key="print" onClick={() => window.print()}>
          Imprimir
        </Button>,
        <Button key="new" type="primary" onClick={onClose}>
          Nueva venta
        </Button>,
      ]}
    />
  );
}
