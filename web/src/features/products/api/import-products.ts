import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { IMPORT_CHUNK_ROWS, type ImportConfirmResponse, type ImportPreviewResponse, type ImportPreviewRow, type ImportRow } from '@tiendita/contracts';
import { apiJson } from '../../../lib/api';
import { categoryKeys, productKeys } from './keys';

/** GET /api/products/import/template?format=: the template, downloaded by a plain link (the session cookie goes with it). */
export const importTemplateUrl = (format: 'xlsx' | 'csv') => `/api/products/import/template?format=${format}`;

/**
 * POST /api/products/import/preview with the file as it is: the server judges it by its content
 * (CSV or .xlsx) and answers every row as new, update, unchanged or error. Sent as bytes so no
 * browser guess about the type (text/csv, application/vnd.ms-excel, '') changes how it is read.
 */
export function previewImport(file: File, signal?: AbortSignal): Promise<ImportPreviewResponse> {
  return apiJson<ImportPreviewResponse>('POST', `/api/products/import/preview?fileName=${encodeURIComponent(file.name)}`, {
    raw: file,
    contentType: 'application/octet-stream',
    signal,
  });
}

/** The row as the confirm call takes it: the preview's checked values without its verdict. */
export function importRowOf({ status: _status, productId: _productId, changes: _changes, errors: _errors, ...row }: ImportPreviewRow): ImportRow {
  return row;
}

/** POST /api/products/import: one chunk of rows; the same importId again creates nothing twice. */
export function confirmImportChunk(importId: string, rows: ImportRow[]): Promise<ImportConfirmResponse> {
  return apiJson<ImportConfirmResponse>('POST', '/api/products/import', { json: { importId, rows } });
}

/** Largest JSON body of one confirm call: the gateway takes up to 1 MB, and long descriptions add up. */
const CHUNK_BYTES = 600_000;

/** The rows in chunks of at most IMPORT_CHUNK_ROWS rows and about CHUNK_BYTES of JSON. */
export function importChunks(rows: ImportRow[]): ImportRow[][] {
  const chunks: ImportRow[][] = [];
  let current: ImportRow[] = [];
  let bytes = 0;
  for (const row of rows) {
    const size = JSON.stringify(row).length * 2;
    if (current.length > 0 && (current.length >= IMPORT_CHUNK_ROWS || bytes + size > CHUNK_BYTES)) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(row);
    bytes += size;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/**
 * Applies the preview's importable rows in chunks, reporting the rows done after each one, then
 * refreshes the product and category lists (and inventory's, whose stock the import changed).
 */
export function useRunImport() {
  const queryClient = useQueryClient();
  return useCallback(
    async (importId: string, rows: ImportRow[], onProgress: (done: number, results: ImportConfirmResponse['results']) => void) => {
      const results: ImportConfirmResponse['results'] = [];
      try {
        for (const chunk of importChunks(rows)) {
          const answer = await confirmImportChunk(importId, chunk);
          results.push(...answer.results);
          onProgress(results.length, results);
        }
        return results;
      } finally {
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: productKeys.all }),
          queryClient.invalidateQueries({ queryKey: categoryKeys.all }),
          queryClient.invalidateQueries({ queryKey: ['/api/inventory'] }),
        ]);
      }
    },
    [queryClient],
  );
}
