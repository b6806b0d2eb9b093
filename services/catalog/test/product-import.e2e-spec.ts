/* eslint-disable @typescript-eslint/no-explicit-any -- responses are read loosely in tests */
import { IMPORT_COLUMNS, ImportConfirmResponse, ImportMessages, ImportPreviewResponse, type ImportPreviewRow, type ImportRow } from '@tiendita/contracts';
import ExcelJS from 'exceljs';
import { randomUUID } from 'node:crypto';
import { registerAndLogin, type Stack, type StackClient, startStack } from '../../../gateway/test/support/stack';
import { eventually, makeImage } from './support';

/**
 * The Products page's bulk import through the gateway (real HTTP, real PostgreSQL): identity for the
 * session, catalog for products and categories, inventory for the stock counts.
 */
let stack: Stack;
let owner: StackClient;
let other: StackClient;

beforeAll(async () => {
  stack = await startStack({ services: ['identity', 'inventory', 'catalog'] });
  owner = stack.client();
  other = stack.client();
  await registerAndLogin(owner, { firstName: 'Rosa', lastName: 'Ixcot' });
  await registerAndLogin(other);
}, 60_000);

afterAll(() => stack?.stop());

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

function preview(client: StackClient, file: Buffer | string, fileName = 'productos.csv') {
  const bytes = typeof file === 'string' ? new Uint8Array(Buffer.from(file, 'utf8')) : new Uint8Array(file);
  return client.request('POST', `/api/products/import/preview?fileName=${encodeURIComponent(fileName)}`, bytes, { 'content-type': 'application/octet-stream' });
}

/** Sends the preview's importable rows in chunks, as the web client does. */
async function confirm(client: StackClient, rows: ImportPreviewRow[], importId = randomUUID()) {
  const importable = rows.filter((r) => r.status !== 'error').map(({ status: _s, productId: _p, changes: _c, errors: _e, ...row }) => row as ImportRow);
  const results: ImportConfirmResponse['results'] = [];
  for (let i = 0; i < importable.length; i += 250) {
    const res = await client.post('/api/products/import', { importId, rows: importable.slice(i, i + 250) });
    if (res.status !== 200) throw new Error(`confirmación: ${res.status} ${res.text}`);
    results.push(...ImportConfirmResponse.parse(res.body).results);
  }
  return results;
}

async function createProduct(client: StackClient, body: Record<string, unknown>): Promise<string> {
  const res = await client.post('/api/products', { description: 'Del estante', discountPercentage: 0, categoryId: 'none', images: [], isActive: true, ...body });
  if (res.status !== 201) throw new Error(`producto: ${res.status} ${res.text}`);
  return res.body.id;
}

const eventCount = async (schema: 'catalog' | 'inventory') => Number((await stack.pool.query(`SELECT count(*) AS n FROM ${schema}.events`)).rows[0].n);

async function allProducts(client: StackClient): Promise<any[]> {
  const res = await client.get('/api/products?limit=100&sortBy=name&sortOrder=asc');
  return res.body.products;
}

