import {
  AdjustmentType,
  InventoryMessages,
  OUT_OF_STOCK_MESSAGE,
  type StockAdjusted,
  type StockItemOpened,
  type StockMinimumSet,
  type StockReservationReleased,
  type StockReserved,
  type StockSold,
} from '@tiendita/contracts';
import { assertNever, type Decider, IllegalStateError, NotFoundError, ValidationError } from '@tiendita/eventsourcing';

/** Events of a product's stock item (stream `stock-<productId>`). */
export type StockEvent =
  | { type: 'StockItemOpened'; data: StockItemOpened }
  | { type: 'StockAdjusted'; data: StockAdjusted }
  | { type: 'StockReserved'; data: StockReserved }
  | { type: 'StockReservationReleased'; data: StockReservationReleased }
  | { type: 'StockSold'; data: StockSold }
  | { type: 'StockMinimumSet'; data: StockMinimumSet };

/**
 * A stock item's state: units on the shelf and units held by orders (available = onHand − reserved).
 * Idempotency (adjustment ids, order ids) is not in the state: the write model's tables check it
 * in the command's transaction, so the state stays two numbers however long the stream grows.
 */
export type StockState =
  | { status: 'none' }
  | { status: 'open'; productId: string; storeId: string; onHand: number; reserved: number };

/** Opens the stock item of a new product (from catalog's ProductCreated); opening twice is a no-op. */
export interface OpenStockItem {
  type: 'OpenStockItem';
  productId: string;
  storeId: string;
  stock: number;
}

/**
 * Sets the units on hand to what the owner counted, recorded as an adjustment.
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

/** Holds units for an order; `sale` takes them off the shelf at once (POS). */
export interface ReserveStock {
  type: 'ReserveStock';
  orderId: string;
  productId: string;
  storeId: string;
  productName: string;
  quantity: number;
  expiresAt: string;
  sale: boolean;
  /** An offline sale (issue 28): the units the stock lacks do not refuse it; only the ones it has are sold. */
  allowShort?: boolean;
}

/** Gives held units back (cancelled order, or expired hold). */
export interface ReleaseStock {
  type: 'ReleaseStock';
  orderId: string;
  quantity: number;
  reason: 'cancelled' | 'expired';
}

/** Held units leave the shelf (the order goes out for delivery). */
export interface SellStock {
  type: 'SellStock';
  orderId: string;
  quantity: number;
}

/** The owner sets the product's low-stock minimum. */
export interface SetMinimum {
  type: 'SetMinimum';
  storeId: string;
  minimum: number;
}

export type StockCommand = OpenStockItem | SetStock | ReserveStock | ReleaseStock | SellStock | SetMinimum;

export const stockStreamId = (productId: string): string => `stock-${productId}`;

/** The message of a refused hold: `Sin Stock: <product> (quedan N)`. */
export const outOfStockMessage = (productName: string, available: number): string => `${OUT_OF_STOCK_MESSAGE}: ${productName} (quedan ${available})`;

/** The refusal of a count below the units that pending orders hold. */
export const belowReservedMessage = (reserved: number): string =>
  `No puedes dejar menos de ${reserved} ${reserved === 1 ? 'unidad' : 'unidades'}: ${reserved === 1 ? 'está reservada' : 'están reservadas'} por pedidos pendientes.`;

