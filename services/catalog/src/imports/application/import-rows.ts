import { ImportMessages, type ImportRow, MAX_IMPORT_ROWS } from '@tiendita/contracts';
import { ValidationError } from '@tiendita/eventsourcing';
import type { Cell, Sheet } from './spreadsheet';

export type ImportField = 'name' | 'sku' | 'price' | 'discountPercentage' | 'stock' | 'category' | 'description';

/** Header texts each field answers to, compared without accents, case, spaces or a "(Q)"-style note. */
const HEADERS: Record<ImportField, string[]> = {
  name: ['nombre', 'name', 'producto', 'nombredelproducto'],
  sku: ['sku', 'codigo', 'code', 'codigodeproducto'],
  price: ['precio', 'price', 'preciounitario', 'precioq'],
  discountPercentage: ['descuento', 'discount', 'discountpercentage', 'porcentajededescuento'],
  stock: ['stock', 'existencias', 'cantidad', 'inventario', 'unidades'],
  category: ['categoria', 'category', 'categoryname'],
  description: ['descripcion', 'description'],
};

/** A header cell reduced to plain lowercase letters and digits: "Categoría" → "categoria", "Precio (Q)" → "precio". */
export function headerKey(cell: Cell): string {
  return String(cell ?? '')
    .replace(/\(.*?\)/g, '')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

/** A row read from the file: the checked values it had, and what was wrong with it. */
export interface ParsedRow {
  row: ImportRow;
  errors: string[];
}

/**
 * The sheet's first row names the columns; each later row is one product. Unknown columns are
 * ignored. Throws a 400 with the Spanish reason when the file as a whole cannot be imported.
 */
export function parseRows(sheet: Sheet): ParsedRow[] {
  const [header, ...data] = sheet.rows;
  if (!header) throw new ValidationError(ImportMessages.noRows, { fields: { file: ImportMessages.noRows } });
  const columns = new Map<ImportField, number>();
  header.cells.forEach((cell, index) => {
    const key = headerKey(cell);
    const field = (Object.keys(HEADERS) as ImportField[]).find((f) => HEADERS[f].includes(key));
    if (field && !columns.has(field)) columns.set(field, index);
  });
  if (!columns.has('name') && !columns.has('sku')) throw new ValidationError(ImportMessages.missingColumns, { fields: { file: ImportMessages.missingColumns } });
  if (data.length === 0) throw new ValidationError(ImportMessages.noRows, { fields: { file: ImportMessages.noRows } });
  if (data.length > MAX_IMPORT_ROWS) {
    const message = ImportMessages.tooManyRows;
    throw new ValidationError(message, { fields: { file: message } });
  }
  const parsed: ParsedRow[] = [];
  for (const { number, cells } of data) {
    const get = (f: ImportField): Cell => (columns.has(f) ? (cells[columns.get(f)!] ?? null) : null);
    // A row whose known columns are all empty (notes beside the table, a spacer) is not a product.
    if ([...columns.keys()].every((f) => isEmpty(get(f)))) continue;
    parsed.push(parseRow(number, get));
  }
  if (parsed.length === 0) throw new ValidationError(ImportMessages.noRows, { fields: { file: ImportMessages.noRows } });
  return parsed;
}

const isEmpty = (cell: Cell): boolean => cell === null || (typeof cell === 'string' && cell.trim() === '');

/** Text of a cell: numbers as written (a numeric SKU stays "1001"), whitespace collapsed at the ends. */
function textOf(cell: Cell): string | undefined {
  if (isEmpty(cell)) return undefined;
  return String(cell).trim();
}

/**
 * A number as owners write it: 25.50, Q25.50, Q 1,250.00, 1.250,50 or 25,50 (decimal comma), 15%.
 * Answers undefined for an empty cell and NaN for something that is not a number.
 */
export function numberOf(cell: Cell, options: { percent?: boolean } = {}): number | undefined {
  if (cell === null || isEmpty(cell)) return undefined;
  if (typeof cell === 'number') return cell;
  if (typeof cell === 'boolean') return Number.NaN;
  let s = cell.trim().replace(/\s+/g, '');
  s = s.replace(/^(GTQ|Q)/i, '');
  if (options.percent) s = s.replace(/%$/, '');
  if (/^-?\d{1,3}(,\d{3})+(\.\d+)?$/.test(s)) s = s.replace(/,/g, '');
  else if (/^-?\d{1,3}(\.\d{3})+,\d+$/.test(s)) s = s.replace(/\./g, '').replace(',', '.');
  else if (/^-?\d+,\d{1,2}$/.test(s)) s = s.replace(',', '.');
  if (!/^-?\d+(\.\d+)?$/.test(s)) return Number.NaN;
  return Number(s);
}

const hasMoreThanTwoDecimals = (n: number): boolean => Math.abs(n * 100 - Math.round(n * 100)) > 1e-6;
const round2 = (n: number): number => Math.round(n * 100) / 100;

function parseRow(number: number, get: (f: ImportField) => Cell): ParsedRow {
  const errors: string[] = [];
  const row: ImportRow = { row: number };

  const name = textOf(get('name'));
  if (name !== undefined) {
    if (name.length > 255) errors.push(ImportMessages.nameTooLong);
    else row.name = name;
  }
  const sku = textOf(get('sku'));
  if (sku !== undefined) {
    if (sku.length > 100) errors.push(ImportMessages.skuTooLong);
    else row.sku = sku;
  }
  const price = numberOf(get('price'));
  if (price !== undefined) {
    if (!Number.isFinite(price) || price < 0 || price > 99_999_999.99) errors.push(ImportMessages.priceInvalid);
    else if (hasMoreThanTwoDecimals(price)) errors.push(ImportMessages.priceDecimals);
    else row.price = round2(price);
  }
  const discount = numberOf(get('discountPercentage'), { percent: true });
  if (discount !== undefined) {
    if (!Number.isFinite(discount) || discount < 0 || discount > 100) errors.push(ImportMessages.discountInvalid);
    else row.discountPercentage = round2(discount);
  }
  const stock = numberOf(get('stock'));
  if (stock !== undefined) {
    if (!Number.isInteger(stock) || stock < 0 || stock > 1_000_000) errors.push(ImportMessages.stockInvalid);
    else row.stock = stock;
  }
  const category = textOf(get('category'));
  if (category !== undefined) {
    if (category.length > 100) errors.push(ImportMessages.categoryTooLong);
    else row.category = category;
  }
  const description = textOf(get('description'));
  if (description !== undefined) {
    if (description.length > 5000) errors.push(ImportMessages.descriptionTooLong);
    else row.description = description;
  }
  return { row, errors };
}
