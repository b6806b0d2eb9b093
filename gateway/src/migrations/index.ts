import type { Migration } from '@tiendita/service-kit';

export const GATEWAY_SCHEMA = 'gateway';

/**
 * The gateway's own tables: the spec's `sessions` (sid, sess json, expire indexed), with an
 * index to end every session of one user (password reset), and the rate-limit counters.
 */
export const gatewayMigrations: Migration[] = [
  {
    id: '001_sessions',
    sql: `
      CREATE TABLE sessions (
        sid varchar PRIMARY KEY,
        sess json NOT NULL,
        expire timestamp(6) with time zone NOT NULL
      );
      CREATE INDEX sessions_expire ON sessions (expire);
      CREATE INDEX sessions_user ON sessions (((sess -> 'passport') ->> 'userId'));
    `,
  },
  {
    id: '002_rate_limits',
    sql: `
      CREATE TABLE rate_limits (
        bucket text NOT NULL,
        window_start timestamptz NOT NULL,
        hits integer NOT NULL,
        PRIMARY KEY (bucket, window_start)
      );
      CREATE INDEX rate_limits_window ON rate_limits (window_start);
    `,
  },
];
