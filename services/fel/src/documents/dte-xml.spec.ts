import { distributeVat, felAccessNumber, felPhrases, felReceiver, vatContained } from '@tiendita/contracts';
import fc from 'fast-check';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildAnnulment, buildCreditNote, buildDte, type DteInput, NOTE_REFERENCE_NAMESPACE, satDateTime } from './dte-xml';

const issuer = {
  nit: '12521337',
  legalName: 'Tienda de Doña Ana, S.A.',
  commercialName: 'Tienda Doña Ana & Hijos',
  establishmentCode: 1,
  email: null,
  address: 'Zona 1',
  postalCode: '01001',
  municipality: 'Guatemala',
  department: 'Guatemala',
};

function sale(documentType: 'FACT' | 'FPEQ', taxId: string | null = null): DteInput {
  return {
    documentType,
    issuedAt: new Date('2026-03-15T18:05:06.789Z'),
    issuer,
    receiver: felReceiver(taxId, 'Juan Pérez'),
    phrases: felPhrases(documentType, 'trimestral'),
    lines: [
      { description: 'Café <molido>', quantity: 3, unitPrice: 1000, lineTotal: 3000 },
      { description: 'Pan dulce', quantity: 1, unitPrice: 333, lineTotal: 333 },
      { description: 'Azúcar', quantity: 2, unitPrice: 1267, lineTotal: 2534 },
    ],
  };
}

const amounts = (xml: string, tag: string) => [...xml.matchAll(new RegExp(`<dte:${tag}>([^<]+)<`, 'g'))].map((m) => Math.round(Number(m[1]) * 100));

// FEL_SAMPLES_DIR=/tmp/x writes the documents built here, to check them with SAT's schema (../shared/fel/validate.sh --unsigned).
function keep(name: string, xml: string) {
  const dir = process.env.FEL_SAMPLES_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), xml);
}