export function evolveStock(state: StockState, event: StockEvent): StockState {
  switch (event.type) {
    case 'StockItemOpened':
      if (state.status !== 'none') return state;
      return { status: 'open', productId: event.data.productId, storeId: event.data.storeId, onHand: event.data.stock, reserved: 0 };
    case 'StockAdjusted':
      if (state.status !== 'open') return state;
      return { ...state, onHand: event.data.newStock };
    case 'StockReserved':
      if (state.status !== 'open') return state;
      return { ...state, reserved: state.reserved + event.data.quantity };
    case 'StockReservationReleased':
      if (state.status !== 'open') return state;
      return { ...state, reserved: state.reserved - event.data.quantity };
    case 'StockSold':
      if (state.status !== 'open') return state;
      return { ...state, reserved: state.reserved - event.data.quantity, onHand: event.data.onHand };
    case 'StockMinimumSet':
      return state;
    default:
      return assertNever(event);
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
  checkStock(command.newStock, 'newStock');
  const type = AdjustmentType.safeParse(command.adjustmentType);
  if (!type.success) throw new ValidationError(InventoryMessages.invalidType, { fields: { adjustmentType: InventoryMessages.invalidType } });
  const reason = command.reason.trim();
  if (!reason) throw new ValidationError(InventoryMessages.reasonRequired, { fields: { reason: InventoryMessages.reasonRequired } });

  const events: StockEvent[] = [];
  let current: number;
  let reserved = 0;
  if (state.status === 'none') {
    if (command.openingStock === undefined) throw new NotFoundError(InventoryMessages.productNotFound);
    checkStock(command.openingStock, 'openingStock');
    events.push({ type: 'StockItemOpened', data: { productId: command.productId, storeId: command.storeId, stock: command.openingStock } });
    current = command.openingStock;
  } else {
    current = state.onHand;
    reserved = state.reserved;
  }
  if (command.newStock === current) return events;
  if (command.newStock < reserved) {
    const message = belowReservedMessage(reserved);
    throw new ValidationError(message, { fields: { newStock: message }, reserved });
  }
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

function decideReserve(command: ReserveStock, state: StockState): StockEvent[] {
  if (state.status !== 'open' || state.storeId !== command.storeId) throw new NotFoundError(InventoryMessages.productNotFound);
  const available = state.onHand - state.reserved;
  if (command.sale && command.allowShort && command.quantity > available) return shortSale(command, state, Math.max(0, available));
  if (command.quantity > available) {
    throw new IllegalStateError(outOfStockMessage(command.productName, Math.max(0, available)), {
      productId: command.productId,
      productName: command.productName,
      available: Math.max(0, available),
    });
  }
  const base = { orderId: command.orderId, productId: command.productId, storeId: command.storeId, quantity: command.quantity };
  const events: StockEvent[] = [{ type: 'StockReserved', data: { ...base, expiresAt: command.expiresAt } }];
  if (command.sale) events.push({ type: 'StockSold', data: { ...base, onHand: state.onHand - command.quantity } });
  return events;
}

/**
 * An offline sale that took more units than the stock knew: the units left the shelf, so it is never
 * refused. The units available are sold (held units of other orders stay theirs: stock never goes
 * negative); the rest is the shortfall the write model records as an alert for the owner to count.
 */
export function shortfallOf(command: Pick<ReserveStock, 'quantity'>, state: StockState): number {
  if (state.status !== 'open') return command.quantity;
  return Math.max(0, command.quantity - Math.max(0, state.onHand - state.reserved));
}

function shortSale(command: ReserveStock, state: Extract<StockState, { status: 'open' }>, available: number): StockEvent[] {
  if (available === 0) return [];
  const base = { orderId: command.orderId, productId: command.productId, storeId: command.storeId, quantity: available };
  return [
    { type: 'StockReserved', data: { ...base, expiresAt: command.expiresAt } },
    { type: 'StockSold', data: { ...base, onHand: state.onHand - available } },
  ];
}

function decideRelease(command: ReleaseStock, state: StockState): StockEvent[] {
  if (state.status !== 'open') return [];
  const quantity = Math.min(command.quantity, state.reserved);
  if (quantity <= 0) return [];
  return [{ type: 'StockReservationReleased', data: { orderId: command.orderId, productId: state.productId, storeId: state.storeId, quantity, reason: command.reason } }];
}

function decideSell(command: SellStock, state: StockState): StockEvent[] {
  if (state.status !== 'open') return [];
  const quantity = Math.min(command.quantity, state.reserved, state.onHand);
  if (quantity <= 0) return [];
  return [{ type: 'StockSold', data: { orderId: command.orderId, productId: state.productId, storeId: state.storeId, quantity, onHand: state.onHand - quantity } }];
}

export function decideStock(command: StockCommand, state: StockState): StockEvent[] {
  switch (command.type) {
    case 'OpenStockItem':
      return decideOpen(command, state);
    case 'SetStock':
      return decideSet(command, state);
    case 'ReserveStock':
      return decideReserve(command, state);
    case 'ReleaseStock':
      return decideRelease(command, state);
    case 'SellStock':
      return decideSell(command, state);
    case 'SetMinimum':
      if (state.status !== 'open' || state.storeId !== command.storeId) throw new NotFoundError(InventoryMessages.productNotFound);
      return [{ type: 'StockMinimumSet', data: { productId: state.productId, storeId: state.storeId, minimum: command.minimum } }];
    default:
      return assertNever(command);
  }
}

/** A product's stock: never negative, held units never more than on hand, every change an event. */
export const stockDecider: Decider<StockState, StockCommand, StockEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: evolveStock,
  decide: decideStock,
};
