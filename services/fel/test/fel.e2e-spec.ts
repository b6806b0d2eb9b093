/* eslint-disable @typescript-eslint/no-explicit-any -- answers are read loosely, like fetch().json() */
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { PostgresEventStore } from '@tiendita/eventsourcing';
import { createTestDatabase, signedRequest, type TestDatabase, testEnv } from '@tiendita/service-kit/testing';
import ExcelJS from 'exceljs';
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { createApp } from '../src/app';
import { SandboxCertifier, SANDBOX_CERTIFIER } from '../src/sandbox/sandbox-certifier';
import { felAccessNumber, felContingencyDeadline } from '@tiendita/contracts';
import { cancel, cancelPaid, orderPlaced, payment, posSale, refund } from './support/sales';

/**
 * The FEL service end to end: ordering's real event store feeds it, it certifies through the INFILE
 * client against the sandbox certifier on 127.0.0.1 (made slow, down and refusing here), and the
 * owner reads the invoices over HTTP.
 */
let db: TestDatabase;
let app: NestFastifyApplication;
let pool: pg.Pool;
let ordering: PostgresEventStore;
let identity: PostgresEventStore;
const sandbox = new SandboxCertifier();
const storeId = randomUUID();
const userId = randomUUID();

const call = async (method: string, url: string, payload?: unknown, store = storeId) => app.inject(signedRequest({ method, url, payload, userId, storeId: store }));
const invoice = async (orderId: string) => call('GET', `/api/orders/${orderId}/invoice`);

async function until(orderId: string, test: (inv: any) => boolean, timeoutMs = 10_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  let last: any = null;
  while (Date.now() < deadline) {
    const res = await invoice(orderId);
    if (res.statusCode === 200) {
      last = res.json();
      if (test(last)) return last;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`La factura de ${orderId} no llegó al estado esperado: ${JSON.stringify(last)}`);
}

// FEL_SAMPLES_DIR=/tmp/x keeps the certified documents, to check them with SAT's schema (../shared/fel/validate.sh).
function keep(name: string, xml: string) {
  const dir = process.env.FEL_SAMPLES_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), xml);
}

beforeAll(async () => {
  db = await createTestDatabase();
  const url = await sandbox.start();
  pool = new pg.Pool({ connectionString: db.url, max: 3 });
  ordering = new PostgresEventStore(pool, 'ordering');
  identity = new PostgresEventStore(pool, 'identity');
  await ordering.migrate();
  await identity.migrate();
  app = await createApp(
    testEnv(db.url, { FEL_SANDBOX_URL: url, FEL_POLL_MS: '50', FEL_RETRY_BASE_MS: '100', FEL_RETRY_MAX_MS: '300', FEL_CERTIFIER_TIMEOUT_MS: '400' }),
  );
  const res = await call('PUT', '/api/fel/settings', {
    enabled: true,
    issuerNit: '1252133-7',
    legalName: 'Tienda de Doña Ana, S.A.',
    commercialName: 'Tienda Doña Ana',
    establishmentCode: 1,
    credentials: { apiUser: 'ANA', apiKey: 'llave-secreta-api', signUser: 'ANA', signKey: 'llave-secreta-firma' },
  });
  expect(res.statusCode).toBe(200);
});

afterAll(async () => {
  await app?.close();
  await sandbox.stop();
  await pool?.end();
  await db?.drop();
});

afterEach(() => {
  sandbox.mode = 'ok';
});

describe('configuración FEL', () => {
  it('guarda las credenciales cifradas y nunca las devuelve: solo si están puestas', async () => {
    const res = await call('GET', '/api/fel/settings');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ enabled: true, issuerNit: '12521337', ivaAffiliation: 'GEN', certifier: 'pruebas', credentials: { apiUser: true, apiKey: true, signUser: true, signKey: true } });
    expect(res.body).not.toContain('llave-secreta');
    const stored = await pool.query<{ credentials: string }>('SELECT credentials FROM fel.settings WHERE store_id = $1', [storeId]);
    expect(stored.rows[0].credentials).toMatch(/^v1\./);
    expect(stored.rows[0].credentials).not.toContain('llave-secreta');
  });

  it('rechaza un NIT de emisor con dígito verificador malo y un establecimiento fuera de rango', async () => {
    const bad = await call('PUT', '/api/fel/settings', { issuerNit: '12521338' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('NIT del emisor');
    const est = await call('PUT', '/api/fel/settings', { establishmentCode: 10000 });
    expect(est.statusCode).toBe(400);
  });

  it('otra tienda empieza con FEL apagado y sus ventas no llevan factura', async () => {
    const other = randomUUID();
    const res = await call('GET', '/api/fel/settings', undefined, other);
    expect(res.json()).toMatchObject({ enabled: false, certifier: 'pruebas', credentials: { apiUser: false } });
    const order = orderPlaced(other);
    await posSale(ordering, order);
    const mine = orderPlaced(storeId);
    await posSale(ordering, mine);
    await until(mine.orderId, (i) => i.status === 'certified');
    expect((await call('GET', `/api/orders/${order.orderId}/invoice`, undefined, other)).statusCode).toBe(404);
    // Nor does one store see another's invoice.
    expect((await call('GET', `/api/orders/${mine.orderId}/invoice`, undefined, other)).statusCode).toBe(404);
  });
});

