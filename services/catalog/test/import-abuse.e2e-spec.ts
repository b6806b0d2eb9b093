import { ImportMessages, MAX_IMPORT_ROWS } from '@tiendita/contracts';
import ExcelJS from 'exceljs';
import { createDeflateRaw, crc32 } from 'node:zlib';
import { registerAndLogin, type Stack, type StackClient, startStack } from '../../../gateway/test/support/stack';

/**
 * The import preview against hostile files (issue 26, 'Fairness and abuse'): a ZIP that lies about
 * its sizes, sheets far past the row limit, and a store asking for previews in a loop.
 */
let stack: Stack;
let owner: StackClient;
let shop: string;

beforeAll(async () => {
  stack = await startStack({ services: ['identity', 'inventory', 'catalog'], serviceEnv: { catalog: { IMPORT_PREVIEW_RATE_LIMIT: '8' } } });
  owner = stack.client();
  shop = (await registerAndLogin(owner)).subdomain;
}, 60_000);

afterAll(() => stack?.stop());

const preview = (client: StackClient, file: Buffer | string, fileName: string) =>
  client.request('POST', `/api/products/import/preview?fileName=${encodeURIComponent(fileName)}`, new Uint8Array(typeof file === 'string' ? Buffer.from(file) : file), { 'content-type': 'application/octet-stream' });

/** Deflates `megabytes` MB of spaces between a sheet's opening and closing tags, as a stream (the test never holds it whole). */
async function deflatedSheet(megabytes: number): Promise<{ data: Buffer; crc: number; size: number }> {
  const deflate = createDeflateRaw({ level: 9 });
  const chunks: Buffer[] = [];
  deflate.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  const head = Buffer.from('<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>');
  const tail = Buffer.from('</sheetData></worksheet>');
  const spaces = Buffer.alloc(1024 * 1024, ' ');
  let crc = crc32(head);
  deflate.write(head);
  for (let i = 0; i < megabytes; i++) {
    crc = crc32(spaces, crc);
    if (!deflate.write(spaces)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  crc = crc32(tail, crc);
  deflate.end(tail);
  await done;
  return { data: Buffer.concat(chunks), crc, size: head.length + tail.length + megabytes * 1024 * 1024 };
}

/** A ZIP whose headers declare `declared` bytes for every entry, whatever the entry inflates to. */
function zip(entries: { name: string; data: Buffer; crc: number; method: 0 | 8 }[], declared: number): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(e.method, 8);
    local.writeUInt32LE(e.crc >>> 0, 14);
    local.writeUInt32LE(e.data.length, 18);
    local.writeUInt32LE(declared, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(e.method, 10);
    central.writeUInt32LE(e.crc >>> 0, 16);
    central.writeUInt32LE(e.data.length, 20);
    central.writeUInt32LE(declared, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, e.data);
    centrals.push(central, name);
    offset += local.length + name.length + e.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const stored = (name: string, text: string) => ({ name, data: Buffer.from(text), crc: crc32(Buffer.from(text)), method: 0 as const });

/** A workbook whose only sheet inflates to `megabytes` MB while every header says 1,000 bytes. */
async function lyingWorkbook(megabytes: number): Promise<Buffer> {
  const sheet = await deflatedSheet(megabytes);
  return zip(
    [
      stored('[Content_Types].xml', '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'),
      stored('xl/workbook.xml', '<workbook xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Hoja1" sheetId="1" r:id="rId1"/></sheets></workbook>'),
      stored('xl/_rels/workbook.xml.rels', '<Relationships><Relationship Id="rId1" Type="worksheet" Target="worksheets/sheet1.xml"/></Relationships>'),
      { name: 'xl/worksheets/sheet1.xml', data: sheet.data, crc: sheet.crc, method: 8 },
    ],
    1000,
  );
}

describe('the import preview against hostile files', () => {
  it('a workbook that lies about its size is refused after inflating at most the cap, quickly, while shop reads stay fast', async () => {
    const bomb = await lyingWorkbook(400);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    // Shop reads go on while the bomb is read; the slowest of them is what a shopper would feel.
    let reading = true;
    const latencies: number[] = [];
    const reads = (async () => {
      while (reading) {
        const started = performance.now();
        const res = await stack.client().get(`/api/public/products/${shop}`);
        expect(res.status).toBe(200);
        latencies.push(performance.now() - started);
      }
    })();
    const started = performance.now();
    const res = await preview(owner, bomb, 'bomba.xlsx');
    const took = performance.now() - started;
    reading = false;
    await reads;
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(ImportMessages.tooMuchData);
    expect(took).toBeLessThan(5000);
    expect(latencies.length).toBeGreaterThan(0);
    // Loose on purpose (a shared 2-core machine): before the fix a read waited for the whole inflation.
    expect(Math.max(...latencies)).toBeLessThan(1000);
  }, 60_000);

  it('an honest sheet far past the row limit is refused after reading one row too many (CSV)', async () => {
    const csv = `Nombre,Precio\n${'a,1\n'.repeat(1_000_000)}`;
    const started = performance.now();
    const res = await preview(owner, csv, 'enorme.csv');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(ImportMessages.tooManyRows);
    expect(performance.now() - started).toBeLessThan(3000);
  }, 30_000);

  it('an .xlsx with one row past the limit is refused with the same message', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Productos');
    sheet.addRow(['Nombre', 'Precio']);
    for (let i = 0; i <= MAX_IMPORT_ROWS; i++) sheet.addRow([`Producto ${i}`, 1]);
    const res = await preview(owner, Buffer.from(await workbook.xlsx.writeBuffer()), 'muchos.xlsx');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(ImportMessages.tooManyRows);
  }, 30_000);

  it('an .xlsx with inline strings, rich text and a hidden first sheet is read from its first visible sheet', async () => {
    const workbook = new ExcelJS.Workbook();
    const hidden = workbook.addWorksheet('Oculta', { state: 'hidden' });
    hidden.addRow(['Nada']);
    const sheet = workbook.addWorksheet('Productos');
    sheet.addRow(['Nombre', 'Precio', 'Descripción']);
    sheet.addRow([{ richText: [{ text: 'Café ' }, { text: '& té', font: { bold: true } }] }, 12.5, 'Dice "hola" <ya>']);
    const res = await preview(owner, Buffer.from(await workbook.xlsx.writeBuffer()), 'ricos.xlsx');
    expect(res.status).toBe(200);
    expect(res.body.rows).toMatchObject([{ row: 2, name: 'Café & té', price: 12.5, description: 'Dice "hola" <ya>', status: 'new' }]);
  });

  it('previews are rate-limited per store: 429 in Spanish past the limit', async () => {
    const client = stack.client();
    await registerAndLogin(client);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await preview(client, 'Nombre,Precio\nPan,1\n', 'pan.csv')).status);
    expect(statuses).toEqual(Array(8).fill(200));
    const refused = await preview(client, 'Nombre,Precio\nPan,1\n', 'pan.csv');
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe(ImportMessages.previewRateLimited);
    // Another store is not held back by this one.
    expect((await preview(owner, 'Nombre,Precio\nPan,1\n', 'pan.csv')).status).toBe(200);
  });
});
