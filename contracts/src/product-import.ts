import { z } from 'zod';
import { EventPosition } from './inventory';

// Bulk import of products from a CSV or Excel file (the Products page's Import button, issue 12).
// The file is read and checked by catalog (preview), then the rows the owner confirms are sent
// back in chunks and applied through the product and category commands and inventory's stock.

/** Most data rows one file may hold (below the header). */
export const MAX_IMPORT_ROWS = 5000;

/** Rows of one confirm call: the web client sends the preview's rows in chunks of this many. */
export const IMPORT_CHUNK_ROWS = 250;

/** The template's columns, in order, as the owner reads them (headers are matched without accents or case). */
export const IMPORT_COLUMNS = ['Nombre', 'SKU', 'Precio', 'Descuento', 'Stock', 'Categoría', 'Descripción'] as const;

/** Spanish messages of the import. */
export const ImportMessages = {
  noFile: 'Selecciona un archivo para importar.',
  notSpreadsheet: 'El archivo no es una hoja de cálculo. Sube un archivo CSV o Excel (.xlsx).',
  oldExcel: 'Los archivos de Excel 97-2003 (.xls) no se pueden leer. Guárdalo como .xlsx o CSV e inténtalo de nuevo.',
  unreadableExcel: 'No se pudo leer el archivo de Excel. Revisa que no esté dañado ni protegido con contraseña.',
  tooLarge: 'El archivo es demasiado grande: el máximo es 10 MB.',
  noRows: 'El archivo no tiene productos: agrega una fila por producto debajo de los encabezados.',
  // The file is read up to one row past the limit, so the message cannot name the file's count.
  tooManyRows: `El archivo tiene más de ${MAX_IMPORT_ROWS.toLocaleString('es-GT')} filas de productos; el máximo es ${MAX_IMPORT_ROWS.toLocaleString('es-GT')} por importación. Divídelo en varios archivos.`,
  tooMuchData: `El archivo de Excel tiene demasiados datos para importarlo. Divídelo en varios archivos de hasta ${MAX_IMPORT_ROWS.toLocaleString('es-GT')} productos.`,
  tooSlow: 'El archivo tardó demasiado en leerse. Divídelo en varios archivos más pequeños e inténtalo de nuevo.',
  previewRateLimited: 'Revisaste muchos archivos seguidos. Espera unos minutos antes de revisar otro.',
  missingColumns: `No encontramos las columnas del archivo. La primera fila debe tener sus nombres: ${IMPORT_COLUMNS.join(', ')} (descarga la plantilla). Se necesita al menos Nombre o SKU.`,
  nameRequired: 'Falta el nombre del producto.',
  priceRequired: 'Falta el precio.',
  nameTooLong: 'El nombre no puede tener más de 255 caracteres.',
  skuTooLong: 'El SKU no puede tener más de 100 caracteres.',
  priceInvalid: 'El precio debe ser un número mayor o igual a 0, por ejemplo 25.50.',
  priceDecimals: 'El precio admite hasta 2 decimales.',
  discountInvalid: 'El descuento debe ser un número entre 0 y 100.',
  stockInvalid: 'El stock debe ser un número entero mayor o igual a 0.',
  categoryTooLong: 'La categoría no puede tener más de 100 caracteres.',
  descriptionTooLong: 'La descripción no puede tener más de 5000 caracteres.',
  duplicateSku: (sku: string, row: number) => `El SKU «${sku}» se repite en el archivo (fila ${row}).`,
  duplicateName: (name: string, row: number) => `El producto «${name}» se repite en el archivo (fila ${row}).`,
  ambiguousSku: (sku: string, count: number) => `Hay ${count} productos con el SKU «${sku}» en tu catálogo; no sabemos cuál actualizar.`,
  ambiguousName: (name: string, count: number) => `Hay ${count} productos llamados «${name}» en tu catálogo; agrega su SKU al archivo para saber cuál actualizar.`,
  badRequest: 'Los datos de la importación no son válidos. Vuelve a cargar el archivo.',
  /** Reasons recorded with the stock changes and price changes an import makes. */
  stockReason: 'Importación de productos',
  priceReason: 'Importación de productos',
} as const;

/**
 * One data row as read from the file, checked and normalised (prices in quetzales). A field is
 * absent when its cell was empty: a new product takes the default, an update keeps its value.
 */
