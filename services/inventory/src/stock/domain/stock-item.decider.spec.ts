import { InventoryMessages } from '@tiendita/contracts';
import { IllegalStateError, NotFoundError, ValidationError } from '@tiendita/eventsourcing';
import { deciderSpec } from '@tiendita/eventsourcing/testing';
import { type SetStock, shortfallOf, stockDecider, type StockEvent } from './stock-item.decider';

const spec = deciderSpec(stockDecider);
const productId = '11111111-1111-4111-8111-111111111111';
const storeId = '22222222-2222-4222-8222-222222222222';
const adjustmentId = '33333333-3333-4333-8333-333333333333';
const opened: StockEvent = { type: 'StockItemOpened', data: { productId, storeId, stock: 10 } };
const set: SetStock = {
  type: 'SetStock',
  adjustmentId,
  productId,
  storeId,
  newStock: 4,
  adjustmentType: 'correction',
  reason: 'Corrección desde el formulario de producto',
  adjustedBy: 'owner',
};
const adjusted: StockEvent = {
  type: 'StockAdjusted',
  data: { adjustmentId, productId, storeId, adjustmentType: 'correction', oldStock: 10, newStock: 4, adjustment: -6, reason: set.reason, adjustedBy: 'owner' },
};

describe('Stock item decider', () => {
  it('opens the stock item of a new product', () => {
    spec.given([]).when({ type: 'OpenStockItem', productId, storeId, stock: 10 }).then([opened]);
  });
  it('opening twice is a no-op (ProductCreated delivered again)', () => {
    spec.given([opened]).when({ type: 'OpenStockItem', productId, storeId, stock: 99 }).then([]);
  });
  it('a stock change is recorded as a correction with old, new and the signed difference', () => {
    spec.given([opened]).when(set).then([adjusted]);
  });
  it('a count below the units pending orders hold is refused, saying how many they hold', () => {
    const held: StockEvent = { type: 'StockReserved', data: { orderId: adjustmentId, productId, storeId, quantity: 3, expiresAt: '2030-01-01T00:00:00Z' } };
    spec.given([opened, held]).when({ ...set, newStock: 2 }).thenThrows(ValidationError, 'No puedes dejar menos de 3 unidades: están reservadas por pedidos pendientes.');
  });
  it('a hold beyond the available units is refused: Sin Stock: <name> (quedan N)', () => {
    const held: StockEvent = { type: 'StockReserved', data: { orderId: adjustmentId, productId, storeId, quantity: 8, expiresAt: '2030-01-01T00:00:00Z' } };
    const reserve = { type: 'ReserveStock' as const, orderId: adjustmentId, productId, storeId, productName: 'Café', quantity: 3, expiresAt: 'x', sale: false };
    spec.given([opened, held]).when(reserve).thenThrows(IllegalStateError, 'Sin Stock: Café (quedan 2)');
    spec.given([opened, held]).when({ ...reserve, quantity: 2, sale: true }).then([
      { type: 'StockReserved', data: { orderId: adjustmentId, productId, storeId, quantity: 2, expiresAt: 'x' } },
      { type: 'StockSold', data: { orderId: adjustmentId, productId, storeId, quantity: 2, onHand: 8 } },
    ]);
  });
  it('an offline sale is never refused for stock: the available units are sold, the rest is its shortfall', () => {
    const held: StockEvent = { type: 'StockReserved', data: { orderId: adjustmentId, productId, storeId, quantity: 8, expiresAt: '2030-01-01T00:00:00Z' } };
    const sale = { type: 'ReserveStock' as const, orderId: productId, productId, storeId, productName: 'Café', quantity: 5, expiresAt: 'x', sale: true, allowShort: true };
    spec.given([opened, held]).when(sale).then([
      { type: 'StockReserved', data: { orderId: productId, productId, storeId, quantity: 2, expiresAt: 'x' } },
      { type: 'StockSold', data: { orderId: productId, productId, storeId, quantity: 2, onHand: 8 } },
    ]);
    expect(shortfallOf(sale, { status: 'open', productId, storeId, onHand: 10, reserved: 8 })).toBe(3);
    spec.given([opened, { ...held, data: { ...held.data, quantity: 10 } }]).when(sale).then([]);
    expect(shortfallOf(sale, { status: 'open', productId, storeId, onHand: 10, reserved: 10 })).toBe(5);
    expect(shortfallOf({ quantity: 2 }, { status: 'open', productId, storeId, onHand: 10, reserved: 0 })).toBe(0);
  });
  it('setting the current stock records nothing', () => {
    spec.given([opened]).when({ ...set, newStock: 10 }).then([]);
  });
  it('stock never goes negative: El stock no puede ser negativo', () => {
    spec.given([opened]).when({ ...set, newStock: -1 }).thenThrows(ValidationError, 'El stock no puede ser negativo');
  });
  it('a fractional stock is refused', () => {
    spec.given([opened]).when({ ...set, newStock: 1.5 }).thenThrows(ValidationError, InventoryMessages.stockInvalid);
  });
  it('an unknown type is refused: Tipo de ajuste inválido', () => {
    spec.given([opened]).when({ ...set, adjustmentType: 'robo' }).thenThrows(ValidationError, 'Tipo de ajuste inválido');
  });
  it('a reason is required: La razón es requerida', () => {
    spec.given([opened]).when({ ...set, reason: ' ' }).thenThrows(ValidationError, 'La razón es requerida');
  });
  it("another store's stock item is not found", () => {
    spec.given([opened]).when({ ...set, storeId: productId }).thenThrows(NotFoundError, InventoryMessages.productNotFound);
  });
  it('before ProductCreated arrives, the command opens the item with the opening stock, then adjusts', () => {
    spec
      .given([])
      .when({ ...set, openingStock: 10 })
      .then([opened, adjusted]);
    spec.given([]).when(set).thenThrows(NotFoundError);
  });
});
