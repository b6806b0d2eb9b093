import { Kafka, logLevel, Partitioners, type Admin, type Consumer, type KafkaMessage, type Producer, type SASLOptions } from 'kafkajs';
import type { ConnectionOptions } from 'node:tls';
import { Client, type Pool, type QueryResult } from 'pg';
import { assertSchemaName, notifyChannel, PostgresEventStore, START, type Position, type RecordedEventWithTx } from './event-store';
import { checkout, withSchemaLock } from './pg-util';
import {
  checkpointDdl,
  comparePositions,
  FLOOR_PARTITION,
  lockCheckpoint,
  maxPosition,
  readCheckpoint,
  saveCheckpoint,
  type EventTransport,
  type SubscribeOptions,
  type Subscription,
} from './subscription';
import { decodeMessage, type KafkaEventEnvelope, MESSAGE_SIGNATURE_HEADER, signMessage } from './kafka-message';

/** The topic a service's events are published to. */
/** Messages a consumer refused (not JSON, not the envelope, not signed by a relay), kept for an operator. */
export function transportDeadLettersDdl(schema: string): string {
  return `CREATE TABLE IF NOT EXISTS ${schema}.transport_dead_letters (
    group_name text NOT NULL,
    source text NOT NULL,
    partition integer NOT NULL,
    kafka_offset text NOT NULL,
    reason text NOT NULL,
    value text,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (group_name, source, partition, kafka_offset)
  )`;
}

export function topicOf(source: string): string {
  return `${source}.events`;
}

/**
 * What leaves the service of an event's data: the relay publishes `redact(type, data)` when the
 * service gives one (identity strips its credential hashes), the data as stored otherwise.
 */
export type EventRedactor = (type: string, data: unknown) => unknown;

export function toEnvelope(e: RecordedEventWithTx, redact?: EventRedactor): KafkaEventEnvelope {
  return {
    eventId: e.metadata.eventId,
    type: e.type,
    schemaVersion: e.metadata.schemaVersion,
    streamId: e.streamId,
    streamPosition: e.streamPosition,
    globalPosition: e.globalPosition,
    transactionId: e.transactionId,
    storeId: e.metadata.storeId,
    occurredAt: e.metadata.occurredAt,
    correlationId: e.metadata.correlationId,
    causationId: e.metadata.causationId,
    actor: e.metadata.actor,
    recordedAt: e.recordedAt.toISOString(),
    metadata: e.metadata,
    data: redact ? redact(e.type, e.data) : e.data,
  };
}

export interface KafkaTransportOptions {
  /** Pool of this service: its schema holds the consumer checkpoints (and its events table, relayed). */
  pool: Pool;
  /** This service's schema. */
  schema: string;
  brokers: string[];
  clientId?: string;
  /** TLS to the brokers: true (the system's CAs) or options such as a private CA. */
  ssl?: ConnectionOptions | boolean;
  /** SASL credentials of this service: the principal the brokers' ACLs name. */
  sasl?: SASLOptions;
  /**
   * Source schemas whose events tables this process publishes (normally just its own schema).
   * The relay keeps its checkpoint in `<source>.kafka_relay` and resumes from it.
   */
  relay?: string[];
  /** Used to LISTEN for appends so the relay publishes at once (else it polls). */
  connectionString?: string;
  /**
   * The deployment's INTERNAL_SECRET: the relay signs every message with it and consumers refuse
   * (dead-letter) a message without a valid signature, so a message written to a topic by anyone
   * but a relay never reaches a projection nor moves a checkpoint.
   */
  secret?: string;
  /** Partitions of a topic the relay creates (unlimited retention). */
  partitions?: number;
  relayBatchSize?: number;
  relayPollMs?: number;
  /**
   * Applied to every event the relay publishes. Topics are read by other services (and whoever
   * operates the brokers): data that must not leave the service, such as credential hashes, is
   * removed here. The events table keeps the full event, for the service's own use.
   */
  redact?: EventRedactor;
  onError?: (err: unknown, where: string) => void;
}

