import { receiptTax, TAX_REGIME_INFO } from './store-settings';
import { DEFAULT_TAX_RATE, SMALL_TAXPAYER_TAX_RATE, vatContained } from './vat';

describe('the IVA contained in a total', () => {
  it('is total − total / (1 + rate), rounded once to the centavo; 12% by default', () => {
    expect(DEFAULT_TAX_RATE).toBe(0.12);
    expect(vatContained(11200)).toBe(1200);
    expect(vatContained(6795, 0.12)).toBe(728);
    expect(vatContained(15090)).toBe(Math.round(15090 - 15090 / 1.12));
    expect(vatContained(10500, SMALL_TAXPAYER_TAX_RATE)).toBe(500);
    expect(vatContained(0)).toBe(0);
    expect(vatContained(4)).toBe(0);
  });

  it('is the rate each regime sets and the receipt reads back', () => {
    expect(TAX_REGIME_INFO.general.taxRate).toBe(DEFAULT_TAX_RATE);
    expect(TAX_REGIME_INFO.pequeno_contribuyente.taxRate).toBe(SMALL_TAXPAYER_TAX_RATE);
    expect(receiptTax({ tax: 12, subtotal: 100 }, DEFAULT_TAX_RATE)).toMatchObject({ regime: 'general', label: 'IVA (12%)' });
    expect(receiptTax({ tax: 5, subtotal: 100 }, DEFAULT_TAX_RATE)).toMatchObject({ regime: 'pequeno_contribuyente', label: 'Impuesto (5%)' });
  });
});
