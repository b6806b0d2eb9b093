import fc from 'fast-check';
import { formatDecimal, formatQuetzales } from './money';

const intlQuetzales = new Intl.NumberFormat('es-GT', { style: 'currency', currency: 'GTQ' });

describe('es-GT formatting without Intl (the shop skips loading the locale data on its first render)', () => {
  it('writes quetzales exactly as Intl does, rounding as ICU rounds', () => {
    for (const value of [0, -0, 5, -5, 7.5, 13.5, 1.005, 0.125, 12.345, 0.005, 999.995, 1234.567, -1234.567, 1234567.891, 1e15, 1e21, NaN, Infinity]) {
      expect(formatQuetzales(value)).toBe(intlQuetzales.format(value));
    }
    expect(formatQuetzales(1234.5)).toBe('Q\u00a01,234.50');
  });

  it('matches Intl for any price, centavos and fractions of them', () => {
    fc.assert(fc.property(fc.integer({ min: -10_000_000_000, max: 10_000_000_000 }), (centavos) => formatQuetzales(centavos / 100) === intlQuetzales.format(centavos / 100)));
    fc.assert(fc.property(fc.double({ min: -1e9, max: 1e9, noNaN: true }), (value) => formatQuetzales(value) === intlQuetzales.format(value)));
  });

  it('writes discounts and ratings as toLocaleString does', () => {
    for (const value of [0, -0, 25, 12.5, 33.333, 0.1, 10.005, 100, 4.45, 4.55, 1250.5, -1.5]) {
      for (const digits of [1, 2]) expect(formatDecimal(value, digits)).toBe(value.toLocaleString('es-GT', { maximumFractionDigits: digits }));
    }
    fc.assert(
      fc.property(fc.double({ min: -1e7, max: 1e7, noNaN: true }), fc.integer({ min: 0, max: 3 }), (value, digits) => formatDecimal(value, digits) === value.toLocaleString('es-GT', { maximumFractionDigits: digits })),
    );
  });
});
