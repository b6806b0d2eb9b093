import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { OrderLimitMessages } from '@tiendita/contracts';
import { DomainError } from '@tiendita/eventsourcing';
import { Owner, type OwnerIdentity, parse } from '@tiendita/service-kit';
import { z } from 'zod';
import { ChangeOrderStatusCommand } from '../application/order.commands';

const BulkCancelRequest = z.object({
  orderIds: z
    .array(z.string().uuid(OrderLimitMessages.bulkCancelInvalid), { error: OrderLimitMessages.bulkCancelInvalid })
    .min(1, OrderLimitMessages.bulkCancelInvalid)
    .max(100, OrderLimitMessages.bulkCancelInvalid),
});

/** One order of a bulk cancellation: cancelled, or why not (its Spanish message). */
export interface BulkCancelResult {
  orderId: string;
  ok: boolean;
  message: string | null;
}

/**
 * POST /api/orders/bulk-cancel `{ orderIds }` (issue 26): the owner cancels several pending orders
 * at once (a burst of orders that hold stock). Each goes through the same status change as one
 * cancellation (its stock is released, its history says so); one that cannot be cancelled (another
 * store's, already delivered) is reported and the others still go.
 */
@Controller('api/orders')
export class BulkCancelController {
  constructor(private readonly commands: CommandBus) {}

  @Post('bulk-cancel')
  @HttpCode(200)
  async bulkCancel(@Owner() owner: OwnerIdentity, @Body() body: unknown): Promise<{ results: BulkCancelResult[]; cancelled: number }> {
    const { orderIds } = parse(BulkCancelRequest, body ?? {});
    const results: BulkCancelResult[] = [];
    for (const orderId of new Set(orderIds)) {
      try {
        await this.commands.execute(new ChangeOrderStatusCommand(owner, orderId, { status: 'cancelled', notes: OrderLimitMessages.bulkCancelNote }));
        results.push({ orderId, ok: true, message: null });
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        results.push({ orderId, ok: false, message: error.message });
      }
    }
    return { results, cancelled: results.filter((r) => r.ok).length };
  }
}