describe('importing a CSV file: preview, confirm, and a second run that changes nothing', () => {
  let arroz: string;
  let azucar: string;
  let frijol: string;
  let previewBody: ImportPreviewResponse;

  // Row numbers are the file's (the header is row 1).
  const csv = [
    'Nombre,SKU,Precio,Descuento,Stock,Categoría,Descripción',
    'Café de Cobán 500 g,CAF-1,45.50,10,24,Bebidas,"Tostado, molido"', // 2 new
    'Té verde,TEA-1,Q12.00,,3,bebidas,', // 3 new, same new category written otherwise
    'Arroz blanco 1 lb,ARZ-1,11.00,,30,Granos,', // 4 update: name, price, stock up, new category
    ',AZU-1,,,4,,', // 5 update: only the stock, down
    'Frijol negro,,12,,5,,', // 6 matched by name: nothing changes
    'Leche entera,LEC-1,,,10,,', // 7 new without a price
    'Queso fresco,QUE-1,abc,,2,,', // 8 a price that is not a number
    'Crema,CRE-1,15,,2.5,,', // 9 a stock that is not whole
    'Mantequilla,MAN-1,20,150,1,,', // 10 a discount above 100
    'Café otra vez,CAF-1,40,,1,,', // 11 repeats row 2's SKU
    ',,9.99,,1,,', // 12 neither name nor SKU
    ',,,,,,', // an empty line: skipped
  ].join('\r\n');

  beforeAll(async () => {
    arroz = await createProduct(owner, { name: 'Arroz', sku: 'ARZ-1', price: 10, stock: 20 });
    azucar = await createProduct(owner, { name: 'Azúcar', sku: 'AZU-1', price: 8, stock: 10 });
    frijol = await createProduct(owner, { name: 'Frijol negro', price: 12, stock: 5 });
  });

  it('previews every row as new, update, unchanged or error with its Spanish reason, and writes nothing', async () => {
    const before = { catalog: await eventCount('catalog'), inventory: await eventCount('inventory') };
    const res = await preview(owner, csv);
    expect(res.status).toBe(200);
    previewBody = ImportPreviewResponse.parse(res.body);
    expect(previewBody).toMatchObject({ fileName: 'productos.csv', format: 'csv', totalRows: 11, summary: { new: 2, update: 2, unchanged: 1, error: 6 } });
    expect(previewBody.newCategories).toEqual(['Bebidas', 'Granos']);
    const byRow = new Map(previewBody.rows.map((r) => [r.row, r]));
    expect(byRow.get(2)).toMatchObject({ status: 'new', name: 'Café de Cobán 500 g', sku: 'CAF-1', price: 45.5, discountPercentage: 10, stock: 24, category: 'Bebidas', description: 'Tostado, molido' });
    expect(byRow.get(3)).toMatchObject({ status: 'new', price: 12, stock: 3 });
    expect(byRow.get(4)).toMatchObject({ status: 'update', productId: arroz });
    expect(byRow.get(4)!.changes).toEqual([
      { field: 'Nombre', from: 'Arroz', to: 'Arroz blanco 1 lb' },
      { field: 'Precio', from: 'Q10.00', to: 'Q11.00' },
      { field: 'Stock', from: '20', to: '30' },
      { field: 'Categoría', from: 'Sin categoría', to: 'Granos' },
    ]);
    expect(byRow.get(5)).toMatchObject({ status: 'update', productId: azucar, changes: [{ field: 'Stock', from: '10', to: '4' }] });
    expect(byRow.get(6)).toMatchObject({ status: 'unchanged', productId: frijol, changes: [] });
    expect(byRow.get(7)).toMatchObject({ status: 'error', errors: [ImportMessages.priceRequired] });
    expect(byRow.get(8)).toMatchObject({ status: 'error', errors: [ImportMessages.priceInvalid] });
    expect(byRow.get(9)).toMatchObject({ status: 'error', errors: [ImportMessages.stockInvalid] });
    expect(byRow.get(10)).toMatchObject({ status: 'error', errors: [ImportMessages.discountInvalid] });
    expect(byRow.get(11)).toMatchObject({ status: 'error', errors: ['El SKU «CAF-1» se repite en el archivo (fila 2).'] });
    expect(byRow.get(12)).toMatchObject({ status: 'error', errors: [ImportMessages.nameRequired] });
    expect(byRow.has(13)).toBe(false);
    expect({ catalog: await eventCount('catalog'), inventory: await eventCount('inventory') }).toEqual(before);
  });

  it('confirming creates and updates through the commands; the list, categories, price history and stock ledger show it', async () => {
    const importId = randomUUID();
    const results = await confirm(owner, previewBody.rows, importId);
    expect(results.map((r) => [r.row, r.status])).toEqual([
      [2, 'created'],
      [3, 'created'],
      [4, 'updated'],
      [5, 'updated'],
      [6, 'unchanged'],
    ]);
    // Answered once the product list shows it: no waiting here.
    const products = await allProducts(owner);
    expect(products.map((p) => [p.name, p.sku, p.price, p.discountPercentage, p.stock, p.categoryName])).toEqual([
      ['Arroz blanco 1 lb', 'ARZ-1', 11, 0, 30, 'Granos'],
      ['Azúcar', 'AZU-1', 8, 0, 4, null],
      ['Café de Cobán 500 g', 'CAF-1', 45.5, 10, 24, 'Bebidas'],
      ['Frijol negro', null, 12, 0, 5, null],
      ['Té verde', 'TEA-1', 12, 0, 3, 'Bebidas'],
    ]);
    const categories = (await owner.get('/api/categories')).body.map((c: any) => c.name);
    expect(categories).toEqual(['Bebidas', 'Granos']);
    const prices = (await owner.get(`/api/products/${arroz}/price-history`)).body;
    expect(prices[0]).toMatchObject({ oldPrice: 10, newPrice: 11, changeReason: 'Importación de productos', changedByName: 'Rosa Ixcot' });

    // Stock changes are inventory's: a restock up, a correction down, named as an import by the owner.
    const arrozLedger = await eventually(
      () => owner.get(`/api/inventory/history/${arroz}`),
      (r) => Array.isArray(r.body) && r.body.length >= 2,
    );
    expect(arrozLedger.body[0]).toMatchObject({ kind: 'adjustment', adjustmentType: 'restock', oldStock: 20, newStock: 30, adjustment: 10, reason: 'Importación de productos', adjustedBy: 'Rosa Ixcot' });
    const azucarLedger = await eventually(
      () => owner.get(`/api/inventory/history/${azucar}`),
      (r) => Array.isArray(r.body) && r.body.length >= 2,
    );
    expect(azucarLedger.body[0]).toMatchObject({ adjustmentType: 'correction', oldStock: 10, newStock: 4, adjustment: -6 });
    const cafe = products.find((p) => p.sku === 'CAF-1');
    const cafeStock = await eventually(
      () => owner.get('/api/inventory'),
      (r) => r.body.some((p: any) => p.id === cafe.id),
    );
    expect(cafeStock.body.find((p: any) => p.id === cafe.id)).toMatchObject({ stock: 24, categoryName: 'Bebidas' });

    // A chunk sent again (a retry after a lost answer) creates and records nothing more.
    const before = { catalog: await eventCount('catalog'), inventory: await eventCount('inventory') };
    const again = await confirm(owner, previewBody.rows, importId);
    expect(again.map((r) => r.status)).toEqual(['unchanged', 'unchanged', 'unchanged', 'unchanged', 'unchanged']);
    expect({ catalog: await eventCount('catalog'), inventory: await eventCount('inventory') }).toEqual(before);
    expect(await allProducts(owner)).toHaveLength(5);
  });

  it('a second run of the same file finds nothing to change and writes nothing', async () => {
    const before = { catalog: await eventCount('catalog'), inventory: await eventCount('inventory') };
    const res = await preview(owner, csv);
    const second = ImportPreviewResponse.parse(res.body);
    expect(second.summary).toEqual({ new: 0, update: 0, unchanged: 5, error: 6 });
    expect(second.newCategories).toEqual([]);
    const results = await confirm(owner, second.rows);
    expect(results.every((r) => r.status === 'unchanged')).toBe(true);
    expect({ catalog: await eventCount('catalog'), inventory: await eventCount('inventory') }).toEqual(before);
    expect(await allProducts(owner)).toHaveLength(5);
  });

  it("another store's import never sees or touches this store's products", async () => {
    const res = await preview(other, 'Nombre,SKU,Precio,Stock\nArroz de otra tienda,ARZ-1,9,1\n');
    expect(ImportPreviewResponse.parse(res.body).rows[0]).toMatchObject({ status: 'new', productId: null });
    await confirm(other, res.body.rows);
    expect((await allProducts(other)).map((p) => p.name)).toEqual(['Arroz de otra tienda']);
    expect((await allProducts(owner)).find((p) => p.sku === 'ARZ-1')).toMatchObject({ name: 'Arroz blanco 1 lb', price: 11 });
  });
});

