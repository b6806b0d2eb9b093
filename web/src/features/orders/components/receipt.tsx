import { DEFAULT_TAX_RATE, paymentMethodLabel, receiptTax, type StoreSettingsView, type StoreView } from '@tiendita/contracts';
import { formatDateTime, formatMoney } from '../../../lib/format';
import { ReceiptFelBlock } from '../../fel/components/receipt-fel-block';
import type { OrderView } from '../api/types';

/** 'Efectivo', or 'Efectivo, Tarjeta' for an order paid in parts: the methods of its payments ('' when unpaid). */
function paidWith(order: OrderView): string {
  const methods = [...new Set(order.payments.map((p) => p.method))];
  return methods.map(paymentMethodLabel).join(', ');
}

/**
 * The receipt as an 80 mm thermal printer prints it (72 mm of printable width): the store's logo,
 * name, address and phone, the owner's receipt header, the code, date and time in es-GT, the lines,
 * subtotal, the tax with the store's regime line (IVA 12% or Pequeño Contribuyente 5%), total,
 * payment, cash received and change, the customer's NIT and name, and the receipt footer.
 */
export function Receipt({
  order,
  store,
  settings,
}: {
  order: OrderView;
  store?: Pick<StoreView, 'name' | 'address' | 'phone' | 'logoUrl'> | null;
  settings?: Pick<StoreSettingsView, 'taxRate' | 'receiptHeader' | 'receiptFooter'> | null;
}) {
  const tax = receiptTax(order, settings?.taxRate ?? DEFAULT_TAX_RATE);
  const header = settings?.receiptHeader?.trim();
  const footer = settings?.receiptFooter?.trim() || '¡Gracias por su compra!';
  return (
    <article className="receipt" aria-label={`Recibo del pedido ${order.code}`}>
      <header className="receipt__head">
        {store?.logoUrl && <img className="receipt__logo" src={store.logoUrl} alt="" />}
        <strong className="receipt__store">{store?.name ?? 'Tiendita'}</strong>
        {store?.address && <div>{store.address}</div>}
        {store?.phone && <div>Tel. {store.phone}</div>}
        {header && <div className="receipt__text">{header}</div>}
      </header>
      <div className="receipt__rule" />
      <div className="receipt__row">
        <span>Pedido</span>
        <strong>{order.code}</strong>
      </div>
      <div className="receipt__row">
        <span>Fecha</span>
        <span>{formatDateTime(order.createdAt)}</span>
      </div>
      <div className="receipt__row">
        <span>Cliente</span>
        <span>{order.customerName || 'Cliente en tienda'}</span>
      </div>
      <div className="receipt__row">
        <span>NIT</span>
        <span>{order.customerNit || 'CF'}</span>
      </div>
      <div className="receipt__rule" />
      <table className="receipt__lines">
        <thead>
          <tr>
            <th>Cant.</th>
            <th>Producto</th>
            <th>Total</th>
          </tr>
        </thead>
        <tbody>
          {order.items.map((item) => (
            <tr key={item.productId}>
              <td>{item.quantity}</td>
              <td>
                {item.productName}
                <div className="receipt__unit">{formatMoney(item.price)} c/u</div>
              </td>
              <td>{formatMoney(Math.round(item.price * 100 * item.quantity) / 100)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="receipt__rule" />
      <div className="receipt__row">
        <span>Subtotal</span>
        <span>{formatMoney(order.subtotal)}</span>
      </div>
      <div className="receipt__row">
        <span>{tax.label}</span>
        <span>{formatMoney(order.tax)}</span>
      </div>
      <div className="receipt__row receipt__total">
        <span>TOTAL</span>
        <strong>{formatMoney(order.total)}</strong>
      </div>
      <p className="receipt__note">{tax.note}</p>
      <div className="receipt__row">
        <span>Pago</span>
        <span>{paidWith(order) || 'Pendiente'}</span>
      </div>
      {order.cashReceived !== null && order.cashReceived !== undefined && (
        <>
          <div className="receipt__row">
            <span>Efectivo recibido</span>
            <span>{formatMoney(order.cashReceived)}</span>
          </div>
          <div className="receipt__row">
            <span>Cambio</span>
            <span>{formatMoney(order.change ?? 0)}</span>
          </div>
        </>
      )}
      <ReceiptFelBlock orderId={order.id} />
      <div className="receipt__rule" />
      <footer className="receipt__foot receipt__text">{footer}</footer>
    </article>
  );
}