describe('emisión', () => {
  it('una venta del POS pagada recibe una FACT certificada con serie, número y autorización', async () => {
    const order = orderPlaced(storeId, { customerNit: '1252133-7', customerName: 'INFILE' });
    await posSale(ordering, order);
    const inv = await until(order.orderId, (i) => i.status === 'certified');
    expect(inv).toMatchObject({
      documentType: 'FACT',
      receiver: { id: '12521337', name: 'INFILE' },
      certifier: { nit: SANDBOX_CERTIFIER.nit, name: SANDBOX_CERTIFIER.name },
      total: 58.67,
      vat: 6.29,
      error: null,
      test: true,
    });
    expect(inv.series).toBe(inv.authorization.replace(/-/g, '').slice(0, 8));
    expect(inv.number).toBe(String(parseInt(inv.authorization.replace(/-/g, '').slice(8, 16), 16)));
    const xml = await call('GET', `/api/orders/${order.orderId}/invoice.xml`);
    expect(xml.statusCode).toBe(200);
    expect(xml.headers['content-type']).toContain('application/xml');
    expect(xml.body).toContain(`<dte:NumeroAutorizacion Numero="${inv.number}" Serie="${inv.series}">${inv.authorization}</dte:NumeroAutorizacion>`);
    expect(xml.body).toContain('<ds:Signature');
    keep('fact-certified.xml', xml.body);
  });

  it('un pedido de WhatsApp se factura solo cuando queda pagado por completo', async () => {
    const order = orderPlaced(storeId, { orderType: 'whatsapp', status: 'pending', placedBy: 'public' });
    await ordering.append(`order-${order.orderId}`, [{ type: 'OrderPlaced', data: order }], 0, { storeId });
    await ordering.append(`order-${order.orderId}`, [{ type: 'PaymentRecorded', data: payment(order, 1000, 1000) }], 1, { storeId });
    await new Promise((r) => setTimeout(r, 600));
    expect((await invoice(order.orderId)).statusCode).toBe(404);
    await ordering.append(`order-${order.orderId}`, [{ type: 'PaymentRecorded', data: payment(order, order.total - 1000, order.total) }], 2, { storeId });
    await until(order.orderId, (i) => i.status === 'certified');
  });

  it('con el certificador caído la venta queda pendiente con el mensaje, y se certifica cuando vuelve', async () => {
    sandbox.mode = 'down';
    const order = orderPlaced(storeId);
    await posSale(ordering, order);
    const pending = await until(order.orderId, (i) => i.status === 'pending' && i.error !== null);
    expect(pending.error).toContain('certificador');
    sandbox.mode = 'ok';
    await until(order.orderId, (i) => i.status === 'certified');
  });

  it('un certificador lento cuenta como caído; al reintentar, "ya certificado" se toma como éxito y no hay duplicado', async () => {
    sandbox.mode = 'slow';
    sandbox.delayMs = 800;
    const order = orderPlaced(storeId);
    await posSale(ordering, order);
    await until(order.orderId, (i) => i.status === 'pending' && /a tiempo/.test(i.error ?? ''));
    // The slow call did certify, on the certifier's side: the retry gets that same document back.
    await new Promise((r) => setTimeout(r, 900));
    sandbox.mode = 'ok';
    const inv = await until(order.orderId, (i) => i.status === 'certified');
    const issued = [...sandbox.certified.values()].filter((a) => a.uuid === inv.authorization);
    expect(issued).toHaveLength(1);
    const r = await pool.query('SELECT count(*)::int AS n FROM fel.documents WHERE order_id = $1', [order.orderId]);
    expect(r.rows[0].n).toBe(1);
  });

  it('un rechazo deja la factura fallida con el mensaje del certificador; reintentar la certifica', async () => {
    sandbox.mode = 'refuse';
    const order = orderPlaced(storeId);
    await posSale(ordering, order);
    const failed = await until(order.orderId, (i) => i.status === 'failed');
    expect(failed.error).toContain('rechazó');
    expect((await call('GET', '/api/fel/summary')).json().failed).toBeGreaterThanOrEqual(1);
    sandbox.mode = 'ok';
    const retry = await call('POST', `/api/orders/${order.orderId}/invoice/retry`);
    expect(retry.statusCode).toBe(200);
    expect(retry.json().status).toBe('pending');
    await until(order.orderId, (i) => i.status === 'certified');
    expect((await call('POST', `/api/orders/${order.orderId}/invoice/retry`)).statusCode).toBe(409);
  });

  it('un NIT de receptor rechazado se corrige y se vuelve a certificar', async () => {
    const order = orderPlaced(storeId, { customerNit: '1234567' });
    await posSale(ordering, order);
    const failed = await until(order.orderId, (i) => i.status === 'failed');
    expect(failed.error).toContain('NIT del receptor');
    const bad = await call('PUT', `/api/orders/${order.orderId}/invoice/receiver`, { taxId: '1234568' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('NIT inválido');
    const badCui = await call('PUT', `/api/orders/${order.orderId}/invoice/receiver`, { taxId: '123456789012' });
    expect(badCui.json().message).toBe('NIT inválido');
    const fixed = await call('PUT', `/api/orders/${order.orderId}/invoice/receiver`, { taxId: '1234567-9', name: 'Juan Pérez' });
    expect(fixed.statusCode).toBe(200);
    const inv = await until(order.orderId, (i) => i.status === 'certified');
    expect(inv.receiver).toEqual({ id: '12345679', name: 'Juan Pérez' });
  });

  it('cancelar una venta certificada la anula con el motivo; la anulación se puede descargar', async () => {
    const order = orderPlaced(storeId);
    await posSale(ordering, order);
    await until(order.orderId, (i) => i.status === 'certified');
    await cancel(ordering, order, 2, 'El cliente devolvió el producto');
    const inv = await until(order.orderId, (i) => i.status === 'annulled');
    expect(inv.annulment.reason).toBe('El cliente devolvió el producto');
    const xml = await call('GET', `/api/orders/${order.orderId}/invoice/annulment.xml`);
    expect(xml.statusCode).toBe(200);
    expect(xml.body).toContain(`NumeroDocumentoAAnular="${inv.authorization}"`);
    expect(xml.body).toContain('MotivoAnulacion="El cliente devolvió el producto"');
    keep('annulment-certified.xml', xml.body);
  });

  it('una tienda de Pequeño Contribuyente emite FPEQ, sin IVA', async () => {
    await identity.append(`store-${storeId}`, [{ type: 'StoreSettingsUpdated', data: { storeId, changes: { taxRegime: 'pequeno_contribuyente', taxRate: 0.05 }, updatedAt: new Date().toISOString() } }], 'any', { storeId });
    const deadline = Date.now() + 5000;
    while ((await call('GET', '/api/fel/settings')).json().ivaAffiliation !== 'PEQ' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const order = orderPlaced(storeId);
    await posSale(ordering, order);
    const inv = await until(order.orderId, (i) => i.status === 'certified');
    expect(inv).toMatchObject({ documentType: 'FPEQ', vat: 0, total: 58.67 });
    expect(inv.phrases).toEqual([{ type: 3, scenario: 1, text: 'No genera derecho a crédito fiscal' }]);
    keep('fpeq-certified.xml', (await call('GET', `/api/orders/${order.orderId}/invoice.xml`)).body);
    await identity.append(`store-${storeId}`, [{ type: 'StoreSettingsUpdated', data: { storeId, changes: { taxRegime: 'general', taxRate: 0.12 }, updatedAt: new Date().toISOString() } }], 'any', { storeId });
  });
});

describe('contingencia y notas de crédito', () => {
  it('una venta hecha sin conexión se factura en contingencia: el NumeroAcceso del dispositivo, la fecha de la venta y el plazo de la SAT', async () => {
    const deviceSaleId = randomUUID();
    const soldAt = new Date(Date.now() - 3 * 3600 * 1000).toISOString();
    const order = orderPlaced(storeId, { placedAt: soldAt, offline: { deviceSaleId, localNumber: 'TK7-0003', soldAt } });
    await posSale(ordering, order);
    const inv = await until(order.orderId, (i) => i.status === 'certified');
    const accessNumber = felAccessNumber(deviceSaleId);
    expect(inv.contingency).toEqual({ accessNumber, deadline: felContingencyDeadline(new Date(soldAt)).toISOString(), late: false });
    expect(inv.issuedAt).toBe(soldAt);
    const xml = (await call('GET', `/api/orders/${order.orderId}/invoice.xml`)).body;
    expect(xml).toContain(`NumeroAcceso="${accessNumber}"`);
    keep('fact-contingencia-certified.xml', xml);
    // A sale made online carries none.
    const online = orderPlaced(storeId);
    await posSale(ordering, online);
    const plain = await until(online.orderId, (i) => i.status === 'certified');
    expect(plain.contingency).toBeNull();
    expect((await call('GET', `/api/orders/${online.orderId}/invoice.xml`)).body).not.toContain('NumeroAcceso');
  });

  it('un reembolso parcial de una venta certificada emite una nota de crédito (NCRE) con el complemento ReferenciasNota', async () => {
    const order = orderPlaced(storeId, { customerNit: '1252133-7', customerName: 'INFILE' });
    await posSale(ordering, order);
    const inv = await until(order.orderId, (i) => i.status === 'certified');
    const refundId = await refund(ordering, order, 2, 1500, order.total - 1500, 'Pan dañado');
    const withNote = await until(order.orderId, (i) => i.creditNotes.length === 1 && i.creditNotes[0].status === 'certified');
    expect(withNote.status).toBe('certified');
    expect(withNote.creditNotes[0]).toMatchObject({ refundId, total: 15, vat: 1.61, reason: 'Pan dañado', error: null });
    const xml = await call('GET', `/api/orders/${order.orderId}/invoice/credit-notes/${refundId}.xml`);
    expect(xml.statusCode).toBe(200);
    expect(xml.body).toContain('Tipo="NCRE"');
    expect(xml.body).toContain(`NumeroAutorizacionDocumentoOrigen="${inv.authorization}"`);
    expect(xml.body).toContain('MotivoAjuste="Pan dañado"');
    expect(xml.body).toContain('IDReceptor="12521337"');
    expect(xml.body).toContain('<dte:NumeroAutorizacion');
    keep('ncre-certified.xml', xml.body);
    // Sent again (a redelivery), still one note; the certifier issued it once.
    expect([...sandbox.certified.values()].filter((a) => a.uuid === withNote.creditNotes[0].authorization)).toHaveLength(1);
    const r = await pool.query('SELECT count(*)::int AS n FROM fel.credit_notes WHERE order_id = $1', [order.orderId]);
    expect(r.rows[0].n).toBe(1);
  });

  it('un reembolso de una venta aún sin certificar espera a la factura; cancelar una venta pagada la anula sin nota de crédito', async () => {
    sandbox.mode = 'down';
    const order = orderPlaced(storeId);
    await posSale(ordering, order);
    await refund(ordering, order, 2, 500, order.total - 500, null);
    await until(order.orderId, (i) => i.creditNotes.length === 1 && i.status === 'pending');
    sandbox.mode = 'ok';
    const done = await until(order.orderId, (i) => i.creditNotes[0]?.status === 'certified');
    expect(done.creditNotes[0]).toMatchObject({ total: 5, reason: 'Devolución parcial' });

    const cancelled = orderPlaced(storeId);
    await posSale(ordering, cancelled);
    await until(cancelled.orderId, (i) => i.status === 'certified');
    await cancelPaid(ordering, cancelled, 2, 'Cliente se arrepintió');
    const annulled = await until(cancelled.orderId, (i) => i.status === 'annulled');
    expect(annulled.creditNotes).toEqual([]);
  });
});

describe('lista de facturas y libro mensual', () => {
  it('filtra por estado y fecha, y exporta el mes en CSV y XLSX', async () => {
    const list = await call('GET', '/api/fel/documents?status=certified&limit=100');
    expect(list.statusCode).toBe(200);
    const certified = list.json();
    expect(certified.documents.length).toBeGreaterThanOrEqual(5);
    expect(certified.documents.every((d: any) => d.status === 'certified')).toBe(true);
    expect((await call('GET', '/api/fel/documents?status=nada')).statusCode).toBe(400);
    expect((await call('GET', '/api/fel/documents?from=2001-01-01&to=2001-01-31')).json().total).toBe(0);
    const month = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Guatemala', year: 'numeric', month: '2-digit' }).format(new Date());
    const csv = await call('GET', `/api/fel/documents/export?month=${month}&format=csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('Fecha,Tipo,Serie,Número,Autorización,NIT receptor,Nombre receptor,Total,IVA,Estado');
    const all = (await call('GET', '/api/fel/documents?limit=100')).json();
    expect(lines).toHaveLength(all.total + 1);
    expect(csv.body).toContain('FACTURA PEQUEÑO CONTRIBUYENTE');
    expect(csv.body).toContain('Anulada');
    const xlsx = await call('GET', `/api/fel/documents/export?month=${month}`);
    expect(xlsx.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    expect(wb.worksheets[0].rowCount).toBe(all.total + 1);
    expect((await call('GET', '/api/fel/documents/export?month=2026-13')).json().message).toBe('Mes inválido: usa el formato AAAA-MM.');
  });
});
