import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { OrderView } from '@tiendita/contracts';
import { SERVICE_LOGGER } from '@tiendita/service-kit';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { AuthorNames } from './author-names';
import { InventoryClient } from './inventory-client';
import { ChangeOrderStatusCommand } from './order.commands';
import { OrderCommandRunner } from './order-command-runner';

/** The owner moves an order one step forward or cancels it (a paid order's money is refunded with the cancellation). */
@CommandHandler(ChangeOrderStatusCommand)
export class ChangeOrderStatusHandler implements ICommandHandler<ChangeOrderStatusCommand, OrderView> {
  constructor(
    private readonly runner: OrderCommandRunner,
    private readonly names: AuthorNames,
    private readonly inventory: InventoryClient,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
  ) {}

  async execute({ owner, orderId, body }: ChangeOrderStatusCommand): Promise<OrderView> {
    const { result, view } = await this.runner.run(owner, {
      type: 'ChangeOrderStatus',
      orderId,
      storeId: owner.storeId,
      status: body.status,
      notes: body.notes ?? null,
      changedBy: await this.names.of(owner.userId),
      changedById: owner.userId,
      changedAt: new Date().toISOString(),
      refundMethod: body.refundMethod ?? null,
      refundIds: [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()],
    });
    // Inventory moves the order's units on this event (back on a cancellation, off the shelf on a
    // delivery): the owner's next stock read, in inventory or the catalog, shows it once this answers.
    if (result.position) {
      await this.inventory.settled(owner, result.position).catch((err: unknown) => this.logger.warn({ err, orderId }, 'Inventario no confirmó a tiempo el cambio de estado del pedido'));
    }
    return view();
  }
}
