import { createSecretKey, hkdfSync, type KeyObject } from 'node:crypto';

/**
 * What each key derived from INTERNAL_SECRET is for (HKDF's `info`): a signature made for one use
 * never verifies for another, and no part of Tiendita signs with the shared secret itself.
 */
export const KeyPurpose = {
  /** The gateway's signature of an internal call (service-kit's internal-auth). */
  internalCall: 'tiendita/internal-call-signature/v1',
  /** The token of a subscriber's unsubscribe link (identity). */
  unsubscribe: 'tiendita/unsubscribe-token/v1',
  /** The relay's signature of a Kafka message (eventsourcing's Kafka transport). */
  kafkaMessage: 'tiendita/kafka-message-signature/v1',
  /** The signature of a receipt's public link, sent to the customer by WhatsApp (ordering). */
  receiptLink: 'tiendita/receipt-link-signature/v1',
} as const;
export type KeyPurpose = (typeof KeyPurpose)[keyof typeof KeyPurpose];

const SALT = 'tiendita/INTERNAL_SECRET';

// Derived once per secret and purpose: a process holds one INTERNAL_SECRET (tests a few).
const derived = new Map<string, KeyObject>();

/** The 256-bit HMAC key for `purpose`, derived from the deployment's secret with HKDF-SHA256. */
export function deriveKey(secret: string, purpose: KeyPurpose): KeyObject {
  const id = `${purpose}\u0000${secret}`;
  let key = derived.get(id);
  if (!key) {
    if (derived.size >= 64) derived.clear();
    key = createSecretKey(Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), SALT, purpose, 32)));
    derived.set(id, key);
  }
  return key;
}