describe('Excel files and the template', () => {
  it('the template downloads as Excel and CSV with the columns and one example row, and imports as is', async () => {
    const xlsx = await owner.get('/api/products/import/template?format=xlsx');
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers.get('content-type')).toBe(XLSX_TYPE);
    expect(xlsx.headers.get('content-disposition')).toBe('attachment; filename="plantilla-productos.xlsx"');
    const bytes = Buffer.from(await (await fetch(`${stack.url}/api/products/import/template?format=xlsx`, { headers: { cookie: [...owner.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } })).arrayBuffer());
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as any);
    const sheet = workbook.worksheets[0];
    expect(sheet.name).toBe('Productos');
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual([...IMPORT_COLUMNS]);
    expect(sheet.rowCount).toBe(2);

    const csv = await owner.get('/api/products/import/template?format=csv');
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.text.replace(/^\uFEFF/, '').split('\r\n')[0]).toBe(IMPORT_COLUMNS.join(','));

    const fresh = stack.client();
    await registerAndLogin(fresh);
    for (const [file, name] of [
      [bytes, 'plantilla-productos.xlsx'],
      [Buffer.from(csv.text, 'utf8'), 'plantilla-productos.csv'],
    ] as const) {
      const p = ImportPreviewResponse.parse((await preview(fresh, file, name)).body);
      expect(p.rows).toEqual([
        expect.objectContaining({ status: 'new', name: 'Café de Cobán 500 g', sku: 'CAF-500', price: 45.5, discountPercentage: 10, stock: 24, category: 'Bebidas' }),
      ]);
    }
  });

  it('reads an .xlsx with numeric SKUs, formulas and prices as numbers or text', async () => {
    const client = stack.client();
    await registerAndLogin(client);
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Hoja1');
    sheet.addRow(['Producto', 'Código', 'Precio (Q)', 'Descuento (%)', 'Existencias', 'Categoria']);
    sheet.addRow(['Tortillas', 1001, 5, '5%', 40, 'Panadería']);
    sheet.addRow(['Pan dulce', 1002, { formula: 'B2*0+3.5', result: 3.5 }, 0, 12, 'Panadería']);
    sheet.addRow(['Champurradas', 'CH-1', 'Q 1,250.00', null, 0, null]);
    const file = Buffer.from(await workbook.xlsx.writeBuffer());
    const res = await preview(client, file, 'inventario.xlsx');
    expect(res.status).toBe(200);
    const body = ImportPreviewResponse.parse(res.body);
    expect(body.format).toBe('xlsx');
    expect(body.rows.map((r) => [r.row, r.status, r.name, r.sku, r.price, r.discountPercentage, r.stock, r.category])).toEqual([
      [2, 'new', 'Tortillas', '1001', 5, 5, 40, 'Panadería'],
      [3, 'new', 'Pan dulce', '1002', 3.5, 0, 12, 'Panadería'],
      [4, 'new', 'Champurradas', 'CH-1', 1250, undefined, 0, undefined],
    ]);
    expect((await confirm(client, body.rows)).map((r) => r.status)).toEqual(['created', 'created', 'created']);
    expect((await allProducts(client)).map((p) => [p.name, p.sku, p.price, p.stock])).toEqual([
      ['Champurradas', 'CH-1', 1250, 0],
      ['Pan dulce', '1002', 3.5, 12],
      ['Tortillas', '1001', 5, 40],
    ]);
  });
});

