import { formatCount, formatDate, formatDateTime, formatLongDate, formatMoney } from './format';
import { firstErrorPerField } from './form-errors';

describe('formatos es-GT', () => {
  it('quetzales con dos decimales y separador de miles', () => {
    expect(formatMoney(1234.5)).toBe('Q\u00a01,234.50');
    expect(formatMoney(0)).toBe('Q\u00a00.00');
  });

  it('conteos con separador de miles', () => {
    expect(formatCount(1250)).toBe('1,250');
  });

  it('las fechas son del día en Guatemala (UTC-6), no del día en UTC', () => {
    // 03:30 UTC on the 29th is still the 28th, 21:30, in Guatemala.
    const lateEvening = '2026-11-29T03:30:00.000Z';
    expect(formatDate(lateEvening)).toBe('28/11/2026');
    expect(formatDateTime(lateEvening)).toMatch(/^28\/11\/2026,? 21:30$|^28\/11\/2026,? 09:30 p\.\s?m\.$/);
    expect(formatLongDate(lateEvening)).toBe('sábado, 28 de noviembre de 2026');
  });
});

describe('firstErrorPerField', () => {
  it('se queda con el primer mensaje de cada campo', () => {
    const errors = firstErrorPerField({
      issues: [
        { path: ['price'], message: 'El precio es requerido' },
        { path: ['price'], message: 'otro' },
        { path: ['name'], message: 'El nombre es requerido' },
      ],
    });
    expect(errors).toEqual({ price: 'El precio es requerido', name: 'El nombre es requerido' });
  });
});
