import { FEL_DOCUMENT_TYPE_LABELS, FEL_STATUS_LABELS } from '@tiendita/contracts';
import ExcelJS from 'exceljs';
import type { DocumentRow } from './documents.service';
import { satDateTime } from './dte-xml';

const Q_FORMAT = '"Q"#,##0.00';
const HEADERS = ['Fecha', 'Tipo', 'Serie', 'Número', 'Autorización', 'NIT receptor', 'Nombre receptor', 'Total', 'IVA', 'Estado'] as const;

/** One line of the accountant's monthly book: date (Guatemala), type, series, number, authorisation, receiver, total, IVA, status. */
function bookLine(row: DocumentRow): (string | number)[] {
  return [
    satDateTime(row.issued_at).slice(0, 19).replace('T', ' '),
    FEL_DOCUMENT_TYPE_LABELS[row.document_type],
    row.series ?? '',
    row.number ?? '',
    row.authorization_uuid ?? '',
    row.receiver_id,
    row.receiver_name,
    Number(row.total) / 100,
    Number(row.vat) / 100,
    FEL_STATUS_LABELS[row.status],
  ];
}

/** The month's documents as a spreadsheet (one sheet, totals formatted in quetzales). */
export async function monthlyBookXlsx(rows: DocumentRow[], month: string): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet(`Facturas ${month}`);
  sheet.columns = HEADERS.map((header, i) => ({ header, key: String(i), width: [20, 30, 12, 14, 38, 16, 30, 14, 12, 14][i], ...(i === 7 || i === 8 ? { style: { numFmt: Q_FORMAT } } : {}) }));
  sheet.getRow(1).font = { bold: true };
  for (const row of rows) sheet.addRow(bookLine(row));
  return Buffer.from(await wb.xlsx.writeBuffer());
}

function csvCell(value: string | number): string {
  const text = typeof value === 'number' ? value.toFixed(2) : value;
  return /[",\n\r;]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The month's documents as CSV (UTF-8 with BOM, so spreadsheets read the accents). */
export function monthlyBookCsv(rows: DocumentRow[]): string {
  return `\uFEFF${[HEADERS as readonly string[], ...rows.map(bookLine)].map((line) => line.map(csvCell).join(',')).join('\r\n')}\r\n`;
}
