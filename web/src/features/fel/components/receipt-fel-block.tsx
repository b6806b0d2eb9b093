import { QRCode } from 'antd';
import { FEL_DOCUMENT_TYPE_LABELS, type FelInvoiceView } from '@tiendita/contracts';
import { formatDateTime } from '../../../lib/format';
import { useOrderInvoice } from '../api/order-invoice';
import '../fel.css';

/** What the receipt prints of an order's DTE; nothing when the order has none (FEL off, or not paid yet). */
export function ReceiptFelBlock({ orderId }: { orderId: string }) {
  const invoice = useOrderInvoice(orderId);
  if (!invoice.data) return null;
  return <FelBlock invoice={invoice.data} />;
}

/** The FEL block of a receipt: document type in words, series, number, authorisation, certification, certifier, receiver, phrases and SAT's QR. */
export function FelBlock({ invoice }: { invoice: FelInvoiceView }) {
  const certified = invoice.status === 'certified' || (invoice.status === 'annulled' && invoice.authorization !== null);
  return (
    <section className="receipt__fel" aria-label="Factura electrónica">
      <div className="receipt__rule" />
      <strong className="receipt__fel-type">{FEL_DOCUMENT_TYPE_LABELS[invoice.documentType]}</strong>
      <div className="receipt__text">Documento Tributario Electrónico (FEL)</div>
      {invoice.test && <div className="receipt__fel-test">DOCUMENTO DE PRUEBA — sin validez fiscal</div>}
      {invoice.status === 'annulled' && <div className="receipt__fel-test">DOCUMENTO ANULADO</div>}
      {!certified ? (
        <p className="receipt__note">Factura en proceso de certificación</p>
      ) : (
        <>
          <div className="receipt__row">
            <span>Serie</span>
            <span>{invoice.series}</span>
          </div>
          <div className="receipt__row">
            <span>Número</span>
            <span>{invoice.number}</span>
          </div>
          <div className="receipt__text">Autorización:</div>
          <div className="receipt__text receipt__fel-auth">{invoice.authorization}</div>
          {invoice.certifiedAt && (
            <div className="receipt__row">
              <span>Certificación</span>
              <span>{formatDateTime(invoice.certifiedAt)}</span>
            </div>
          )}
        </>
      )}
      <div className="receipt__row">
        <span>Emisor NIT</span>
        <span>{invoice.issuer.nit}</span>
      </div>
      <div className="receipt__row">
        <span>Receptor</span>
        <span>
          {invoice.receiver.id} — {invoice.receiver.name}
        </span>
      </div>
      {invoice.phrases.map((p) => (
        <div key={`${p.type}-${p.scenario}`} className="receipt__text receipt__fel-phrase">
          {p.text}
        </div>
      ))}
      {certified && invoice.certifier && (
        <div className="receipt__text">
          Certificador: {invoice.certifier.name}, NIT {invoice.certifier.nit}
        </div>
      )}
      {certified && invoice.verificationUrl && (
        <div className="receipt__fel-qr">
          <QRCode value={invoice.verificationUrl} size={128} bordered={false} type="svg" aria-label="Código QR de verificación en la SAT" />
        </div>
      )}
    </section>
  );
}
