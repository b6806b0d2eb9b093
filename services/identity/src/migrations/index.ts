import { eventStoreDdl } from '@tiendita/eventsourcing';
import type { Migration } from '@tiendita/service-kit';

/** Schema of the identity service. */
export const IDENTITY_SCHEMA = 'identity';

/**
 * The write side of identity: its event store, and three lookup tables written in the same
 * transaction as the events they follow (they must be exact at once, a projection would lag):
 * - email_reservations: one account per e-mail, and the e-mail → user lookup of the login;
 * - subdomain_reservations: one store per subdomain;
 * - reset_token_lookup: sha256 of a reset token → its user (the token itself is never stored).
 * The read models (users, stores, store_settings) belong to the projection, see read-model/.
 */
export const identityMigrations: Migration[] = [
  { id: '001_event_store', sql: eventStoreDdl(IDENTITY_SCHEMA) },
  {
    id: '002_reservations',
    sql: `
      CREATE TABLE email_reservations (
        email varchar(255) PRIMARY KEY,
        user_id uuid NOT NULL UNIQUE,
        reserved_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE subdomain_reservations (
        subdomain varchar(100) PRIMARY KEY,
        store_id uuid NOT NULL UNIQUE,
        reserved_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE reset_token_lookup (
        token_hash char(64) PRIMARY KEY,
        user_id uuid NOT NULL,
        expires_at timestamptz NOT NULL
      );
      CREATE INDEX reset_token_lookup_expires ON reset_token_lookup (expires_at);
    `,
  },
  {
    // A changed subdomain keeps answering (and stays taken) for 90 days: /{old} leads to /{new}.
    id: '003_subdomain_redirects',
    sql: `
      CREATE TABLE subdomain_redirects (
        subdomain varchar(100) PRIMARY KEY,
        store_id uuid NOT NULL,
        expires_at timestamptz NOT NULL
      );
      CREATE INDEX subdomain_redirects_store ON subdomain_redirects (store_id);
    `,
  },
  {
    // Subscription confirmation mails one recipient may receive per window, across every store (issue 26):
    // a fixed-window counter per sha256 of the address (the address itself is not kept here).
    id: '004_subscription_mail_quota',
    sql: `
      CREATE TABLE subscription_mail_quota (
        email_hash char(64) PRIMARY KEY,
        window_start timestamptz NOT NULL,
        sent integer NOT NULL
      );
      CREATE INDEX subscription_mail_quota_window ON subscription_mail_quota (window_start);
    `,
  },
];