/**
 * The Kafka adapter of the subscription port. A relay per service publishes its events table in
 * the global order to `<source>.events` (key = streamId, idempotent producer); consumers are
 * consumer groups whose handler runs in a PostgreSQL transaction that also stores a per-partition
 * checkpoint, and events at or before it are skipped: exactly-once effects on at-least-once delivery.
 */
export class KafkaTransport implements EventTransport {
  readonly kind = 'kafka' as const;
  private readonly kafka: Kafka;
  private admin: Admin | null = null;
  private readonly relays: KafkaRelay[] = [];
  private readonly subs = new Set<KafkaSubscription>();
  private ready: Promise<void> | null = null;
  private readonly knownTopics = new Set<string>();

  constructor(private readonly options: KafkaTransportOptions) {
    assertSchemaName(options.schema);
    if (options.brokers.length === 0) throw new Error('KafkaTransport: no hay brokers (KAFKA_BROKERS)');
    this.kafka = new Kafka({
      clientId: options.clientId ?? `tiendita-${options.schema}`,
      brokers: options.brokers,
      ...(options.ssl ? { ssl: options.ssl } : {}),
      ...(options.sasl ? { sasl: options.sasl } : {}),
      logLevel: logLevel.WARN,
    });
    for (const source of options.relay ?? []) {
      assertSchemaName(source);
      const relay = new KafkaRelay(this, options, source);
      this.relays.push(relay);
      relay.start();
    }
  }

  /** Admin client, connected once. */
  async getAdmin(): Promise<Admin> {
    if (!this.admin) {
      const admin = this.kafka.admin();
      await admin.connect();
      this.admin = admin;
    }
    return this.admin;
  }

  /** Creates a topic with unlimited retention when missing (events are replayable from the start). */
  async ensureTopic(topic: string): Promise<void> {
    if (this.knownTopics.has(topic)) return;
    const admin = await this.getAdmin();
    const existing = await admin.listTopics();
    if (!existing.includes(topic)) {
      await admin
        .createTopics({
          waitForLeaders: true,
          topics: [{ topic, numPartitions: this.options.partitions ?? 6, configEntries: [{ name: 'retention.ms', value: '-1' }] }],
        })
        .catch((err: unknown) => {
          // Another process created it meanwhile.
          if (!/already exists/i.test(String((err as Error).message))) throw err;
        });
    }
    this.knownTopics.add(topic);
  }

  /** The partition the relay's producer sends a stream's events to (kafkajs' default partitioner, keyed by stream id). */
  partitionOf(source: string, streamId: string): number {
    const count = this.options.partitions ?? 6;
    const partitionMetadata = Array.from({ length: count }, (_, partitionId) => ({ partitionId, leader: 0, replicas: [0], isr: [0], partitionErrorCode: 0, offlineReplicas: [] }));
    return Partitioners.DefaultPartitioner()({ topic: topicOf(source), partitionMetadata, message: { key: streamId, value: null } });
  }

  newProducer(): Producer {
    return this.kafka.producer({ idempotent: true, maxInFlightRequests: 1, createPartitioner: Partitioners.DefaultPartitioner });
  }

  private async init(): Promise<void> {
    this.ready ??= withSchemaLock(this.options.pool, this.options.schema, async (client) => {
      await client.query(checkpointDdl(this.options.schema));
      await client.query(transportDeadLettersDdl(this.options.schema));
    });
    return this.ready;
  }

  async subscribe(options: SubscribeOptions): Promise<Subscription> {
    assertSchemaName(options.source);
    await this.init();
    const topic = topicOf(options.source);
    await this.ensureTopic(topic);
    const sub = new KafkaSubscription(this, this.kafka.consumer({ groupId: options.group }), this.options, options, topic);
    this.subs.add(sub);
    void sub.done.then(() => this.subs.delete(sub));
    await sub.start();
    return {
      group: options.group,
      source: options.source,
      done: sub.done,
      caughtUp: () => sub.caughtUp(),
      stop: () => sub.stop(),
    };
  }