describe('DTE XML', () => {
  it('una FACT lleva IVA por ítem: gravable + impuesto = total, y el IVA total es el de la venta redondeado una vez', () => {
    const { xml, total, vat } = buildDte(sale('FACT', '12521337'));
    keep('fact.xml', xml);
    expect(total).toBe(5867);
    expect(vat).toBe(vatContained(5867));
    expect(xml).toContain('Tipo="FACT"');
    expect(xml).toContain('AfiliacionIVA="GEN"');
    expect(xml).toContain('<dte:Frase CodigoEscenario="1" TipoFrase="1"/>');
    expect(xml).toContain('IDReceptor="12521337"');
    expect(xml).toContain('Café &lt;molido&gt;');
    expect(xml).toContain('NombreComercial="Tienda Doña Ana &amp; Hijos"');
    const gravable = amounts(xml, 'MontoGravable');
    const impuesto = amounts(xml, 'MontoImpuesto');
    const totals = amounts(xml, 'Total');
    expect(gravable.map((g, i) => g + impuesto[i])).toEqual(totals);
    expect(impuesto.reduce((s, x) => s + x, 0)).toBe(vat);
    expect(xml).toContain(`TotalMontoImpuesto="${(vat / 100).toFixed(2)}"`);
    expect(amounts(xml, 'GranTotal')).toEqual([5867]);
  });

  it('una FPEQ no lleva impuestos y dice que no genera crédito fiscal; CF como Consumidor Final', () => {
    const { xml, vat } = buildDte(sale('FPEQ'));
    keep('fpeq.xml', xml);
    expect(vat).toBe(0);
    expect(xml).toContain('Tipo="FPEQ"');
    expect(xml).toContain('AfiliacionIVA="PEQ"');
    expect(xml).not.toContain('Impuesto');
    expect(xml).toContain('<dte:Frase CodigoEscenario="1" TipoFrase="3"/>');
    expect(xml).toContain('IDReceptor="CF" NombreReceptor="Consumidor Final"');
  });

  it('un CUI va con TipoEspecial="CUI"', () => {
    const { xml } = buildDte(sale('FACT', '1234567890101'));
    keep('fact-cui.xml', xml);
    expect(xml).toContain('IDReceptor="1234567890101" NombreReceptor="Juan Pérez" TipoEspecial="CUI"');
  });

  it('la fecha de emisión es la hora de Guatemala con -06:00', () => {
    expect(satDateTime(new Date('2026-03-15T05:59:00.000Z'))).toBe('2026-03-14T23:59:00.000-06:00');
  });

  it('la anulación nombra el documento, el emisor, el receptor y el motivo', () => {
    const xml = buildAnnulment({
      authorization: 'DBB51AE2-3A62-4437-B8E9-42ECFB761156',
      issuerNit: '12521337',
      receiverId: 'CF',
      issuedAt: new Date('2026-03-15T18:05:06.789Z'),
      annulledAt: new Date('2026-03-16T18:00:00.000Z'),
      reason: 'Cliente devolvió "todo"',
    });
    keep('annulment.xml', xml);
    expect(xml).toContain('NumeroDocumentoAAnular="DBB51AE2-3A62-4437-B8E9-42ECFB761156"');
    expect(xml).toContain('MotivoAnulacion="Cliente devolvió &quot;todo&quot;"');
  });

  it('una venta sin conexión (contingencia) lleva el NumeroAcceso del dispositivo, en el rango de la SAT', () => {
    const accessNumber = felAccessNumber('5d2c7a9e-1f4b-4c3e-9a1d-2b7e8f6a0c31');
    const { xml } = buildDte({ ...sale('FACT'), accessNumber });
    keep('fact-contingencia.xml', xml);
    expect(accessNumber).toBeGreaterThanOrEqual(100_000_000);
    expect(accessNumber).toBeLessThanOrEqual(999_999_999);
    expect(xml).toContain(`FechaHoraEmision="2026-03-15T12:05:06.789-06:00" NumeroAcceso="${accessNumber}" Tipo="FACT"`);
    expect(buildDte(sale('FACT')).xml).not.toContain('NumeroAcceso');
  });

  it('una nota de crédito (NCRE) de un emisor GEN: un ítem por el monto con su IVA, sin frases, y el complemento ReferenciasNota del documento original', () => {
    const { xml, total, vat } = buildCreditNote({
      affiliation: 'GEN',
      issuedAt: new Date('2026-03-20T16:00:00.000Z'),
      issuer,
      receiver: felReceiver('12521337', 'Juan Pérez'),
      amount: 1500,
      description: 'Devolución parcial del pedido PED-0001',
      reason: 'Producto dañado <caja>',
      origin: { authorization: 'dbb51ae2-3a62-4437-b8e9-42ecfb761156', issuedAt: new Date('2026-03-15T05:30:00.000Z') },
    });
    keep('ncre.xml', xml);
    expect(total).toBe(1500);
    expect(vat).toBe(vatContained(1500));
    expect(xml).toContain('Tipo="NCRE"');
    expect(xml).toContain('AfiliacionIVA="GEN"');
    expect(xml).not.toContain('<dte:Frases>');
    expect(amounts(xml, 'MontoImpuesto')).toEqual([vat]);
    // After Totales, as SAT's sequence has it; the original's date is its day in Guatemala (the 14th at 23:30).
    expect(xml).toMatch(/<\/dte:Totales><dte:Complementos><dte:Complemento IDComplemento="ReferenciasNota" NombreComplemento="ReferenciasNota" URIComplemento="[^"]+">/);
    expect(xml).toContain(`<cno:ReferenciasNota xmlns:cno="${NOTE_REFERENCE_NAMESPACE}" FechaEmisionDocumentoOrigen="2026-03-14" MotivoAjuste="Producto dañado &lt;caja&gt;"`);
    expect(xml).toContain('NumeroAutorizacionDocumentoOrigen="DBB51AE2-3A62-4437-B8E9-42ECFB761156"');
  });

  it('una nota de crédito de un Pequeño Contribuyente no lleva impuestos', () => {
    const { xml, vat } = buildCreditNote({
      affiliation: 'PEQ',
      issuedAt: new Date('2026-03-20T16:00:00.000Z'),
      issuer,
      receiver: felReceiver(null, null),
      amount: 999,
      description: 'Devolución parcial del pedido PED-0002',
      reason: 'Cobro de más',
      origin: { authorization: 'DBB51AE2-3A62-4437-B8E9-42ECFB761156', issuedAt: new Date('2026-03-15T18:00:00.000Z') },
    });
    keep('ncre-peq.xml', xml);
    expect(vat).toBe(0);
    expect(xml).toContain('AfiliacionIVA="PEQ"');
    expect(xml).not.toContain('Impuesto');
  });

  it('el IVA repartido entre los ítems suma siempre el IVA de la venta y cada ítem difiere de su parte exacta en menos de un centavo', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 5_000_000 }), { minLength: 1, maxLength: 30 }), (lines) => {
        const total = lines.reduce((s, x) => s + x, 0);
        const vats = distributeVat(lines);
        expect(vats.reduce((s, x) => s + x, 0)).toBe(vatContained(total));
        vats.forEach((v, i) => {
          expect(v).toBeGreaterThanOrEqual(0);
          expect(v).toBeLessThanOrEqual(lines[i]);
          if (total > 0) expect(Math.abs(v - (vatContained(total) * lines[i]) / total)).toBeLessThan(1);
        });
      }),
    );
  });
});
