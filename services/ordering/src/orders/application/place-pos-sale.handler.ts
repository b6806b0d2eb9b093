import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { OrderMessages, type OrderView, toCentavos } from '@tiendita/contracts';
import { offlineInput } from './checkout/offline-sale';
import { AuthorNames } from './author-names';
import { Checkout } from './checkout/checkout-steps';
import { PlacePosSaleCommand } from './order.commands';
import { OrderReader } from './order-reader';

/** A POS sale: priced by the server, its units sold at once, placed completed with its payment recorded in the same append. */
@CommandHandler(PlacePosSaleCommand)
export class PlacePosSaleHandler implements ICommandHandler<PlacePosSaleCommand, OrderView> {
  constructor(
    private readonly checkout: Checkout,
    private readonly names: AuthorNames,
    private readonly reader: OrderReader,
  ) {}

  async execute({ owner, body, idempotencyKey }: PlacePosSaleCommand): Promise<OrderView> {
    const offline = body.offline ? offlineInput(body.offline, body.items) : undefined;
    const done = await this.checkout.run({
      kind: 'pos',
      storeParam: owner.storeId,
      // An offline sale is named by the device's id, as an Idempotency-Key of the same value names an
      // online attempt: sent twice (a lost answer, two tabs, an online try then the queue), one sale.
      idempotencyKey: offline ? offline.deviceSaleId : idempotencyKey,
      wanted: body.items,
      customer: {
        name: body.customerName ?? OrderMessages.defaultPosCustomer,
        phone: body.customerPhone ?? null,
        address: null,
        email: body.customerEmail ?? null,
        nit: (body.customerNit ?? OrderMessages.defaultNit).toUpperCase(),
      },
      notes: body.notes ?? null,
      paymentMethod: body.paymentMethod,
      cashReceived: body.cashReceived === undefined ? null : toCentavos(body.cashReceived),
      author: { name: await this.names.of(owner.userId), id: owner.userId },
      offline,
    });
    // Answered from the sale's events (the orders list shows the same once its projection has them).
    return this.reader.ofState(owner.storeId, done.state!);
  }
}
