import { ImportMessages } from '@tiendita/contracts';
import { ValidationError } from '@tiendita/eventsourcing';
import { Worker } from 'node:worker_threads';
import { type SheetRows, readXlsxRows, type XlsxFailure, type XlsxLimits } from './xlsx-reader';

/**
 * Limits of reading one .xlsx: bytes actually inflated (an honest 5,000-row list with long
 * descriptions is ~25 MB of XML), the worker's heap, and its time. Past any of them the preview is
 * refused with a Spanish 400 and the thread is gone with everything it held.
 */
export const SHEET_LIMITS = { maxInflatedBytes: 64 * 1024 * 1024, maxHeapMb: 256, timeoutMs: 15_000, nice: 10 };
/** Workbooks read at once by one catalog process; more wait their turn (each is CPU-bound). */
const MAX_PARALLEL = 2;

// The worker: the reader's own source (self-contained), run at a lower priority than the process's
// event loop, so shop reads keep their CPU while an owner's large file is read.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { inflateRawSync } = require('node:zlib');
if (workerData.nice > 0) {
  try {
    const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
    const os = require('node:os');
    os.setPriority(tid, Math.min(19, os.getPriority(tid) + workerData.nice));
  } catch {}
}
const readXlsxRows = ${readXlsxRows.toString()};
parentPort.postMessage(readXlsxRows(workerData.file, workerData.limits, inflateRawSync));`;

const MESSAGES: Record<XlsxFailure, string> = {
  notSpreadsheet: ImportMessages.notSpreadsheet,
  inflatedTooLarge: ImportMessages.tooMuchData,
  unreadable: ImportMessages.unreadableExcel,
};

const refuse = (message: string): never => {
  throw new ValidationError(message, { fields: { file: message } });
};

let running = 0;
const waiting: (() => void)[] = [];

/** Reads the .xlsx's first visible sheet in a worker thread with memory and time limits (see readXlsxRows). */
export async function readXlsxInWorker(file: Buffer, maxRows: number): Promise<SheetRows> {
  if (running >= MAX_PARALLEL) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    const limits: XlsxLimits = { maxInflatedBytes: SHEET_LIMITS.maxInflatedBytes, maxRows };
    const answer = await runWorker(file, limits);
    if ('failure' in answer) return refuse(MESSAGES[answer.failure]);
    return answer.rows;
  } finally {
    running--;
    waiting.shift()?.();
  }
}

function runWorker(file: Buffer, limits: XlsxLimits): Promise<{ rows: SheetRows } | { failure: XlsxFailure }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { file: new Uint8Array(file), limits, nice: SHEET_LIMITS.nice },
      resourceLimits: { maxOldGenerationSizeMb: SHEET_LIMITS.maxHeapMb, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
    });
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      fn();
    };
    const timer = setTimeout(() => settle(() => reject(new ValidationError(ImportMessages.tooSlow, { fields: { file: ImportMessages.tooSlow } }))), SHEET_LIMITS.timeoutMs);
    worker.on('message', (answer: { rows: SheetRows } | { failure: XlsxFailure }) => settle(() => resolve(answer)));
    // Out of memory (ERR_WORKER_OUT_OF_MEMORY) or any crash of the thread: the file holds too much to read.
    worker.on('error', () => settle(() => resolve({ failure: 'inflatedTooLarge' })));
    worker.on('exit', () => settle(() => resolve({ failure: 'unreadable' })));
  });
}
