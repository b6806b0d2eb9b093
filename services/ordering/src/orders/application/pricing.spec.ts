import { receiptTax } from '@tiendita/contracts';
import { priceLine, quetzalesText, totals, whatsappUrl } from './pricing';

describe('pricing', () => {
  const product = { id: 'p', store_id: 's', name: 'Café', sku: null, price_centavos: '7550', discount_percentage: '10.00', is_active: true };

  it('charges the discounted price (price × (1 − discount/100), rounded once)', () => {
    expect(priceLine(product, 3)).toEqual({ productId: 'p', productName: 'Café', sku: null, quantity: 3, unitPrice: 6795, lineTotal: 20385 });
  });

  it('IVA is contained in the total at the store rate: tax = round(total − total/(1+rate)), subtotal = total − tax', () => {
    expect(totals([priceLine(product, 1)], 0.12)).toEqual({ total: 6795, tax: 728, subtotal: 6067 });
    expect(totals([priceLine({ ...product, discount_percentage: 0, price_centavos: 11200 }, 1)], 0.12)).toEqual({ total: 11200, tax: 1200, subtotal: 10000 });
    expect(totals([priceLine(product, 1)], 0)).toEqual({ total: 6795, tax: 0, subtotal: 6795 });
  });

  it('wa.me link: digits only, 502 before an 8-digit number, null without a number', () => {
    expect(whatsappUrl('5555-1234', 'Hola & adiós')).toBe('https://wa.me/50255551234?text=Hola%20%26%20adi%C3%B3s');
    expect(whatsappUrl('+502 5555 1234', 'x')).toBe('https://wa.me/50255551234?text=x');
    expect(whatsappUrl(null, 'x')).toBeNull();
    expect(whatsappUrl('  ', 'x')).toBeNull();
  });

  it('amounts read Q1,234.50', () => {
    expect(quetzalesText(123450)).toBe('Q1,234.50');
    expect(quetzalesText(500)).toBe('Q5.00');
    for (const c of [0, 1, 99, 100, 123456, 100000000, 98765432101, 5]) {
      expect(quetzalesText(c)).toBe(`Q${(c / 100).toLocaleString('es-GT', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`);
    }
  });

  it("a receipt names the regime the order was charged under, read from its own tax, whatever the store's rate is now", () => {
    const q = (c: { tax: number; subtotal: number }) => ({ tax: c.tax / 100, subtotal: c.subtotal / 100 });
    for (const total of [...Array.from({ length: 3000 }, (_, i) => i + 1), 6795, 123_456_789]) {
      const general = q(totals([{ productId: 'p', productName: 'x', sku: null, quantity: 1, unitPrice: total, lineTotal: total }], 0.12));
      const small = q(totals([{ productId: 'p', productName: 'x', sku: null, quantity: 1, unitPrice: total, lineTotal: total }], 0.05));
      if (general.tax !== small.tax) {
        expect(receiptTax(general, 0.05)).toMatchObject({ regime: 'general', label: 'IVA (12%)', note: 'Precios incluyen IVA (12%)' });
        expect(receiptTax(small, 0.12)).toMatchObject({ regime: 'pequeno_contribuyente', label: 'Impuesto (5%)' });
      }
    }
    // Both rates give the same tax on a few centavos: the store's current regime.
    expect(receiptTax({ tax: 0, subtotal: 0.04 }, 0.05).regime).toBe('pequeno_contribuyente');
    expect(receiptTax({ tax: 0, subtotal: 0.04 }, 0.12).regime).toBe('general');
    expect(receiptTax({ tax: 0.01, subtotal: 0.11 }, 0.05).regime).toBe('pequeno_contribuyente');
  });
});
