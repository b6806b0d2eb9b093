import { ImportMessages } from '@tiendita/contracts';
import { headerKey, numberOf, parseRows } from './import-rows';
import { parseCsv } from './spreadsheet';

describe('reading an import file', () => {
  it('reads quoted CSV cells with commas, quotes and line breaks, and ; or tab as the separator', () => {
    expect(parseCsv('Nombre,Descripción\r\n"Pan, dulce","Dice ""hola""\nen dos líneas"\r\n').map((r) => [r.number, r.cells])).toEqual([
      [1, ['Nombre', 'Descripción']],
      [2, ['Pan, dulce', 'Dice "hola"\nen dos líneas']],
    ]);
    expect(parseCsv('Nombre;Precio\nPan;1,50\n').map((r) => r.cells)).toEqual([
      ['Nombre', 'Precio'],
      ['Pan', '1,50'],
    ]);
    expect(parseCsv('Nombre\tPrecio\nPan\t2\n')[1].cells).toEqual(['Pan', '2']);
  });

  it('keeps the file row numbers when blank lines are skipped', () => {
    expect(parseCsv('Nombre,Precio\n\nPan,1\n,\nLeche,2').map((r) => r.number)).toEqual([1, 3, 5]);
  });

  it('matches headers without accents, case or notes in brackets', () => {
    expect(['Categoría', 'PRECIO (Q)', ' Descripción ', 'Código'].map(headerKey)).toEqual(['categoria', 'precio', 'descripcion', 'codigo']);
  });

  it('reads numbers as owners write them', () => {
    expect(['25.50', 'Q25.50', 'Q 1,250.00', '1.250,50', '25,50', '1,250', 'GTQ 3'].map((s) => numberOf(s))).toEqual([25.5, 25.5, 1250, 1250.5, 25.5, 1250, 3]);
    expect(numberOf('15%', { percent: true })).toBe(15);
    for (const bad of ['abc', '1e5', '12..5', 'Q', '15%']) expect(numberOf(bad)).toBeNaN();
    expect(numberOf('   ')).toBeUndefined();
  });

  it('checks each row and reports every problem of it in Spanish', () => {
    const rows = parseRows({
      format: 'csv',
      rows: parseCsv('Nombre,Precio,Descuento,Stock\nPan,1.999,-1,3.5\nLeche,2,5,4\n'),
    });
    expect(rows).toEqual([
      { row: { row: 2, name: 'Pan' }, errors: [ImportMessages.priceDecimals, ImportMessages.discountInvalid, ImportMessages.stockInvalid] },
      { row: { row: 3, name: 'Leche', price: 2, discountPercentage: 5, stock: 4 }, errors: [] },
    ]);
  });

  it('refuses a file without the Nombre or SKU column', () => {
    expect(() => parseRows({ format: 'csv', rows: parseCsv('Precio,Stock\n1,2\n') })).toThrow(ImportMessages.missingColumns);
  });
});
