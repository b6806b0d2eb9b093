import type { inflateRawSync as InflateRawSync } from 'node:zlib';

/** A cell as the import reads it: text (CSV, or an Excel text cell), a number, a boolean, or empty. */
export type Cell = string | number | boolean | null;

/** Rows of a sheet, each with its number in the file (1-based, as a spreadsheet shows it). */
export type SheetRows = { number: number; cells: Cell[] }[];

/** Why a workbook could not be read; the caller turns each into its Spanish message. */
export type XlsxFailure = 'notSpreadsheet' | 'inflatedTooLarge' | 'unreadable';

/** Limits of one read: bytes inflated in all (actually produced, not declared), non-empty rows kept. */
export interface XlsxLimits {
  maxInflatedBytes: number;
  maxRows: number;
}

/**
 * Reads the first visible sheet of an .xlsx without trusting any size the ZIP declares: only the
 * entries the sheet needs are inflated (workbook, its relations, shared strings, the sheet), each
 * with what is left of `maxInflatedBytes` as zlib's output bound, so a zip bomb stops at the cap
 * after producing at most that many bytes. Rows are scanned one after the other and the scan stops
 * once `maxRows` non-empty rows are kept (the caller passes its row limit + 2: the header and one
 * row too many). Columns past 256 are ignored: a product list has seven.
 *
 * Self-contained on purpose (no imports, helpers inside): it runs in a worker thread from its own
 * source text (see sheet-worker.ts), with zlib's inflateRawSync passed in.
 */