  /** The relay of a source published everything committed before now (for tests and caughtUp). */
  async relayCaughtUp(source: string): Promise<void> {
    const relay = this.relays.find((r) => r.source === source);
    if (relay) await relay.caughtUp();
    else await waitForRelayCheckpoint(this.options.pool, source);
  }

  async close(): Promise<void> {
    await Promise.all([...this.subs].map((s) => s.stop()));
    await Promise.all(this.relays.map((r) => r.stop()));
    if (this.admin) await this.admin.disconnect().catch(() => undefined);
    this.admin = null;
  }
}

function relayTable(source: string): string {
  return `${source}.kafka_relay`;
}

/** Waits until a source's relay checkpoint has reached the source's head (when both are visible from this pool). */
async function waitForRelayCheckpoint(pool: Pool, source: string, timeoutMs = 30_000): Promise<void> {
  const visible = await pool.query<{ ok: boolean }>('SELECT to_regclass($1) IS NOT NULL AND to_regclass($2) IS NOT NULL AS ok', [`${source}.events`, relayTable(source)]);
  if (!visible.rows[0].ok) return; // the source lives in another database: nothing to wait for here
  const head = await headOf(pool, source);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await pool.query<{ transaction_id: string; global_position: string }>(`SELECT transaction_id::text, global_position FROM ${relayTable(source)} WHERE topic = $1`, [topicOf(source)]);
    const at: Position = r.rows[0] ? { transactionId: r.rows[0].transaction_id, globalPosition: Number(r.rows[0].global_position) } : START;
    if (comparePositions(at, head) >= 0) return;
    if (Date.now() > deadline) throw new Error(`El relay de ${source} no alcanzó ${head.transactionId}/${head.globalPosition}`);
    await new Promise((r2) => setTimeout(r2, 50));
  }
}

/** The newest committed event of a source: the relay has to reach it. */
function headOf(pool: Pool, source: string): Promise<Position> {
  return new PostgresEventStore(pool, source).lastPosition();
}

/**
 * Publishes one service's events table to its topic in the global order. Each batch: lock the
 * relay checkpoint (one relay works at a time across replicas), read after it, publish and wait
 * for the acknowledgement, move the checkpoint, commit. A crash between publish and commit
 * publishes the batch again; consumers skip what their checkpoint already covers.
 */
class KafkaRelay {
  private running = false;
  private loop: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;
  private pending = false;
  private listener: Client | null = null;
  private readonly store: PostgresEventStore;

  constructor(
    private readonly transport: KafkaTransport,
    private readonly o: KafkaTransportOptions,
    readonly source: string,
  ) {
    this.store = new PostgresEventStore(o.pool, source);
  }

  start(): void {
    this.running = true;
    this.loop = this.run().catch((err: unknown) => this.o.onError?.(err, `relay ${this.source}`));
  }

  private wake = (): void => {
    this.pending = true;
    this.wakeUp?.();
  };

  private async run(): Promise<void> {
    const topic = topicOf(this.source);
    let producer: Producer | null = null;
    while (this.running) {
      try {
        if (!producer) {
          await this.o.pool.query(
            `CREATE TABLE IF NOT EXISTS ${relayTable(this.source)} (topic text PRIMARY KEY, transaction_id xid8 NOT NULL DEFAULT '0', global_position bigint NOT NULL DEFAULT 0, updated_at timestamptz NOT NULL DEFAULT now())`,
          );
          await this.transport.ensureTopic(topic);
          const p = this.transport.newProducer();
          await p.connect();
          producer = p;
          if (this.o.connectionString && !this.listener) {
            const listener = new Client({ connectionString: this.o.connectionString });
            listener.on('error', () => undefined);
            await listener.connect();
            listener.on('notification', this.wake);
            await listener.query(`LISTEN ${notifyChannel(this.source)}`);
            this.listener = listener;
          }
        }
        this.pending = false;
        const published = await this.step(producer, topic);
        if (published > 0 || this.pending) continue;
      } catch (err) {
        this.o.onError?.(err, `relay ${this.source}`);
        await producer?.disconnect().catch(() => undefined);
        producer = null;
        await new Promise((r) => setTimeout(r, 1000));
        continue;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.o.relayPollMs ?? 500);
        this.wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeUp = null;
    }
    await producer?.disconnect().catch(() => undefined);
    await this.listener?.end().catch(() => undefined);
    this.listener = null;
  }