describe('files that cannot be imported are refused with a Spanish message, and nothing is written', () => {
  const refused = async (file: Buffer | string, message: string, fileName = 'archivo') => {
    const before = await eventCount('catalog');
    const res = await preview(owner, file, fileName);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect(await eventCount('catalog')).toBe(before);
  };

  it('an image is not a spreadsheet', async () => {
    await refused(await makeImage('png'), ImportMessages.notSpreadsheet, 'foto.csv');
  });

  it('a PDF is not a spreadsheet', async () => {
    await refused(Buffer.concat([Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1'), Buffer.from([0, 1, 2, 3, 0, 5, 6, 7])]), ImportMessages.notSpreadsheet, 'lista.pdf');
  });

  it('a Word document (a ZIP without a workbook) is not a spreadsheet', async () => {
    const docx = new ExcelJS.Workbook();
    docx.addWorksheet('x');
    const zip = Buffer.from(await docx.xlsx.writeBuffer());
    // The same ZIP with its workbook renamed away: a ZIP, but no spreadsheet in it.
    const renamed = Buffer.from(zip.toString('latin1').replaceAll('xl/workbook.xml', 'xl/document.xml'), 'latin1');
    await refused(renamed, ImportMessages.notSpreadsheet, 'carta.docx');
  });

  it('an old .xls file gets its own message', async () => {
    await refused(Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(512)]), ImportMessages.oldExcel, 'viejo.xls');
  });

  it('a text file without the columns, an empty file and a header without rows', async () => {
    await refused('Hola, esta es mi lista de compras\npan, leche\n', ImportMessages.missingColumns, 'notas.txt');
    await refused('', ImportMessages.noFile);
    await refused('Nombre,Precio\n', ImportMessages.noRows);
  });

  it('a JSON body is not a file', async () => {
    const res = await owner.post('/api/products/import/preview', { rows: [] });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(ImportMessages.notSpreadsheet);
  });

  it('more rows than the limit', async () => {
    const lines = ['Nombre,Precio', ...Array.from({ length: 5001 }, (_, i) => `P${i},1`)];
    await refused(lines.join('\n'), ImportMessages.tooManyRows);
  });

  it('a confirm without an import id or rows is refused', async () => {
    const res = await owner.post('/api/products/import', { rows: [] });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(ImportMessages.badRequest);
  });

  it('needs a session', async () => {
    expect((await preview(stack.client(), 'Nombre,Precio\nPan,1\n')).status).toBe(401);
    expect((await stack.client().get('/api/products/import/template')).status).toBe(401);
  });
});
