import type { Pool } from 'pg';
import { KafkaTransport, type EventRedactor } from './kafka-transport';
import { PostgresTransport } from './postgres-transport';
import type { EventTransport } from './subscription';

export interface TransportConfig {
  /** Pool of this service. */
  pool: Pool;
  /** This service's schema (checkpoints; with Kafka also the events table it relays). */
  schema: string;
  /** Connection string of the pool's database (LISTEN/NOTIFY). */
  connectionString: string;
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
}

/**
 * The subscription adapter EVENT_TRANSPORT names: `postgres` (default) or `kafka`, which needs
 * KAFKA_BROKERS (comma-separated host:port).
 */
export function createTransport(config: TransportConfig): EventTransport {
  const env = config.env ?? process.env;
  const kind = (env.EVENT_TRANSPORT ?? 'postgres').trim() || 'postgres';
  if (kind === 'postgres') return new PostgresTransport({ pool: config.pool, schema: config.schema, connectionString: config.connectionString });
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
      connectionString: config.connectionString,
      relay: config.relay ?? [config.schema],
      redact: config.redact,
      onError: config.onError,
    });
  }
  throw new Error(`EVENT_TRANSPORT inválido: ${kind} (postgres o kafka)`);
}
