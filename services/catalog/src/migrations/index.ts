import type { Migration } from '@tiendita/service-kit';

/**
 * Tables of the catalog that are not read models: the events table is created by the event
 * store, read models by their projections. Unqualified names land in schema 'catalog'.
 */
export const migrations: Migration[] = [
  {
    id: '001_uploads',
    sql: `
      CREATE TABLE uploads (
        file_name varchar(100) PRIMARY KEY,
        store_id uuid NOT NULL,
        uploaded_by uuid,
        original_name varchar(255) NOT NULL,
        token_hash char(64) NOT NULL UNIQUE,
        content_type varchar(50),
        size_bytes integer,
        width integer,
        height integer,
        expires_at timestamptz NOT NULL,
        received_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX uploads_store ON uploads (store_id, created_at DESC);
    `,
  },
  {
    id: '002_rate_limits',
    sql: `
      CREATE TABLE rate_limits (
        key varchar(200) PRIMARY KEY,
        window_start timestamptz NOT NULL,
        hits integer NOT NULL
      );
    `,
  },
];
