/** Injection token of the catalog's event store (schema 'catalog'). */
export const CATALOG_EVENT_STORE = 'CATALOG_EVENT_STORE';
/** Injection token of the upload storage port. */
export const OBJECT_STORAGE = 'CATALOG_OBJECT_STORAGE';
/** The catalog's schema: event store, read models, uploads. */
export const CATALOG_SCHEMA = 'catalog';
