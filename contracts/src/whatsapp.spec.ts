import { quetzalesText } from './money';
import { WHATSAPP_SAMPLE_ORDER, whatsappLink, whatsappOrderMessage, whatsappShareLink } from './whatsapp';

describe('the wa.me link', () => {
  it('digits only, 502 before an 8-digit number, the message encoded', () => {
    expect(whatsappLink('5555-1234', 'Hola & adiós')).toBe('https://wa.me/50255551234?text=Hola%20%26%20adi%C3%B3s');
    expect(whatsappLink('+502 5555 1234', 'x')).toBe('https://wa.me/50255551234?text=x');
    expect(whatsappLink('(1) 415 555 0100', 'x')).toBe('https://wa.me/14155550100?text=x');
  });

  it('is null without a number or with one too short to be one', () => {
    for (const n of [null, undefined, '', '  ', '5555', 'abc']) expect(whatsappLink(n, 'x')).toBeNull();
  });

  it('without a number, WhatsApp asks for the contact', () => {
    expect(whatsappShareLink('Mira mi tienda: https://x.gt/demo')).toBe('https://wa.me/?text=Mira%20mi%20tienda%3A%20https%3A%2F%2Fx.gt%2Fdemo');
  });
});

describe('the WhatsApp order message', () => {
  it('lists the code, each line, the total and the shopper', () => {
    const message = whatsappOrderMessage({
      code: 'ABC234',
      lines: [
        { quantity: 2, productName: 'Café de Antigua', unitPrice: 6795, lineTotal: 13590 },
        { quantity: 3, productName: 'Pan dulce', unitPrice: 500, lineTotal: 1500 },
      ],
      total: 15090,
      name: 'María Pérez',
      phone: '5555-0000',
      address: 'Zona 1, Guatemala',
      notes: 'Tocar el timbre',
    });
    expect(message).toBe(
      [
        '¡Hola! Quiero hacer un pedido.',
        'Pedido: ABC234',
        '',
        '• 2 x Café de Antigua (Q67.95 c/u) = Q135.90',
        '• 3 x Pan dulce (Q5.00 c/u) = Q15.00',
        '',
        'Total: Q150.90',
        '',
        'Nombre: María Pérez',
        'Teléfono: 5555-0000',
        'Dirección: Zona 1, Guatemala',
        'Notas: Tocar el timbre',
      ].join('\n'),
    );
  });

  it('leaves out an empty address and notes', () => {
    const message = whatsappOrderMessage({ ...WHATSAPP_SAMPLE_ORDER, address: null, notes: '' });
    expect(message).not.toMatch(/Dirección|Notas/);
    expect(message.split('\n').at(-1)).toBe('Teléfono: 5555 1234');
  });

  it('the settings preview’s sample adds up', () => {
    const { lines, total } = WHATSAPP_SAMPLE_ORDER;
    expect(lines.reduce((s, l) => s + l.lineTotal, 0)).toBe(total);
    for (const l of lines) expect(l.unitPrice * l.quantity).toBe(l.lineTotal);
  });
});

describe('quetzales in messages', () => {
  it('Q with es-GT grouping and two decimals', () => {
    expect([0, 5, 123456, -2550, 100000000].map(quetzalesText)).toEqual(['Q0.00', 'Q0.05', 'Q1,234.56', '-Q25.50', 'Q1,000,000.00']);
  });
});
