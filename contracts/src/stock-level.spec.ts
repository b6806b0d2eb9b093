import { isLowStock, LOW_STOCK_THRESHOLD, lowStockSql, ownerStockLabel, ownerStockLevel, publicStockLabel, publicStockLevel, stockLevelSql } from './stock-level';

describe('low stock: the product’s own minimum wins', () => {
  it('is low at or below the minimum, sold out included; 5 when the owner set none', () => {
    expect(LOW_STOCK_THRESHOLD).toBe(5);
    expect([0, 5, 6].map((n) => isLowStock(n))).toEqual([true, true, false]);
    expect([8, 10, 11].map((n) => isLowStock(n, 10))).toEqual([true, true, false]);
    expect(isLowStock(1, 0)).toBe(false);
  });

  it('owner levels: Agotado at 0, low up to the minimum, medium up to 20, high above', () => {
    expect([0, -2, 1, 5, 6, 20, 21].map((n) => ownerStockLevel(n))).toEqual(['out', 'out', 'low', 'low', 'medium', 'medium', 'high']);
    // A minimum of 10: 8 units is low, never 'medium' beside a 'Stock bajo' tag.
    expect(ownerStockLevel(8, 10)).toBe('low');
    expect(ownerStockLevel(25, 30)).toBe('low');
    expect(ownerStockLevel(3, 2)).toBe('medium');
  });

  it('the owner tag names the minimum of a low product', () => {
    expect(ownerStockLabel(8, 10)).toBe('Stock bajo (mín. 10)');
    expect(ownerStockLabel(0, 10)).toBe('Agotado');
    expect(ownerStockLabel(12, 10)).toBe('Stock medio');
    expect(ownerStockLabel(30)).toBe('Stock alto');
  });

  it('the SQL fragments state the same rule over the caller’s columns', () => {
    expect(lowStockSql('p.stock - p.reserved', 'p.minimum')).toBe('(p.stock - p.reserved) <= p.minimum');
    expect(stockLevelSql('stock - reserved', 'minimum')).toBe('CASE WHEN (stock - reserved) <= 0 THEN 0 WHEN (stock - reserved) <= minimum THEN 1 ELSE 2 END');
  });
});

describe('the shop’s badge (fixed thresholds of spec 001 §4)', () => {
  it('0 Agotado, 1-5 low, 6-10 medium, above 10 in stock', () => {
    expect([0, 1, 5, 6, 10, 11].map(publicStockLevel)).toEqual(['out', 'low', 'low', 'medium', 'medium', 'high']);
    expect([0, 1, 3, 8, 40].map(publicStockLabel)).toEqual(['Agotado', '¡Última unidad!', 'Solo quedan 3', 'Pocas unidades', 'En stock']);
  });
});
