import { createHash, randomBytes } from 'node:crypto';

/** A reset token: 32 random bytes (256 bits), base64url, for the mailed link only. */
export function newResetToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What is stored instead of the token: its sha256, hex. */
export function hashResetToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** How long a reset link works. */
export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;