export function readXlsxRows(file: Uint8Array, limits: XlsxLimits, inflateRawSync: typeof InflateRawSync): { rows: SheetRows } | { failure: XlsxFailure } {
  const MAX_COLUMNS = 256;
  const buf = Buffer.from(file.buffer, file.byteOffset, file.byteLength);
  class Failure {
    constructor(readonly reason: XlsxFailure) {}
  }
  const fail = (reason: XlsxFailure): never => {
    throw new Failure(reason);
  };

  // The central directory: name → where its data is, how it is stored.
  const entries = new Map<string, { offset: number; compressed: number; method: number; flags: number }>();
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 65_535); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  let budget = limits.maxInflatedBytes;
  const xmlOf = (name: string): string | null => {
    const entry = entries.get(name);
    if (!entry) return null;
    if (entry.flags & 1) fail('unreadable'); // encrypted
    const at = entry.offset;
    if (at + 30 > buf.length || buf.readUInt32LE(at) !== 0x04034b50) fail('unreadable');
    const start = at + 30 + buf.readUInt16LE(at + 26) + buf.readUInt16LE(at + 28);
    const data = buf.subarray(start, Math.min(buf.length, start + entry.compressed));
    let out: Buffer;
    if (entry.method === 0) out = data;
    else if (entry.method === 8) {
      try {
        out = inflateRawSync(data, { maxOutputLength: Math.max(1, budget) });
      } catch (error) {
        return fail((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' ? 'inflatedTooLarge' : 'unreadable');
      }
    } else return fail('unreadable');
    budget -= out.length;
    if (budget < 0) fail('inflatedTooLarge');
    return out.toString('utf8');
  };
  const decode = (s: string): string =>
    s.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_m, e: string) => {
      const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
      if (e[0] !== '#') return named[e.toLowerCase()];
      const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    });
  const attr = (tag: string, name: string): string | null => {
    const m = new RegExp(`\\s${name}\\s*=\\s*"([^"]*)"`).exec(tag);
    return m ? decode(m[1]) : null;
  };
  // Text of the <t> elements inside (rich text runs joined; phonetic guides left out).
  const textOf = (inner: string): string => {
    let text = '';
    const t = /<(?:\w+:)?t(?:\s[^>]*)?(?:\/>|>([\s\S]*?)<\/(?:\w+:)?t>)/g;
    const runs = inner.replace(/<(?:\w+:)?rPh\b[\s\S]*?<\/(?:\w+:)?rPh>/g, '');
    for (let m = t.exec(runs); m; m = t.exec(runs)) text += decode(m[1] ?? '');
    return text;
  };

  try {
    if (eocd < 0) return { failure: 'notSpreadsheet' };
    let offset = buf.readUInt32LE(eocd + 16);
    for (let n = buf.readUInt16LE(eocd + 10); n > 0; n--) {
      if (offset + 46 > buf.length || buf.readUInt32LE(offset) !== 0x02014b50) return { failure: 'notSpreadsheet' };
      const nameLength = buf.readUInt16LE(offset + 28);
      const name = buf.toString('utf8', offset + 46, offset + 46 + nameLength);
      entries.set(name, { offset: buf.readUInt32LE(offset + 42), compressed: buf.readUInt32LE(offset + 20), method: buf.readUInt16LE(offset + 10), flags: buf.readUInt16LE(offset + 8) });
      offset += 46 + nameLength + buf.readUInt16LE(offset + 30) + buf.readUInt16LE(offset + 32);
    }
    // A ZIP that is not a workbook (a .docx, a folder of photos) is not a spreadsheet.
    const workbook = xmlOf('xl/workbook.xml');
    if (workbook === null) return { failure: 'notSpreadsheet' };

    // The first visible sheet (else the first), found through the workbook's relations.
    const targets = new Map<string, string>();
    const rels = xmlOf('xl/_rels/workbook.xml.rels') ?? '';
    for (const m of rels.matchAll(/<(?:\w+:)?Relationship\b[^>]*>/g)) {
      const id = attr(m[0], 'Id');
      const target = attr(m[0], 'Target');
      if (id && target) targets.set(id, target.startsWith('/') ? target.slice(1) : `xl/${target.replace(/^\.\//, '')}`);
    }
    const sheets = [...workbook.matchAll(/<(?:\w+:)?sheet\b[^>]*>/g)].map((m) => ({ state: attr(m[0], 'state'), path: targets.get(/\s\w+:id\s*=\s*"([^"]*)"/.exec(m[0])?.[1] ?? '') }));
    const chosen = sheets.find((s) => s.path && (s.state === null || s.state === 'visible')) ?? sheets.find((s) => s.path);
    const sheetPath = chosen?.path ?? [...entries.keys()].find((k) => /^xl\/worksheets\/sheet\d+\.xml$/.test(k));
    if (!sheetPath) return { rows: [] };

    const shared: string[] = [];
    const sst = xmlOf('xl/sharedStrings.xml');
    if (sst !== null) for (const m of sst.matchAll(/<(?:\w+:)?si(?:\s[^>]*)?(?:\/>|>([\s\S]*?)<\/(?:\w+:)?si>)/g)) shared.push(textOf(m[1] ?? ''));

    const sheet = xmlOf(sheetPath);
    if (sheet === null) return { failure: 'unreadable' };
    const rows: SheetRows = [];
    const rowPattern = /<(?:\w+:)?row\b([^>]*?)(?:\/>|>([\s\S]*?)<\/(?:\w+:)?row>)/g;
    const cellPattern = /<(?:\w+:)?c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/(?:\w+:)?c>)/g;
    let previousRow = 0;
    for (let r = rowPattern.exec(sheet); r && rows.length < limits.maxRows; r = rowPattern.exec(sheet)) {
      const number = Number(attr(r[1], 'r')) || previousRow + 1;
      previousRow = number;
      const cells: Cell[] = [];
      let column = -1;
      for (const c of (r[2] ?? '').matchAll(cellPattern)) {
        const ref = attr(c[1], 'r');
        const letters = ref ? /^[A-Z]+/i.exec(ref)?.[0] : undefined;
        column = letters ? [...letters.toUpperCase()].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1 : column + 1;
        if (column >= MAX_COLUMNS) continue;
        const inner = c[2] ?? '';
        const v = /<(?:\w+:)?v(?:\s[^>]*)?>([\s\S]*?)<\/(?:\w+:)?v>/.exec(inner);
        const raw = v ? decode(v[1]) : null;
        const type = attr(c[1], 't');
        let value: Cell = null;
        if (type === 'inlineStr') value = textOf(inner);
        else if (raw === null) value = null;
        else if (type === 's') value = shared[Number(raw)] ?? null;
        else if (type === 'str') value = raw;
        else if (type === 'b') value = raw === '1';
        else if (type === 'e') value = null;
        else value = raw.trim() === '' || !Number.isFinite(Number(raw)) ? raw : Number(raw);
        cells[column] = value;
      }
      for (let i = 0; i < cells.length; i++) if (cells[i] === undefined) cells[i] = null;
      if (cells.some((c) => c !== null && c !== '')) rows.push({ number, cells });
    }
    return { rows };
  } catch (error) {
    if (error instanceof Failure) return { failure: error.reason };
    return { failure: 'unreadable' };
  }
}
