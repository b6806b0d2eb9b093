import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';

/** What @fastify/session expects of a signer (the shape of @fastify/cookie's Signer). */
export interface CookieSigner {
  sign(value: string): string;
  unsign(signedValue: string): { valid: boolean; renew: boolean; value: string | null };
}

/** How many signed and verified values each memo keeps (a session cookie is ~80 bytes). */
const MEMO_ENTRIES = 5000;

function remember(memo: Map<string, string>, key: string, value: string): void {
  // Oldest first out: a Map iterates in insertion order.
  if (memo.size >= MEMO_ENTRIES) memo.delete(memo.keys().next().value as string);
  memo.set(key, value);
}

/**
 * The session cookie's signer: `<sid>.<HMAC-SHA256 of sid, base64 without padding>`, the format of
 * @fastify/cookie's Signer (cookies signed by either verify with the other), with the key imported
 * once and both directions remembered. @fastify/session signs the id of every session it builds
 * and verifies the cookie of every request, two HMACs per call; the same few cookies come back
 * call after call. A remembered value is only ever one this signer computed or verified itself:
 * a cookie whose signature does not verify is never remembered, so made-up cookies cost an HMAC
 * each, as before, and cannot crowd out the real ones for longer than the memo's size.
 */
export class MemoCookieSigner implements CookieSigner {
  private readonly key: KeyObject;
  private readonly signed = new Map<string, string>();
  private readonly verified = new Map<string, string>();

  constructor(secret: string) {
    this.key = createSecretKey(Buffer.from(secret, 'utf8'));
  }

  private mac(value: string): string {
    return createHmac('sha256', this.key).update(value).digest('base64').replace(/=+$/, '');
  }

  sign(value: string): string {
    if (typeof value !== 'string') throw new TypeError('Cookie value must be provided as a string.');
    const known = this.signed.get(value);
    if (known !== undefined) return known;
    const signedValue = `${value}.${this.mac(value)}`;
    remember(this.signed, value, signedValue);
    return signedValue;
  }

  unsign(signedValue: string): { valid: boolean; renew: boolean; value: string | null } {
    if (typeof signedValue !== 'string') throw new TypeError('Signed cookie string must be provided.');
    const known = this.verified.get(signedValue);
    if (known !== undefined) return { valid: true, renew: false, value: known };
    const dot = signedValue.lastIndexOf('.');
    if (dot <= 0 || dot === signedValue.length - 1) return { valid: false, renew: false, value: null };
    const value = signedValue.slice(0, dot);
    const actual = Buffer.from(signedValue.slice(dot + 1));
    const expected = Buffer.from(this.mac(value));
    if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return { valid: false, renew: false, value: null };
    remember(this.verified, signedValue, value);
    return { valid: true, renew: false, value };
  }
}
