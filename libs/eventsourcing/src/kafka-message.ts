import { EventEnvelope, EventMetadata } from '@tiendita/contracts';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { RecordedEventWithTx } from './event-table';
import { deriveKey, KeyPurpose } from './keys';

/** Header of a relayed message: HMAC-SHA256 of its value with the Kafka key derived from the deployment's INTERNAL_SECRET. */
export const MESSAGE_SIGNATURE_HEADER = 'x-tiendita-signature';

/** What the relay publishes for each event: the contract's envelope plus its place in the global order. */
export const KafkaEventEnvelope = EventEnvelope.extend({
  transactionId: z.string().regex(/^\d{1,20}$/),
  recordedAt: z.string(),
  metadata: EventMetadata,
});
export type KafkaEventEnvelope = z.infer<typeof KafkaEventEnvelope>;

/** Signs a message value as the relay publishes it (the Kafka key of INTERNAL_SECRET, not the secret itself). */
export function signMessage(secret: string, value: string): string {
  return createHmac('sha256', deriveKey(secret, KeyPurpose.kafkaMessage)).update(value).digest('hex');
}

export type DecodedMessage = { ok: true; event: RecordedEventWithTx } | { ok: false; reason: string };

/**
 * A consumer trusts no message on its own say: the value must carry the relay's signature (when the
 * transport has a secret), be JSON, and match the envelope schema of contracts. Anything else is a
 * dead letter, never a position that moves a checkpoint.
 */
export function decodeMessage(value: Buffer | string | null, headers: Record<string, unknown> | undefined, secret: string | undefined): DecodedMessage {
  if (value === null) return { ok: false, reason: 'mensaje vacío' };
  const text = typeof value === 'string' ? value : value.toString('utf8');
  if (secret) {
    const raw = headers?.[MESSAGE_SIGNATURE_HEADER];
    const given = raw === undefined ? '' : String(Buffer.isBuffer(raw) ? raw.toString('utf8') : raw);
    const expected = Buffer.from(signMessage(secret, text), 'hex');
    const actual = /^[0-9a-f]{64}$/i.test(given) ? Buffer.from(given, 'hex') : Buffer.alloc(0);
    if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return { ok: false, reason: 'firma del mensaje inválida o ausente' };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'el mensaje no es JSON' };
  }
  const env = KafkaEventEnvelope.safeParse(json);
  if (!env.success) return { ok: false, reason: `el mensaje no cumple el esquema del sobre: ${env.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}` };
  const e = env.data;
  if (e.metadata.eventId !== e.eventId) return { ok: false, reason: 'eventId del sobre y de los metadatos no coinciden' };
  return {
    ok: true,
    event: {
      globalPosition: e.globalPosition,
      streamId: e.streamId,
      streamPosition: e.streamPosition,
      type: e.type,
      data: e.data,
      metadata: e.metadata,
      recordedAt: new Date(e.recordedAt),
      transactionId: e.transactionId,
    },
  };
}
