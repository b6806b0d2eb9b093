import { Command } from '@nestjs/cqrs';
import type { OrderView, PosOrderRequest, PublicOrderRequest, PublicOrderResponse, RecordPaymentRequest, RefundPaymentRequest, UpdateOrderStatusRequest } from '@tiendita/contracts';
import type { OwnerIdentity } from '@tiendita/service-kit';

/** POST /api/public/orders/{store}: the shop's WhatsApp checkout (anonymous). */
export class PlacePublicOrderCommand extends Command<PublicOrderResponse> {
  constructor(
    readonly store: string,
    readonly body: PublicOrderRequest,
    readonly idempotencyKey: string | undefined,
  ) {
    super();
  }
}

/** POST /api/orders: a POS sale, completed and paid at once. */
export class PlacePosSaleCommand extends Command<OrderView> {
  constructor(
    readonly owner: OwnerIdentity,
    readonly body: PosOrderRequest,
    readonly idempotencyKey: string | undefined,
  ) {
    super();
  }
}

/** PUT /api/orders/{id}/status. */
export class ChangeOrderStatusCommand extends Command<OrderView> {
  constructor(
    readonly owner: OwnerIdentity,
    readonly orderId: string,
    readonly body: UpdateOrderStatusRequest,
  ) {
    super();
  }
}

/** POST /api/orders/{id}/payments. */
export class RecordPaymentCommand extends Command<OrderView> {
  constructor(
    readonly owner: OwnerIdentity,
    readonly orderId: string,
    readonly body: RecordPaymentRequest,
    readonly idempotencyKey: string | undefined,
  ) {
    super();
  }
}

/** POST /api/orders/{id}/refunds. */
export class RefundPaymentCommand extends Command<OrderView> {
  constructor(
    readonly owner: OwnerIdentity,
    readonly orderId: string,
    readonly body: RefundPaymentRequest,
    readonly idempotencyKey: string | undefined,
  ) {
    super();
  }
}

/** The system cancels pending orders past ORDER_HOLD_HOURS; answers how many it cancelled. */
export class ExpirePendingOrdersCommand extends Command<number> {}
