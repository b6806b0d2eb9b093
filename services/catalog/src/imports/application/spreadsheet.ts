import { ImportMessages } from '@tiendita/contracts';
import { ValidationError } from '@tiendita/eventsourcing';
import ExcelJS from 'exceljs';

/** A cell as the import reads it: text (CSV, or an Excel text cell), a number, a boolean, or empty. */
export type Cell = string | number | boolean | null;

/** The sheet's rows, each with its number in the file (1-based, as a spreadsheet shows it). */
export interface Sheet {
  format: 'csv' | 'xlsx';
  rows: { number: number; cells: Cell[] }[];
}

/** Largest sum of uncompressed sizes inside an .xlsx: a 5,000-row sheet is a few MB; more is a zip bomb or not a product list. */
const MAX_XLSX_UNCOMPRESSED = 100 * 1024 * 1024;

const refuse = (message: string): never => {
  throw new ValidationError(message, { fields: { file: message } });
};

/**
 * Reads an uploaded file as a sheet, judging it by its content, not its name or declared type:
 * a ZIP holding xl/workbook.xml is Excel; an old Excel (OLE2) file is refused with its own message;
 * text without NUL bytes is CSV (UTF-8, or Windows-1252 as Excel saves CSV on Windows, with ',',
 * ';' or tab between cells); anything else is not a spreadsheet.
 */
export async function readSheet(file: Buffer): Promise<Sheet> {
  if (file.length === 0) refuse(ImportMessages.noFile);
  if (file.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) return { format: 'xlsx', rows: await readXlsx(file) };
  if (file.subarray(0, 8).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))) refuse(ImportMessages.oldExcel);
  const text = decodeText(file);
  if (text === null) return refuse(ImportMessages.notSpreadsheet);
  return { format: 'csv', rows: parseCsv(text) };
}

/** The file as text, or null when it is not text (NUL bytes, or control characters a CSV never holds). */
function decodeText(file: Buffer): string | null {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(file);
  } catch {
    text = new TextDecoder('windows-1252').decode(file);
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  // Text files hold tabs and line ends; images, PDFs and other binaries hold other control bytes.
  const sample = text.slice(0, 64 * 1024);
  let control = 0;
  for (let i = 0; i < sample.length; i++) {
    const c = sample.charCodeAt(i);
    if (c === 0) return null;
    if (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) control++;
  }
  return control > sample.length / 100 ? null : text;
}

/** The delimiter of the header line: whichever of , ; and tab appears most outside quotes. */
function detectDelimiter(text: string): string {
  const counts = new Map<string, number>([
    [',', 0],
    [';', 0],
    ['\t', 0],
  ]);
  let quoted = false;
  for (const ch of text.slice(0, 8192)) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && counts.has(ch)) counts.set(ch, counts.get(ch)! + 1);
  }
  const [best, times] = [...counts].sort((a, b) => b[1] - a[1])[0];
  return times > 0 ? best : ',';
}

/** RFC 4180 CSV: quoted cells may hold the delimiter, "" and line breaks; CRLF or LF rows. */
export function parseCsv(text: string): Sheet['rows'] {
  const delimiter = detectDelimiter(text);
  const rows: Sheet['rows'] = [];
  let cells: Cell[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  const endCell = () => {
    cells.push(cell);
    cell = '';
  };
  const endRow = () => {
    endCell();
    if (cells.some((c) => c !== '')) rows.push({ number: rowLine, cells });
    cells = [];
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i++;
        } else quoted = false;
      } else {
        if (ch === '\n') line++;
        cell += ch;
      }
    } else if (ch === '"' && cell === '') quoted = true;
    else if (ch === delimiter) endCell();
    else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      endRow();
      line++;
      rowLine = line;
    } else cell += ch;
  }
  if (cell !== '' || cells.length > 0) endRow();
  return rows;
}

/** Names and total uncompressed size of a ZIP's entries, from its central directory (nothing is inflated). */
function zipEntries(file: Buffer): { names: string[]; uncompressed: number } | null {
  const EOCD = 0x06054b50;
  let eocd = -1;
  for (let i = file.length - 22; i >= Math.max(0, file.length - 22 - 65_535); i--) {
    if (file.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return null;
  const count = file.readUInt16LE(eocd + 10);
  let offset = file.readUInt32LE(eocd + 16);
  const names: string[] = [];
  let uncompressed = 0;
  for (let n = 0; n < count; n++) {
    if (offset + 46 > file.length || file.readUInt32LE(offset) !== 0x02014b50) return null;
    const size = file.readUInt32LE(offset + 24);
    const nameLength = file.readUInt16LE(offset + 28);
    const extraLength = file.readUInt16LE(offset + 30);
    const commentLength = file.readUInt16LE(offset + 32);
    // 0xFFFFFFFF: a ZIP64 size, far beyond any product list.
    uncompressed += size === 0xffffffff ? Number.MAX_SAFE_INTEGER : size;
    names.push(file.toString('utf8', offset + 46, offset + 46 + nameLength));
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return { names, uncompressed };
}

/** A cell of exceljs as the import reads it (formulas give their result, rich text its text). */
function cellValue(value: ExcelJS.CellValue): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((p) => p.text).join('');
    if ('result' in value) return cellValue((value.result ?? null) as ExcelJS.CellValue);
    if ('text' in value && typeof value.text === 'string') return value.text;
    if ('error' in value) return null;
  }
  return null;
}

async function readXlsx(file: Buffer): Promise<Sheet['rows']> {
  const entries = zipEntries(file);
  // A ZIP that is not a workbook (a .docx, a folder of photos) is not a spreadsheet.
  if (!entries || !entries.names.includes('xl/workbook.xml')) return refuse(ImportMessages.notSpreadsheet);
  if (entries.uncompressed > MAX_XLSX_UNCOMPRESSED) return refuse(ImportMessages.tooLarge);
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(file as unknown as ExcelJS.Buffer);
  } catch {
    return refuse(ImportMessages.unreadableExcel);
  }
  const sheet = workbook.worksheets.find((w) => w.state === 'visible') ?? workbook.worksheets[0];
  if (!sheet) return refuse(ImportMessages.noRows);
  const rows: Sheet['rows'] = [];
  sheet.eachRow({ includeEmpty: false }, (row, number) => {
    const cells: Cell[] = [];
    row.eachCell({ includeEmpty: true }, (cell, column) => {
      cells[column - 1] = cellValue(cell.value);
    });
    for (let i = 0; i < cells.length; i++) if (cells[i] === undefined) cells[i] = null;
    if (cells.some((c) => c !== null && c !== '')) rows.push({ number, cells });
  });
  return rows;
}
