import { ImportMessages, MAX_IMPORT_ROWS } from '@tiendita/contracts';
import { ValidationError } from '@tiendita/eventsourcing';
import { readXlsxInWorker } from './sheet-worker';
import type { Cell } from './xlsx-reader';

export type { Cell };

/** The sheet's rows, each with its number in the file (1-based, as a spreadsheet shows it). */
export interface Sheet {
  format: 'csv' | 'xlsx';
  rows: { number: number; cells: Cell[] }[];
}

/** Rows a reader keeps at most: the header, the limit's rows, and one more to tell that the file has too many. */
export const SHEET_ROWS_READ = MAX_IMPORT_ROWS + 2;

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
  if (file.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) return { format: 'xlsx', rows: await readXlsxInWorker(file, SHEET_ROWS_READ) };
  if (file.subarray(0, 8).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))) refuse(ImportMessages.oldExcel);
  const text = decodeText(file);
  if (text === null) return refuse(ImportMessages.notSpreadsheet);
  return { format: 'csv', rows: parseCsv(text, SHEET_ROWS_READ) };
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

/**
 * RFC 4180 CSV: quoted cells may hold the delimiter, "" and line breaks; CRLF or LF rows. Stops
 * once `maxRows` non-empty rows are read (a 2,000,001-row file costs what 5,002 rows do).
 */
export function parseCsv(text: string, maxRows = Number.POSITIVE_INFINITY): Sheet['rows'] {
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
  for (let i = 0; i < text.length && rows.length < maxRows; i++) {
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
  if (rows.length < maxRows && (cell !== '' || cells.length > 0)) endRow();
  return rows;
}
