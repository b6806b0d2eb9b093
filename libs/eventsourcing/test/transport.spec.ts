import { Pool } from 'pg';
import { createTransport, decodeMessage, KafkaTransport, MESSAGE_SIGNATURE_HEADER, PostgresTransport, signMessage, toEnvelope, topicOf, type RecordedEventWithTx } from '../src';

// No query is sent: the pool only has to exist.
const pool = new Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/none' });
afterAll(() => pool.end());

const secret = 'secreto-interno-de-prueba-123';

describe('createTransport', () => {
  const base = { pool, schema: 'reporting', connectionString: 'postgres://nobody@127.0.0.1:1/none' };

  it('picks postgres by default and for EVENT_TRANSPORT=postgres', async () => {
    for (const env of [{}, { EVENT_TRANSPORT: 'postgres' }]) {
      const t = createTransport({ ...base, env });
      expect(t).toBeInstanceOf(PostgresTransport);
      expect(t.kind).toBe('postgres');
      await t.close();
    }
  });

  it('picks kafka for EVENT_TRANSPORT=kafka with KAFKA_BROKERS', async () => {
    const t = createTransport({ ...base, env: { EVENT_TRANSPORT: 'kafka', KAFKA_BROKERS: 'kafka-1:9092, kafka-2:9092' }, relay: [] });
    expect(t).toBeInstanceOf(KafkaTransport);
    expect(t.kind).toBe('kafka');
    // Read-your-writes waits on the checkpoint of the partition that holds the stream, the one the
    // relay's producer sends it to: several partitions are used, and a stream always maps to one.
    const partitions = new Set(Array.from({ length: 40 }, (_, i) => t.partitionOf!('catalog', `product-${i}`)));
    expect(partitions.size).toBeGreaterThan(1);
    for (const p of partitions) expect(p >= 0 && p < 6).toBe(true);
    expect(t.partitionOf!('catalog', 'product-7')).toBe(t.partitionOf!('catalog', 'product-7'));
    await t.close();
  });

  it('refuses kafka without brokers, and an unknown transport, with one line naming the variable', () => {
    expect(() => createTransport({ ...base, env: { EVENT_TRANSPORT: 'kafka' } })).toThrow('KAFKA_BROKERS es obligatoria con EVENT_TRANSPORT=kafka (por ejemplo kafka:9092)');
    expect(() => createTransport({ ...base, env: { EVENT_TRANSPORT: 'rabbit' } })).toThrow('EVENT_TRANSPORT inválido: rabbit (postgres o kafka)');
  });
});

describe('the Kafka event envelope', () => {
  it('carries the event, its metadata and its place in the global order, and reads back the same', () => {
    const event: RecordedEventWithTx = {
      globalPosition: 42,
      streamId: 'order-1',
      streamPosition: 3,
      type: 'OrderPlaced',
      data: { total: 12_500 },
      metadata: {
        eventId: 'b3b7c1de-1f0e-4a8e-9a31-1c2d3e4f5a6b',
        schemaVersion: 1,
        storeId: 'store-1',
        occurredAt: '2025-01-02T03:04:05.000Z',
        correlationId: 'c-1',
        causationId: null,
        actor: 'user-1',
      },
      recordedAt: new Date('2025-01-02T03:04:05.678Z'),
      transactionId: '123456789012',
    };
    const envelope = toEnvelope(event);
    expect(envelope).toMatchObject({ eventId: event.metadata.eventId, type: 'OrderPlaced', streamId: 'order-1', streamPosition: 3, globalPosition: 42, transactionId: '123456789012', storeId: 'store-1' });
    const value = JSON.stringify(envelope);
    expect(decodeMessage(Buffer.from(value), { [MESSAGE_SIGNATURE_HEADER]: Buffer.from(signMessage(secret, value)) }, secret)).toEqual({ ok: true, event });
    expect(topicOf('ordering')).toBe('ordering.events');

    // A consumer trusts no message on its own say: each of these is a dead letter, not an event.
    const forged = JSON.stringify({ ...envelope, globalPosition: 9_000_000_000, transactionId: '999999999999' });
    expect(decodeMessage(Buffer.from(forged), { [MESSAGE_SIGNATURE_HEADER]: Buffer.from(signMessage('otro-secreto-cualquiera', forged)) }, secret)).toMatchObject({ ok: false, reason: expect.stringContaining('firma') });
    expect(decodeMessage(Buffer.from(forged), undefined, secret)).toMatchObject({ ok: false });
    const notJson = 'hola, no soy JSON';
    expect(decodeMessage(Buffer.from(notJson), { [MESSAGE_SIGNATURE_HEADER]: signMessage(secret, notJson) }, secret)).toEqual({ ok: false, reason: 'el mensaje no es JSON' });
    const broken = JSON.stringify({ ...envelope, streamPosition: 'tres', metadata: { ...envelope.metadata, eventId: 'x' } });
    expect(decodeMessage(Buffer.from(broken), { [MESSAGE_SIGNATURE_HEADER]: signMessage(secret, broken) }, secret)).toMatchObject({ ok: false, reason: expect.stringContaining('esquema') });
    expect(decodeMessage(null, undefined, secret)).toMatchObject({ ok: false });
  });
});
