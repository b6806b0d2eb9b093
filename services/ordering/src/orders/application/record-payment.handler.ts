import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type OrderView, toCentavos } from '@tiendita/contracts';
import { AuthorNames } from './author-names';
import { RecordPaymentCommand } from './order.commands';
import { OrderCommandRunner } from './order-command-runner';
import { idFor } from './order-ids';

/** Money received for an order (partial payments allowed, never beyond the balance due). The same Idempotency-Key records it once. */
@CommandHandler(RecordPaymentCommand)
export class RecordPaymentHandler implements ICommandHandler<RecordPaymentCommand, OrderView> {
  constructor(
    private readonly runner: OrderCommandRunner,
    private readonly names: AuthorNames,
  ) {}

  async execute({ owner, orderId, body, idempotencyKey }: RecordPaymentCommand): Promise<OrderView> {
    const { view } = await this.runner.run(owner, {
      type: 'RecordPayment',
      orderId,
      storeId: owner.storeId,
      paymentId: idFor(owner.storeId, `payment-${orderId}`, idempotencyKey),
      method: body.method,
      amount: toCentavos(body.amount),
      reference: body.reference ?? null,
      cashReceived: body.cashReceived === undefined ? null : toCentavos(body.cashReceived),
      recordedBy: await this.names.of(owner.userId),
      recordedById: owner.userId,
      recordedAt: new Date().toISOString(),
    });
    return view();
  }
}
