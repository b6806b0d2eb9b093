import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import type { OwnerIdentity } from '@tiendita/service-kit';
import { OrderReader } from './order-reader';
import { receiptPdf } from './receipt';
import { ReceiptFel } from './receipt-fel';
import { StoreLogos } from './store-logos';
import { StoreReader } from './store-reader';

/** GET /api/orders/{id}/receipt.pdf: the PDF and the order's code (its file name). */
export class GetReceiptQuery extends Query<{ code: string; pdf: Buffer }> {
  constructor(
    readonly owner: OwnerIdentity,
    readonly orderId: string,
  ) {
    super();
  }
}

@QueryHandler(GetReceiptQuery)
export class GetReceiptHandler implements IQueryHandler<GetReceiptQuery, { code: string; pdf: Buffer }> {
  constructor(
    private readonly reader: OrderReader,
    private readonly stores: StoreReader,
    private readonly logos: StoreLogos,
    private readonly fel: ReceiptFel,
  ) {}

  async execute({ owner, orderId }: GetReceiptQuery): Promise<{ code: string; pdf: Buffer }> {
    const order = await this.reader.fresh(owner.storeId, orderId);
    const store = await this.stores.findStore(owner.storeId);
    const [logo, fel] = await Promise.all([this.logos.forReceipt(owner, store?.logo_url), this.fel.block(owner, order.id)]);
    const pdf = await receiptPdf(order, store, logo, fel);
    return { code: order.code, pdf };
  }
}
