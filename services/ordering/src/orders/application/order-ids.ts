import { createHash, randomUUID } from 'node:crypto';

/**
 * Id named by an Idempotency-Key: the same key in the same store and kind always names the same
 * order (or payment); without a key, a new id.
 */
export function idFor(storeId: string, kind: string, key: string | undefined): string {
  if (!key) return randomUUID();
  const h = createHash('sha256').update(`${storeId}\u0000${kind}\u0000${key}`).digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
}

/** An Idempotency-Key header as used: trimmed, at most 200 characters, absent when empty. */
export function idempotencyKey(value: string | undefined): string | undefined {
  const k = value?.trim();
  return k ? k.slice(0, 200) : undefined;
}
