import { QRCode } from 'antd';
import { type FelInvoiceView, felReceiptBlock } from '@tiendita/contracts';
import { useOrderInvoice } from '../api/order-invoice';
import '../fel.css';

/** What the receipt prints of an order's DTE; nothing when the order has none (FEL off, or not paid yet). */
export function ReceiptFelBlock({ orderId }: { orderId: string }) {
  const invoice = useOrderInvoice(orderId);
  if (!invoice.data) return null;
  return <FelBlock invoice={invoice.data} />;
}

/**
 * The FEL block of a receipt, drawn from contracts' felReceiptBlock (the PDF receipt draws the same
 * block): document type in words, series, number, authorisation, certification, certifier,
 * receiver, phrases, SAT's QR, the contingency's access number and the sale's credit notes.
 */
export function FelBlock({ invoice }: { invoice: FelInvoiceView }) {
  const block = felReceiptBlock(invoice);
  return (
    <section className="receipt__fel" aria-label="Factura electrónica" data-testid="receipt-fel" data-status={invoice.status}>
      <div className="receipt__rule" />
      <strong className="receipt__fel-type">{block.title}</strong>
      <div className="receipt__text">{block.subtitle}</div>
      {block.notices.map((n) => (
        <div key={n} className="receipt__fel-test">
          {n}
        </div>
      ))}
      {block.pending && <p className="receipt__note">{block.pending}</p>}
      {block.rows.map((row) =>
        row.long ? (
          <div key={row.label}>
            <div className="receipt__text">{row.label}:</div>
            <div className="receipt__text receipt__fel-auth">{row.value}</div>
          </div>
        ) : (
          <div key={row.label} className="receipt__row">
            <span>{row.label}</span>
            <span>{row.value}</span>
          </div>
        ),
      )}
      {block.phrases.map((p) => (
        <div key={p} className="receipt__text receipt__fel-phrase">
          {p}
        </div>
      ))}
      {block.certifier && <div className="receipt__text">{block.certifier}</div>}
      {block.creditNotes.map((n, i) => (
        <div key={`${n.label}-${i}`} className="receipt__row">
          <span>{n.label}</span>
          <span>{n.value}</span>
        </div>
      ))}
      {block.qr && (
        <div className="receipt__fel-qr">
          <QRCode value={block.qr} size={128} bordered={false} type="svg" aria-label="Código QR de verificación en la SAT" />
        </div>
      )}
    </section>
  );
}
