import type { Migration } from '@tiendita/service-kit';

/**
 * The FEL service's tables. Settings and documents are records with a state, not event streams:
 * a document's life is the outbox's (pending → certified/failed → annulled), driven by ordering's
 * events and the certifier's answers, and the certified XML is the record SAT keeps.
 */
export const migrations: Migration[] = [
  {
    id: '001_fel',
    sql: `
      CREATE TABLE fel.settings (
        store_id uuid PRIMARY KEY,
        enabled boolean NOT NULL DEFAULT false,
        issuer_nit varchar(13),
        legal_name varchar(255),
        commercial_name varchar(255),
        establishment_code integer NOT NULL DEFAULT 1,
        address varchar(200) NOT NULL DEFAULT 'Ciudad',
        municipality varchar(100) NOT NULL DEFAULT 'Guatemala',
        department varchar(100) NOT NULL DEFAULT 'Guatemala',
        postal_code varchar(10) NOT NULL DEFAULT '01001',
        email varchar(100),
        isr_regime varchar(12) NOT NULL DEFAULT 'trimestral',
        certifier varchar(10) NOT NULL DEFAULT 'pruebas',
        environment varchar(12) NOT NULL DEFAULT 'pruebas',
        credentials text,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE fel.store_regimes (
        store_id uuid PRIMARY KEY,
        regime varchar(30) NOT NULL
      );
      CREATE TABLE fel.orders (
        order_id uuid PRIMARY KEY,
        store_id uuid NOT NULL,
        code varchar(40) NOT NULL,
        order_type varchar(12) NOT NULL,
        customer_name text NOT NULL,
        customer_nit text,
        items jsonb NOT NULL,
        total bigint NOT NULL,
        placed_at timestamptz NOT NULL
      );
      CREATE TABLE fel.documents (
        order_id uuid PRIMARY KEY,
        store_id uuid NOT NULL,
        order_code varchar(40) NOT NULL,
        document_type varchar(4) NOT NULL,
        status varchar(10) NOT NULL,
        issued_at timestamptz NOT NULL,
        issuer_nit varchar(13) NOT NULL,
        issuer_name varchar(255) NOT NULL,
        commercial_name varchar(255) NOT NULL,
        receiver_id varchar(18) NOT NULL,
        receiver_name varchar(255) NOT NULL,
        total bigint NOT NULL,
        vat bigint NOT NULL,
        phrases jsonb NOT NULL,
        certifier varchar(10) NOT NULL,
        xml_sent text NOT NULL,
        xml_certified text,
        authorization_uuid varchar(36),
        series varchar(20),
        number varchar(20),
        certified_at timestamptz,
        certifier_nit varchar(13),
        certifier_name varchar(255),
        error text,
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        lease_until timestamptz,
        cancel_reason varchar(255),
        annulment_xml text,
        annulled_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX documents_store_issued ON fel.documents (store_id, issued_at DESC);
      CREATE INDEX documents_due ON fel.documents (next_attempt_at)
        WHERE status = 'pending' OR (status = 'certified' AND cancel_reason IS NOT NULL AND annulment_xml IS NULL);
    `,
  },
  {
    // Offline sales in contingency (issue 28) and credit notes for partial refunds (NCRE).
    id: '002_contingency_credit_notes',
    sql: `
      ALTER TABLE fel.orders ADD COLUMN sold_offline_at timestamptz, ADD COLUMN access_number integer;
      ALTER TABLE fel.documents ADD COLUMN access_number integer, ADD COLUMN contingency_deadline timestamptz;
      CREATE TABLE fel.credit_notes (
        refund_id uuid PRIMARY KEY,
        order_id uuid NOT NULL,
        store_id uuid NOT NULL,
        status varchar(10) NOT NULL,
        issued_at timestamptz NOT NULL,
        amount bigint NOT NULL,
        vat bigint,
        reason varchar(200) NOT NULL,
        certifier varchar(10) NOT NULL,
        xml_sent text,
        xml_certified text,
        authorization_uuid varchar(36),
        series varchar(20),
        number varchar(20),
        certified_at timestamptz,
        error text,
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        lease_until timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX credit_notes_order ON fel.credit_notes (order_id, issued_at);
      CREATE INDEX credit_notes_due ON fel.credit_notes (next_attempt_at) WHERE status = 'pending';
    `,
  },
];
