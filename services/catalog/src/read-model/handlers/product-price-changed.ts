import { finalPriceCentavos } from '@tiendita/contracts';
import { type EventContext, parseCatalog } from './context';
import { insertPriceHistory } from './price-history';

/** ProductPriceChanged: the new price and discount, and a row of the price history. */
export async function onProductPriceChanged({ tx, t, event }: EventContext): Promise<void> {
  const d = parseCatalog('ProductPriceChanged', event.data);
  const at = event.metadata.occurredAt;
  await tx.query(
    `UPDATE ${t.products} SET price_centavos = $2, discount_percentage = $3, final_price_centavos = $4, updated_at = $5 WHERE id = $1`,
    [d.productId, d.newPriceCentavos, d.newDiscountPercentage, finalPriceCentavos(d.newPriceCentavos, d.newDiscountPercentage), at],
  );
  await insertPriceHistory({
    tx,
    t,
    row: {
      id: event.metadata.eventId,
      productId: d.productId,
      storeId: d.storeId,
      oldPriceCentavos: d.oldPriceCentavos,
      newPriceCentavos: d.newPriceCentavos,
      oldDiscountPercentage: d.oldDiscountPercentage,
      newDiscountPercentage: d.newDiscountPercentage,
      changeReason: d.changeReason,
      changedBy: d.changedBy,
      at,
    },
  });
}
