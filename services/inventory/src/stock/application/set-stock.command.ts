import { Command } from '@nestjs/cqrs';
import type { OwnerIdentity } from '@tiendita/service-kit';
import type { SetStockRequest, SetStockResponse as SetStockResult } from '@tiendita/contracts';

export { SetStockRequest } from '@tiendita/contracts';
export type { SetStockResponse as SetStockResult } from '@tiendita/contracts';

/** Sets a product's stock, recorded as an adjustment; idempotent on adjustmentId. */
export class SetStockCommand extends Command<SetStockResult> {
  constructor(
    readonly owner: OwnerIdentity,
    readonly productId: string,
    readonly body: SetStockRequest,
    /** Who is recorded (the owner's name); the caller's user id when absent. */
    readonly adjustedBy?: string,
    /**
     * What `newStock` counts: 'available' for catalog's product form (it shows available units, so
     * the units held by orders are added back), 'onHand' for the owner's count on the shelf.
     */
    readonly basis: 'onHand' | 'available' = 'onHand',
    /**
     * An import's count: recorded as a 'restock' when it raises the units on hand and as a
     * 'correction' when it lowers them (the body's adjustmentType is not used then).
     */
    readonly typeByDirection = false,
  ) {
    super();
  }
}
