import { createHmac } from 'node:crypto';
import { decodeMessage, deriveKey, KeyPurpose, MESSAGE_SIGNATURE_HEADER, signMessage } from '../src';

const secret = 'un-secreto-interno-de-prueba-largo';

describe('each use of INTERNAL_SECRET has its own HKDF-derived key', () => {
  it('derives different 256-bit keys per purpose, none of them the secret itself', () => {
    const keys = Object.values(KeyPurpose).map((p) => deriveKey(secret, p).export().toString('hex'));
    expect(new Set(keys).size).toBe(keys.length);
    for (const k of keys) {
      expect(k).toHaveLength(64);
      expect(k).not.toBe(Buffer.from(secret).toString('hex'));
    }
    expect(deriveKey(secret, KeyPurpose.unsubscribe)).toBe(deriveKey(secret, KeyPurpose.unsubscribe));
    expect(deriveKey('otro-secreto-interno-bastante-largo', KeyPurpose.unsubscribe).export().equals(deriveKey(secret, KeyPurpose.unsubscribe).export())).toBe(false);
  });

  it('signs Kafka messages with the Kafka key: a signature with the bare secret (or another key) is refused', () => {
    const value = '{"type":"X"}';
    expect(signMessage(secret, value)).toBe(createHmac('sha256', deriveKey(secret, KeyPurpose.kafkaMessage)).update(value).digest('hex'));
    const bare = createHmac('sha256', secret).update(value).digest('hex');
    const internalKey = createHmac('sha256', deriveKey(secret, KeyPurpose.internalCall)).update(value).digest('hex');
    for (const forged of [bare, internalKey]) {
      expect(decodeMessage(value, { [MESSAGE_SIGNATURE_HEADER]: forged }, secret)).toEqual({ ok: false, reason: 'firma del mensaje inválida o ausente' });
    }
  });
});