  private async step(producer: Producer, topic: string): Promise<number> {
    const tx = await checkout(this.o.pool);
    try {
      await tx.query('BEGIN');
      await tx.query(`INSERT INTO ${relayTable(this.source)} (topic) VALUES ($1) ON CONFLICT DO NOTHING`, [topic]);
      const cp = await tx.query<{ transaction_id: string; global_position: string }>(
        `SELECT transaction_id::text, global_position FROM ${relayTable(this.source)} WHERE topic = $1 FOR UPDATE SKIP LOCKED`,
        [topic],
      );
      if (cp.rowCount === 0) {
        await tx.query('ROLLBACK');
        return 0; // another replica relays this batch
      }
      const from: Position = { transactionId: cp.rows[0].transaction_id, globalPosition: Number(cp.rows[0].global_position) };
      const events = await this.store.readAll(from, this.o.relayBatchSize ?? 500, tx);
      if (events.length === 0) {
        await tx.query('COMMIT');
        return 0;
      }
      await producer.send({
        topic,
        acks: -1,
        messages: events.map((e) => {
          const value = JSON.stringify(toEnvelope(e, this.o.redact));
          return { key: e.streamId, value, ...(this.o.secret ? { headers: { [MESSAGE_SIGNATURE_HEADER]: signMessage(this.o.secret, value) } } : {}) };
        }),
      });
      const last = events[events.length - 1];
      await tx.query(`UPDATE ${relayTable(this.source)} SET transaction_id = $2::xid8, global_position = $3, updated_at = now() WHERE topic = $1`, [
        topic,
        last.transactionId,
        last.globalPosition,
      ]);
      await tx.query('COMMIT');
      tx.done();
      return events.length;
    } catch (err) {
      await tx.query('ROLLBACK').catch(() => undefined);
      tx.done(err);
      throw err;
    }
  }

  caughtUp(): Promise<void> {
    this.wake();
    return waitForRelayCheckpoint(this.o.pool, this.source);
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
  }
}

/**
 * One consumer group member. Each batch of a partition runs in one PostgreSQL transaction: lock
 * the partition's checkpoint row (waiting, so a rebuild swap pauses it), skip events at or before
 * it (or the group's floor), handle the rest, save the checkpoint, commit; then the Kafka offsets.
 */
class KafkaSubscription {
  private finished!: () => void;
  readonly done = new Promise<void>((resolve) => (this.finished = resolve));
  private stopping = false;
  private ended = false;

  constructor(
    private readonly transport: KafkaTransport,
    private readonly consumer: Consumer,
    private readonly t: KafkaTransportOptions,
    private readonly o: SubscribeOptions,
    private readonly topic: string,
  ) {}

  async start(): Promise<void> {
    await this.consumer.connect();
    await this.consumer.subscribe({ topics: [this.topic], fromBeginning: true });
    await this.consumer.run({
      eachBatchAutoResolve: false,
      autoCommit: true,
      eachBatch: async ({ batch, resolveOffset, heartbeat, commitOffsetsIfNecessary, isRunning, isStale }) => {
        if (this.stopping) return;
        const messages = batch.messages;
        const size = this.o.batchSize ?? 500;
        for (let i = 0; i < messages.length && isRunning() && !isStale() && !this.stopping; i += size) {
          const chunk = messages.slice(i, i + size);
          const { handledMessages, stop } = await this.handleChunk(batch.partition, chunk);
          for (const m of chunk.slice(0, handledMessages)) resolveOffset(m.offset);
          await commitOffsetsIfNecessary();
          await heartbeat();
          if (stop) {
            // The handler asked to stop after part of a batch: this member leaves the group.
            this.stopping = true;
            setImmediate(() => void this.end());
            return;
          }
        }
      },
    });
  }

