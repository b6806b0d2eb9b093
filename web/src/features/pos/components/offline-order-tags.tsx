import { Alert, Tag } from 'antd';
import { isCardPendingConfirmation, OfflineCardMessages, type OrderView, usedOldPrice } from '@tiendita/contracts';
import { formatMoney } from '../../../lib/format';

type OfflineOrder = Pick<OrderView, 'orderType' | 'paymentMethod' | 'paymentStatus' | 'items'>;

/**
 * The chips of a POS sale made offline (issue 28) in the orders list: a card payment still to confirm,
 * and a sale at a price other than the catalogue's then. Nothing for any other order.
 */
export function OfflineOrderTags({ order }: { order: OfflineOrder }) {
  const card = isCardPendingConfirmation(order);
  const oldPrice = usedOldPrice(order);
  if (!card && !oldPrice) return null;
  return (
    <>
      {card && <Tag color="gold">Tarjeta por confirmar</Tag>}
      {oldPrice && <Tag color="orange">Precio anterior</Tag>}
    </>
  );
}

/** The detail's notice of an offline sale: which lines kept an old price (and the catalogue's then), and a card payment to confirm. */
export function OfflineOrderNotice({ order }: { order: OfflineOrder }) {
  const card = isCardPendingConfirmation(order);
  const old = order.items.filter((i) => i.listPrice !== undefined);
  return (
    <>
      {card && <Alert className="order-detail__offline" style={{ marginBottom: 8 }} type="warning" showIcon title={OfflineCardMessages.pendingLabel} description={OfflineCardMessages.pendingHelp} />}
      {old.length > 0 && (
        <Alert
          className="order-detail__offline"
          style={{ marginBottom: 8 }}
          type="info"
          showIcon
          title="Vendida sin conexión con un precio anterior"
          description={
            <ul>
              {old.map((i) => (
                <li key={i.productId}>
                  {i.productName}: cobrado {formatMoney(i.price)}, precio de catálogo {formatMoney(i.listPrice!)}
                </li>
              ))}
            </ul>
          }
        />
      )}
    </>
  );
}
