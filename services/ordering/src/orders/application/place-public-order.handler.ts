import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { PublicOrderResponse } from '@tiendita/contracts';
import { Checkout } from './checkout/checkout-steps';
import { PlacePublicOrderCommand } from './order.commands';
import { publicAnswer } from './order-view';

/**
 * The shop's WhatsApp checkout. The shopper's answer is the event itself; the owner's list shows it
 * once projected (a read of this order before then waits for it), so checkout does not wait.
 */
@CommandHandler(PlacePublicOrderCommand)
export class PlacePublicOrderHandler implements ICommandHandler<PlacePublicOrderCommand, PublicOrderResponse> {
  constructor(private readonly checkout: Checkout) {}

  async execute({ store, body, idempotencyKey }: PlacePublicOrderCommand): Promise<PublicOrderResponse> {
    const c = body.customerData;
    const done = await this.checkout.run({
      kind: 'public',
      storeParam: store,
      idempotencyKey,
      wanted: body.lines,
      customer: { name: c.name, phone: c.phone, address: c.address ?? null, email: c.email ?? null, nit: null },
      notes: c.notes ?? null,
      paymentMethod: null,
      cashReceived: null,
      author: { name: c.name, id: 'public' },
    });
    return publicAnswer(done.placed!, done.store?.whatsapp_number ?? null);
  }
}
