import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { createTransport, kafkaSecurity, KafkaTransport } from '../src';

describe('kafkaSecurity (TLS and SASL of the Kafka clients)', () => {
  it('is plaintext without authentication when nothing is set', () => {
    expect(kafkaSecurity({})).toEqual({});
    expect(kafkaSecurity({ KAFKA_SSL: '0', KAFKA_SASL_MECHANISM: '' })).toEqual({});
  });

  it('turns TLS on with KAFKA_SSL=1, or with a private CA from KAFKA_SSL_CA_FILE', () => {
    expect(kafkaSecurity({ KAFKA_SSL: '1' })).toEqual({ ssl: true });
    const dir = mkdtempSync(join(tmpdir(), 'kafka-ca-'));
    try {
      const ca = join(dir, 'ca.pem');
      writeFileSync(ca, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
      expect(kafkaSecurity({ KAFKA_SSL_CA_FILE: ca })).toEqual({ ssl: { ca: ['-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n'] } });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives each service its SASL principal', () => {
    expect(kafkaSecurity({ KAFKA_SSL: '1', KAFKA_SASL_MECHANISM: 'SCRAM-SHA-512', KAFKA_SASL_USERNAME: 'catalog', KAFKA_SASL_PASSWORD: 's3creto' })).toEqual({
      ssl: true,
      sasl: { mechanism: 'scram-sha-512', username: 'catalog', password: 's3creto' },
    });
  });

  it('refuses an unknown mechanism or missing credentials with one line', () => {
    expect(() => kafkaSecurity({ KAFKA_SASL_MECHANISM: 'gssapi', KAFKA_SASL_USERNAME: 'a', KAFKA_SASL_PASSWORD: 'b' })).toThrow(
      'KAFKA_SASL_MECHANISM debe ser plain, scram-sha-256, scram-sha-512 (recibido: gssapi)',
    );
    expect(() => kafkaSecurity({ KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'a' })).toThrow('KAFKA_SASL_USERNAME y KAFKA_SASL_PASSWORD son obligatorias con KAFKA_SASL_MECHANISM');
  });
});

describe('createTransport with KAFKA_SSL=1', () => {
  const pool = new Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/none' });
  afterAll(() => pool.end());

  it('opens its broker connections with a TLS handshake', async () => {
    // kafkajs reports each refused attempt on the console: expected here, kept out of the output.
    const quiet = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const sockets: Socket[] = [];
    const firstBytes: number[] = [];
    const broker = createServer((socket) => {
      sockets.push(socket);
      socket.once('data', (chunk: Buffer) => {
        firstBytes.push(chunk[0]);
        socket.destroy();
      });
    });
    await new Promise<void>((resolve) => broker.listen(0, '127.0.0.1', resolve));
    const { port } = broker.address() as { port: number };
    const t = createTransport({
      pool,
      schema: 'catalog',
      connectionString: 'postgres://nobody@127.0.0.1:1/none',
      env: { EVENT_TRANSPORT: 'kafka', KAFKA_BROKERS: `127.0.0.1:${port}`, KAFKA_SSL: '1' },
      relay: [],
    }) as KafkaTransport;
    try {
      // The broker hangs up on every attempt, so the call fails once kafkajs has used its retries.
      const outcome = await t.ensureTopic('catalog.events').then(() => 'connected', (error: Error) => error.message);
      expect(outcome).not.toBe('connected');
      // 0x16: a TLS handshake record (ClientHello), where a plaintext client sends a Kafka request size.
      expect(firstBytes.length).toBeGreaterThan(0);
      expect(new Set(firstBytes)).toEqual(new Set([0x16]));
    } finally {
      await t.close();
      sockets.forEach((s) => s.destroy());
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      quiet.mockRestore();
    }
  }, 60_000);
});
