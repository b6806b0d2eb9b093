/** Injection token of the upload storage port. */
export const OBJECT_STORAGE = 'CATALOG_OBJECT_STORAGE';
/** The catalog's schema: event store, read models, uploads. */
export const CATALOG_SCHEMA = 'catalog';
