import { AdjustmentType, InventoryMessages, type StockAdjusted, type StockItemOpened } from '@tiendita/contracts';
import { assertNever, type Decider, NotFoundError, ValidationError } from '@tiendita/eventsourcing';

/** Events of a product's stock item (stream `stock-<productId>`). */
export type StockEvent = { type: 'StockItemOpened'; data: StockItemOpened } | { type: 'StockAdjusted'; data: StockAdjusted };

export type StockState =
  | { status: 'none' }
  | {
      status: 'open';
      productId: string;
      storeId: string;
      stock: number;
      /** Adjustment ids already applied: a repeated internal command is a no-op. */
      adjustmentIds: ReadonlySet<string>;
    };

/** Opens the stock item of a new product (from catalog's ProductCreated); opening twice is a no-op. */
export interface OpenStockItem {
  type: 'OpenStockItem';
  productId: string;
  storeId: string;
  stock: number;
}

/**
 * Sets the stock to a new value, recorded as an adjustment. Idempotent on adjustmentId.
 * openingStock opens the item first if ProductCreated has not reached inventory yet.
 */
export interface SetStock {
  type: 'SetStock';
  adjustmentId: string;
  productId: string;
  storeId: string;
  newStock: number;
  adjustmentType: string;
  reason: string;
  adjustedBy: string;
  openingStock?: number;
}

export type StockCommand = OpenStockItem | SetStock;

export const stockStreamId = (productId: string): string => `stock-${productId}`;

export function evolveStock(state: StockState, event: StockEvent): StockState {
  switch (event.type) {
    case 'StockItemOpened':
      if (state.status !== 'none') return state;
      return { status: 'open', productId: event.data.productId, storeId: event.data.storeId, stock: event.data.stock, adjustmentIds: new Set() };
    case 'StockAdjusted': {
      if (state.status !== 'open') return state;
      const ids = new Set(state.adjustmentIds);
      ids.add(event.data.adjustmentId);
      return { ...state, stock: event.data.newStock, adjustmentIds: ids };
    }
    default:
      return state;
  }
}

function checkStock(value: number, field: string): void {
  if (!Number.isInteger(value)) throw new ValidationError(InventoryMessages.stockInvalid, { fields: { [field]: InventoryMessages.stockInvalid } });
  if (value < 0) throw new ValidationError(InventoryMessages.stockNegative, { fields: { [field]: InventoryMessages.stockNegative } });
}

function decideOpen(command: OpenStockItem, state: StockState): StockEvent[] {
  if (state.status !== 'none') return [];
  checkStock(command.stock, 'stock');
  return [{ type: 'StockItemOpened', data: { productId: command.productId, storeId: command.storeId, stock: command.stock } }];
}

function decideSet(command: SetStock, state: StockState): StockEvent[] {
  if (state.status === 'open' && state.storeId !== command.storeId) throw new NotFoundError(InventoryMessages.productNotFound);
  if (state.status === 'open' && state.adjustmentIds.has(command.adjustmentId)) return [];
  checkStock(command.newStock, 'newStock');
  const type = AdjustmentType.safeParse(command.adjustmentType);
  if (!type.success) throw new ValidationError(InventoryMessages.invalidType, { fields: { adjustmentType: InventoryMessages.invalidType } });
  const reason = command.reason.trim();
  if (!reason) throw new ValidationError(InventoryMessages.reasonRequired, { fields: { reason: InventoryMessages.reasonRequired } });

  const events: StockEvent[] = [];
  let current: number;
  if (state.status === 'none') {
    if (command.openingStock === undefined) throw new NotFoundError(InventoryMessages.productNotFound);
    checkStock(command.openingStock, 'openingStock');
    events.push({ type: 'StockItemOpened', data: { productId: command.productId, storeId: command.storeId, stock: command.openingStock } });
    current = command.openingStock;
  } else {
    current = state.stock;
  }
  if (command.newStock === current) return events;
  events.push({
    type: 'StockAdjusted',
    data: {
      adjustmentId: command.adjustmentId,
      productId: command.productId,
      storeId: command.storeId,
      adjustmentType: type.data,
      oldStock: current,
      newStock: command.newStock,
      adjustment: command.newStock - current,
      reason,
      adjustedBy: command.adjustedBy,
    },
  });
  return events;
}

export function decideStock(command: StockCommand, state: StockState): StockEvent[] {
  switch (command.type) {
    case 'OpenStockItem':
      return decideOpen(command, state);
    case 'SetStock':
      return decideSet(command, state);
    default:
      return assertNever(command);
  }
}

/** A product's stock: never negative, every change an adjustment with old and new values. */
export const stockDecider: Decider<StockState, StockCommand, StockEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: evolveStock,
  decide: decideStock,
};
