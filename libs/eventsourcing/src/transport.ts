import type { SASLOptions } from 'kafkajs';
import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';
import type { Pool } from 'pg';
import { KafkaTransport, type EventRedactor } from './kafka-transport';
import { PostgresTransport, type TransportLogger } from './postgres-transport';
import type { EventTransport } from './subscription';

export interface TransportConfig {
  /** Pool of this service. */
  pool: Pool;
  /** This service's schema (checkpoints; with Kafka also the events table it relays). */
  schema: string;
  /** Connection string of the pool's database (LISTEN/NOTIFY). */
  connectionString: string;
  /** PostgreSQL only: a pool for the subscriptions' passes, apart from the service's commands (PostgresTransportOptions.passPool). */
  passPool?: Pool;
  /** Where EVENT_TRANSPORT and KAFKA_BROKERS are read from (default process.env). */
  env?: Record<string, string | undefined>;
  /**
   * Kafka only: the schemas whose events this process publishes. Default: its own schema, so
   * every service relays its events table to `<schema>.events`.
   */
  relay?: string[];
  /** Kafka only: what the relay removes from this service's events before publishing them. */
  redact?: EventRedactor;
  onError?: (err: unknown, where: string) => void;
  /** PostgreSQL only: where the LISTEN connection's loss and return are logged. */
  logger?: TransportLogger;
}

const SASL_MECHANISMS = ['plain', 'scram-sha-256', 'scram-sha-512'] as const;

/**
 * TLS and SASL of the Kafka clients, from the environment: KAFKA_SSL=1 (TLS with the system's
 * CAs) or KAFKA_SSL_CA_FILE (TLS trusting that PEM file), and KAFKA_SASL_MECHANISM (plain,
 * scram-sha-256 or scram-sha-512) with KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD. Nothing set:
 * plaintext without authentication (a broker reachable only inside a private network).
 */
export function kafkaSecurity(env: Record<string, string | undefined>): { ssl?: ConnectionOptions | boolean; sasl?: SASLOptions } {
  const value = (name: string) => {
    const v = env[name]?.trim();
    return v ? v : undefined;
  };
  const security: { ssl?: ConnectionOptions | boolean; sasl?: SASLOptions } = {};
  const caFile = value('KAFKA_SSL_CA_FILE');
  if (caFile) security.ssl = { ca: [readFileSync(caFile, 'utf8')] };
  else if (value('KAFKA_SSL') === '1') security.ssl = true;
  const mechanism = value('KAFKA_SASL_MECHANISM')?.toLowerCase();
  if (mechanism) {
    if (!(SASL_MECHANISMS as readonly string[]).includes(mechanism)) throw new Error(`KAFKA_SASL_MECHANISM debe ser ${SASL_MECHANISMS.join(', ')} (recibido: ${mechanism})`);
    const username = value('KAFKA_SASL_USERNAME');
    const password = env.KAFKA_SASL_PASSWORD;
    if (!username || !password) throw new Error('KAFKA_SASL_USERNAME y KAFKA_SASL_PASSWORD son obligatorias con KAFKA_SASL_MECHANISM');
    security.sasl = { mechanism: mechanism as (typeof SASL_MECHANISMS)[number], username, password } as SASLOptions;
  }
  return security;
}

/**
 * The subscription adapter EVENT_TRANSPORT names: `postgres` (default) or `kafka`, which needs
 * KAFKA_BROKERS (comma-separated host:port).
 */
export function createTransport(config: TransportConfig): EventTransport {
  const env = config.env ?? process.env;
  const kind = (env.EVENT_TRANSPORT ?? 'postgres').trim() || 'postgres';
  if (kind === 'postgres') {
    return new PostgresTransport({
      pool: config.pool,
      schema: config.schema,
      connectionString: config.connectionString,
      ...(config.passPool ? { passPool: config.passPool } : {}),
      ...(config.logger ? { logger: config.logger } : {}),
    });
  }
  if (kind === 'kafka') {
    const brokers = (env.KAFKA_BROKERS ?? '')
      .split(',')
      .map((b) => b.trim())
      .filter(Boolean);
    if (brokers.length === 0) throw new Error('KAFKA_BROKERS es obligatoria con EVENT_TRANSPORT=kafka (por ejemplo kafka:9092)');
    return new KafkaTransport({
      pool: config.pool,
      schema: config.schema,
      brokers,
      ...kafkaSecurity(env),
      connectionString: config.connectionString,
      relay: config.relay ?? [config.schema],
      redact: config.redact,
      secret: env.INTERNAL_SECRET,
      onError: config.onError,
    });
  }
  throw new Error(`EVENT_TRANSPORT inválido: ${kind} (postgres o kafka)`);
}
