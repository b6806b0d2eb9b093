import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * The certifier's credentials at rest: AES-256-GCM under a key derived (HKDF-SHA256) from
 * INTERNAL_SECRET, so a copy of the database alone does not reveal them. Stored as
 * 'v1.<iv>.<tag>.<ciphertext>' (base64url).
 */
export class CredentialsCipher {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = Buffer.from(hkdfSync('sha256', secret, 'tiendita-fel', 'fel-credentials-v1', 32));
  }

  encrypt(value: Record<string, string>): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), data].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
  }

  decrypt(stored: string | null): Record<string, string> {
    if (!stored) return {};
    const [version, iv, tag, data] = stored.split('.');
    if (version !== 'v1') return {};
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return JSON.parse(Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8')) as Record<string, string>;
    } catch {
      // A key changed (another INTERNAL_SECRET): the credentials must be typed again.
      return {};
    }
  }
}
