import { isValidCui, isValidNit, receiverIdError } from './fel';

describe('FEL receivers (issue 25)', () => {
  it('accepts a NIT whose módulo-11 check digit agrees, K included, and refuses the others', () => {
    expect(isValidNit('12345679')).toBe(true);
    expect(isValidNit('12345678')).toBe(false);
    expect(isValidNit('12521337')).toBe(true);
    // 1 0 0 0 0 0 0: 1 × 8 = 8, 11 − 8 = 3; a body whose remainder is 1 gives K.
    expect(isValidNit('10000003')).toBe(true);
    expect(isValidNit('1000002K')).toBe(true);
    expect(isValidNit('10000020')).toBe(false);
  });

  it('accepts a CUI with its check digit, department and municipality, and refuses the others', () => {
    expect(isValidCui('1234567890101')).toBe(true);
    expect(isValidCui('1234567800101')).toBe(false); // check digit
    expect(isValidCui('1234567892301')).toBe(false); // no department 23
    expect(isValidCui('1234567890118')).toBe(false); // Guatemala has 17 municipalities
    expect(isValidCui('1234567891630')).toBe(false);
    expect(isValidCui('123456789010')).toBe(false);
  });

  it("answers the POS's Spanish messages: 'NIT inválido', 'CUI inválido', nothing for CF", () => {
    expect(receiverIdError('CF')).toBeNull();
    expect(receiverIdError('c/f')).toBeNull();
    expect(receiverIdError('1234567-9')).toBeNull();
    expect(receiverIdError('1234567-8')).toBe('NIT inválido');
    expect(receiverIdError('1234567890123')).toBe('CUI inválido');
    expect(receiverIdError('1234567890101')).toBeNull();
  });
});
