import { IMPORT_COLUMNS } from '@tiendita/contracts';
import ExcelJS from 'exceljs';

/** The template's one example row, under IMPORT_COLUMNS. */
const EXAMPLE = ['Café de Cobán 500 g', 'CAF-500', 45.5, 10, 24, 'Bebidas', 'Café tostado y molido de Alta Verapaz.'] as const;

const NOTES = [
  'Una fila por producto. Solo Nombre y Precio son necesarios para un producto nuevo.',
  'Si el SKU ya existe en tu catálogo, la fila actualiza ese producto; una celda vacía deja su valor como está.',
  'Precio en quetzales (por ejemplo 45.50), Descuento en % de 0 a 100, Stock en unidades enteras.',
  'Las categorías que no existan se crean al importar.',
];

/** The CSV template: UTF-8 with a BOM (so Excel reads the accents), the header and the example row. */
export function templateCsv(): Buffer {
  const quote = (v: string | number) => (typeof v === 'number' ? String(v) : /[",\n;]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  const lines = [IMPORT_COLUMNS.map(quote).join(','), EXAMPLE.map(quote).join(',')];
  return Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`, 'utf8');
}

/** The Excel template: the Productos sheet (header and example row) first, then Instrucciones. */
export async function templateXlsx(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Tiendita';
  const sheet = workbook.addWorksheet('Productos');
  const widths = [32, 14, 12, 12, 10, 18, 48];
  sheet.columns = IMPORT_COLUMNS.map((header, i) => ({ header, width: widths[i] }));
  sheet.getRow(1).font = { bold: true };
  sheet.addRow([...EXAMPLE]);
  sheet.getColumn(2).numFmt = '@';
  sheet.getColumn(3).numFmt = '0.00';
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
  const help = workbook.addWorksheet('Instrucciones');
  help.getColumn(1).width = 100;
  help.addRow(['Cómo llenar la plantilla']).font = { bold: true, size: 14 };
  for (const note of NOTES) help.addRow([note]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
