import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type OrderView, toCentavos } from '@tiendita/contracts';
import { AuthorNames } from './author-names';
import { RefundPaymentCommand } from './order.commands';
import { OrderCommandRunner } from './order-command-runner';
import { idFor } from './order-ids';

/** Money given back for an order, never more than the net paid. The same Idempotency-Key records it once. */
@CommandHandler(RefundPaymentCommand)
export class RefundPaymentHandler implements ICommandHandler<RefundPaymentCommand, OrderView> {
  constructor(
    private readonly runner: OrderCommandRunner,
    private readonly names: AuthorNames,
  ) {}

  async execute({ owner, orderId, body, idempotencyKey }: RefundPaymentCommand): Promise<OrderView> {
    const { view } = await this.runner.run(owner, {
      type: 'RefundPayment',
      orderId,
      storeId: owner.storeId,
      refundId: idFor(owner.storeId, `refund-${orderId}`, idempotencyKey),
      method: body.method,
      amount: toCentavos(body.amount),
      reason: body.reason ?? null,
      refundedBy: await this.names.of(owner.userId),
      refundedById: owner.userId,
      refundedAt: new Date().toISOString(),
    });
    return view();
  }
}