export const ImportRow = z.object({
  /** The row's number in the file (the header is row 1), for the owner to find it. */
  row: z.number().int().min(1),
  name: z.string().trim().min(1).max(255).optional(),
  sku: z.string().trim().min(1).max(100).optional(),
  price: z.number().min(0).max(99_999_999.99).optional(),
  discountPercentage: z.number().min(0).max(100).optional(),
  stock: z.number().int().min(0).max(1_000_000).optional(),
  category: z.string().trim().min(1).max(100).optional(),
  description: z.string().trim().min(1).max(5000).optional(),
});
export type ImportRow = z.infer<typeof ImportRow>;

export const ImportRowStatus = z.enum(['new', 'update', 'unchanged', 'error']);
export type ImportRowStatus = z.infer<typeof ImportRowStatus>;

/** One field an update changes: its name as the owner reads it, and the value before and after, as text. */
export const ImportChange = z.object({ field: z.string(), from: z.string(), to: z.string() });
export type ImportChange = z.infer<typeof ImportChange>;

/** One row of the preview: new, update (matched by SKU, or by name), unchanged, or error with its reasons. */
export const ImportPreviewRow = ImportRow.extend({
  status: ImportRowStatus,
  /** The product an update or unchanged row matched. */
  productId: z.string().uuid().nullable(),
  changes: z.array(ImportChange),
  errors: z.array(z.string()),
});
export type ImportPreviewRow = z.infer<typeof ImportPreviewRow>;

export const ImportSummary = z.object({
  new: z.number().int(),
  update: z.number().int(),
  unchanged: z.number().int(),
  error: z.number().int(),
});
export type ImportSummary = z.infer<typeof ImportSummary>;

/** POST /api/products/import/preview (the raw file as the body): nothing is written. */
export const ImportPreviewResponse = z.object({
  fileName: z.string().nullable(),
  format: z.enum(['csv', 'xlsx']),
  totalRows: z.number().int(),
  summary: ImportSummary,
  /** Categories the import would create, by name. */
  newCategories: z.array(z.string()),
  rows: z.array(ImportPreviewRow),
});
export type ImportPreviewResponse = z.infer<typeof ImportPreviewResponse>;

/**
 * POST /api/products/import: a chunk of the preview's rows to apply. `importId` (a uuid the client
 * makes for one preview) names the products it creates and the stock changes it records, so a
 * retried chunk creates and records nothing twice.
 */
export const ImportConfirmRequest = z.object({
  importId: z.string({ error: ImportMessages.badRequest }).uuid(ImportMessages.badRequest),
  rows: z.array(ImportRow, { error: ImportMessages.badRequest }).min(1, ImportMessages.badRequest).max(IMPORT_CHUNK_ROWS, ImportMessages.badRequest),
});
export type ImportConfirmRequest = z.infer<typeof ImportConfirmRequest>;

export const ImportResultStatus = z.enum(['created', 'updated', 'unchanged', 'error']);
export type ImportResultStatus = z.infer<typeof ImportResultStatus>;

export const ImportRowResult = z.object({
  row: z.number().int(),
  status: ImportResultStatus,
  productId: z.string().uuid().nullable(),
  /** Why the row was not applied (status error). */
  message: z.string().nullable(),
});
export type ImportRowResult = z.infer<typeof ImportRowResult>;

export const ImportConfirmResponse = z.object({
  results: z.array(ImportRowResult),
  summary: z.object({ created: z.number().int(), updated: z.number().int(), unchanged: z.number().int(), error: z.number().int() }),
});
export type ImportConfirmResponse = z.infer<typeof ImportConfirmResponse>;

/** Inventory's internal command for an import's stock counts (catalog → inventory, signed). */
export const ImportStockRequest = z.object({
  items: z
    .array(
      z.object({
        productId: z.string().uuid(),
        /** Idempotency: the same id records nothing more. */
        adjustmentId: z.string().uuid(),
        /** Available units the file asks for (as the Products page shows stock); held units stay held. */
        newStock: z.number().int().min(0).max(1_000_000),
        reason: z.string().trim().min(1).max(500),
        /** Opens the item first if ProductCreated has not reached inventory yet. */
        openingStock: z.number().int().min(0).optional(),
      }),
    )
    .min(1)
    .max(IMPORT_CHUNK_ROWS),
});
export type ImportStockRequest = z.infer<typeof ImportStockRequest>;

export const ImportStockResponse = z.object({
  results: z.array(
    z.object({
      productId: z.string().uuid(),
      /** Applied (or already applied before); false with the refusal's message otherwise. */
      ok: z.boolean(),
      adjusted: z.boolean(),
      /** Available units after the item. */
      stock: z.number().int().nullable(),
      message: z.string().nullable(),
    }),
  ),
  /** Position of the last event appended (for read-your-writes), or null when nothing was appended. */
  position: EventPosition.nullable(),
});
export type ImportStockResponse = z.infer<typeof ImportStockResponse>;
