import { FEL_ACCESS_NUMBER_MAX, FEL_ACCESS_NUMBER_MIN, felAccessNumber, felContingencyDeadline } from './fel-contingency';
import { felReceiptBlock } from './fel-receipt';
import type { FelInvoiceView } from './fel';

describe('contingencia FEL', () => {
  it('el número de acceso sale del id de la venta del dispositivo, siempre igual y en el rango de la SAT', () => {
    const id = '5d2c7a9e-1f4b-4c3e-9a1d-2b7e8f6a0c31';
    expect(felAccessNumber(id)).toBe(felAccessNumber(id.toUpperCase()));
    for (const uuid of ['00000000-0000-4000-8000-000000000000', 'ffffffff-ffff-4fff-bfff-ffffffffffff', id]) {
      const n = felAccessNumber(uuid);
      expect(Number.isInteger(n)).toBe(true);
      expect(n).toBeGreaterThanOrEqual(FEL_ACCESS_NUMBER_MIN);
      expect(n).toBeLessThanOrEqual(FEL_ACCESS_NUMBER_MAX);
    }
    expect(() => felAccessNumber('TK7-0001')).toThrow();
  });

  it('el plazo es el final del quinto día hábil después de la venta, en hora de Guatemala', () => {
    // Monday 23 Nov 2026, 10:00 in Guatemala → Monday 30 Nov 23:59:59.999 (-06:00).
    expect(felContingencyDeadline(new Date('2026-11-23T16:00:00Z')).toISOString()).toBe('2026-12-01T05:59:59.999Z');
    // Friday 27 Nov, 23:30 in Guatemala (already Saturday in UTC) → Friday 4 Dec.
    expect(felContingencyDeadline(new Date('2026-11-28T05:30:00Z')).toISOString()).toBe('2026-12-05T05:59:59.999Z');
    // Saturday 28 Nov → Friday 4 Dec.
    expect(felContingencyDeadline(new Date('2026-11-28T18:00:00Z')).toISOString()).toBe('2026-12-05T05:59:59.999Z');
  });
});

describe('bloque FEL del recibo', () => {
  const base: FelInvoiceView = {
    orderId: 'o1',
    orderCode: 'PED-0001',
    status: 'pending',
    documentType: 'FPEQ',
    series: null,
    number: null,
    authorization: null,
    certifiedAt: null,
    certifier: null,
    issuer: { nit: '12521337', name: 'Tienda, S.A.', commercialName: 'Tienda' },
    receiver: { id: 'CF', name: 'Consumidor Final' },
    total: 50,
    vat: 0,
    error: null,
    phrases: [{ type: 3, scenario: 1, text: 'No genera derecho a crédito fiscal' }],
    test: false,
    issuedAt: '2026-11-28T14:59:58.000Z',
    annulment: null,
    verificationUrl: null,
    contingency: { accessNumber: 123456789, deadline: '2026-12-05T05:59:59.999Z', late: false },
    creditNotes: [],
  };

  it('pendiente: en proceso de certificación, sin serie ni QR; con el número de acceso de la contingencia', () => {
    const b = felReceiptBlock(base);
    expect(b.title).toBe('FACTURA PEQUEÑO CONTRIBUYENTE');
    expect(b.pending).toBe('Factura en proceso de certificación');
    expect(b.qr).toBeNull();
    expect(b.rows.map((r) => r.label)).toEqual(['Número de acceso', 'Emisor NIT', 'Receptor']);
    expect(b.rows[0].value).toBe('123456789');
    expect(b.notices).toEqual([]);
  });

  it('certificada en pruebas: serie, número, autorización, fecha, certificador, QR y el aviso de prueba; sus notas de crédito', () => {
    const b = felReceiptBlock({
      ...base,
      status: 'certified',
      documentType: 'FACT',
      series: 'DBB51AE2',
      number: '979518519',
      authorization: 'DBB51AE2-3A62-4437-B8E9-42ECFB761156',
      certifiedAt: '2026-11-28T15:00:00.000Z',
      certifier: { nit: '12345679', name: 'CERTIFICADOR DE PRUEBAS TIENDITA' },
      test: true,
      verificationUrl: 'https://felpub.c.sat.gob.gt/verificador-web/publico/vistas/verificacionDte.jsf?numero=x',
      contingency: null,
      creditNotes: [{ refundId: 'r1', status: 'certified', series: 'AB12CD34', number: '1234', authorization: 'AB12CD34-0000-4000-8000-000000000000', certifiedAt: null, issuedAt: '2026-11-28T16:00:00.000Z', total: 15, vat: 1.61, reason: 'Pan dañado', error: null }],
    });
    expect(b.title).toBe('FACTURA');
    expect(b.pending).toBeNull();
    expect(b.notices).toEqual(['DOCUMENTO DE PRUEBA — sin validez fiscal']);
    expect(b.rows).toEqual([
      { label: 'Serie', value: 'DBB51AE2' },
      { label: 'Número', value: '979518519' },
      { label: 'Autorización', value: 'DBB51AE2-3A62-4437-B8E9-42ECFB761156', long: true },
      { label: 'Certificación', value: expect.stringMatching(/^28\/11\/2026,? 09:00/) },
      { label: 'Emisor NIT', value: '12521337' },
      { label: 'Receptor', value: 'CF — Consumidor Final' },
    ]);
    expect(b.certifier).toBe('Certificador: CERTIFICADOR DE PRUEBAS TIENDITA, NIT 12345679');
    expect(b.qr).toContain('verificacionDte');
    expect(b.creditNotes).toEqual([{ label: 'Nota de crédito AB12CD34-1234', value: '-Q\u00a015.00' }]);
  });
});