  private async handleChunk(partition: number, messages: KafkaMessage[]): Promise<{ handledMessages: number; stop: boolean }> {
    const decoded = messages.map((m) => decodeMessage(m.value, m.headers as Record<string, unknown> | undefined, this.t.secret));
    const tx = await checkout(this.t.pool);
    const fresh: RecordedEventWithTx[] = [];
    try {
      await tx.query('BEGIN');
      // A message that is not JSON, breaks the envelope schema or lacks the relay's signature is set
      // aside with its reason; it neither stalls the partition nor moves the checkpoint.
      const events: RecordedEventWithTx[] = [];
      const eventIndex: number[] = [];
      for (let i = 0; i < decoded.length; i++) {
        const d = decoded[i];
        if (d.ok) {
          events.push(d.event);
          eventIndex.push(i);
          continue;
        }
        await tx.query(
          `INSERT INTO ${this.t.schema}.transport_dead_letters (group_name, source, partition, kafka_offset, reason, value)
           VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (group_name, source, partition, kafka_offset) DO NOTHING`,
          [this.o.group, this.o.source, partition, messages[i].offset, d.reason, messages[i].value?.toString('utf8').slice(0, 100_000) ?? null],
        );
      }
      const cp = (await lockCheckpoint(tx, this.t.schema, this.o.group, this.o.source, partition, false))!;
      const floor = await readCheckpoint(tx, this.t.schema, this.o.group, this.o.source, FLOOR_PARTITION);
      const skipUpTo = floor ? maxPosition(cp, floor) : cp;
      // Events at or before the checkpoint were applied already (a redelivery or a relay retry).
      const indexOfFresh: number[] = [];
      events.forEach((e, i) => {
        if (comparePositions(e, skipUpTo) > 0 && (fresh.length === 0 || comparePositions(e, fresh[fresh.length - 1]) > 0)) {
          fresh.push(e);
          indexOfFresh.push(eventIndex[i]);
        }
      });
      if (fresh.length === 0) {
        await tx.query('COMMIT');
        tx.done();
        return { handledMessages: messages.length, stop: false };
      }
      const started = this.o.batchStart ? ([] as QueryResult[]).concat((await tx.query(this.o.batchStart)) as unknown as QueryResult | QueryResult[]) : undefined;
      const result = await this.o.handle(fresh, tx, started);
      const handled = result ? Math.max(0, Math.min(result.handled, fresh.length)) : fresh.length;
      if (handled > 0) {
        const last = fresh[handled - 1];
        await saveCheckpoint(tx, this.t.schema, this.o.group, this.o.source, { transactionId: last.transactionId, globalPosition: last.globalPosition }, partition);
      }
      await tx.query('COMMIT');
      tx.done();
      if (handled < fresh.length) {
        // Messages before the first unhandled fresh event are done; it and those after it are not.
        return { handledMessages: indexOfFresh[handled], stop: true };
      }
      return { handledMessages: messages.length, stop: false };
    } catch (err) {
      await tx.query('ROLLBACK').catch(() => undefined);
      tx.done(err);
      this.o.onError?.(err, fresh);
      throw err; // kafkajs retries the batch
    }
  }

  /**
   * Resolves once the relay has published everything committed before the call and this group
   * has committed offsets up to the end of every partition of the topic.
   */
  async caughtUp(): Promise<void> {
    await this.transport.relayCaughtUp(this.o.source);
    const admin = await this.transport.getAdmin();
    const ends = await admin.fetchTopicOffsets(this.topic);
    for (;;) {
      if (this.ended) return;
      const committed = await admin.fetchOffsets({ groupId: this.o.group, topics: [this.topic] });
      const byPartition = new Map((committed[0]?.partitions ?? []).map((p) => [p.partition, BigInt(p.offset)]));
      const behind = ends.some((e) => BigInt(e.high) > 0n && (byPartition.get(e.partition) ?? -1n) < BigInt(e.high));
      if (!behind) return;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  private async end(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    await this.consumer.disconnect().catch(() => undefined);
    this.finished();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.end();
  }
}
