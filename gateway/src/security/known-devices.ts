import type { FastifyReply, FastifyRequest } from 'fastify';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Name of the long-lived cookie that marks a browser that has signed in before. */
export const DEVICE_COOKIE = 'tiendita.device';
/** Sent only to the login call: no other request carries it. */
export const DEVICE_COOKIE_PATH = '/api/auth/login';
/** Accounts one browser remembers (the most recent first). */
const MAX_ACCOUNTS = 5;

/** What the login call knows of the browser: its device id (if it has a valid cookie) and whether it signed in to this account before. */
export interface DeviceView {
  /** The device id of a valid cookie, else null. */
  id: string | null;
  /** This browser signed in to this account before (a valid cookie naming it). */
  known: boolean;
  /** Account tags of the cookie, most recent first. */
  accounts: string[];
}

/**
 * Device cookies (OWASP's answer to targeted lockout): a successful login leaves a signed cookie
 * naming the account (an HMAC tag of the e-mail, not the e-mail) and a random device id. A later
 * login to that account from this browser is judged by its own counter, not by the account's
 * failures from unknown browsers, so nobody can lock the owner out by failing on purpose.
 * Value: `<device id>.<tag>-<tag>….<signature>`, signed with a key derived from the session secret.
 */
export class KnownDevices {
  private readonly key: Buffer;

  constructor(
    secret: string,
    private readonly cookie: { secure: boolean | 'auto'; maxAgeDays: number },
  ) {
    this.key = createHmac('sha256', secret).update('tiendita device cookie').digest();
  }

  /** The tag of an account in the cookie: 16 hex characters of an HMAC of the e-mail. */
  accountTag(email: string): string {
    return createHmac('sha256', this.key).update(`account:${email.trim().toLowerCase()}`).digest('hex').slice(0, 16);
  }

  private sign(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }

  /** Reads the browser's device cookie (an invalid or forged one counts as none) for a login to `email`. */
  read(request: FastifyRequest, email: string): DeviceView {
    const raw = (request.cookies as Record<string, string | undefined> | undefined)?.[DEVICE_COOKIE];
    const none: DeviceView = { id: null, known: false, accounts: [] };
    if (typeof raw !== 'string' || raw.length > 512) return none;
    const parts = raw.split('.');
    if (parts.length !== 3) return none;
    const [id, tags, signature] = parts;
    const expected = Buffer.from(this.sign(`${id}.${tags}`));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return none;
    const accounts = tags === '' ? [] : tags.split('-');
    return { id, known: accounts.includes(this.accountTag(email)), accounts };
  }

  /** After a successful login: remember this account on this browser (a new device id if it had none). */
  remember(reply: FastifyReply, device: DeviceView, email: string): void {
    const id = device.id ?? randomBytes(16).toString('base64url');
    const tag = this.accountTag(email);
    const accounts = [tag, ...device.accounts.filter((t) => t !== tag)].slice(0, MAX_ACCOUNTS);
    const body = `${id}.${accounts.join('-')}`;
    reply.setCookie(DEVICE_COOKIE, `${body}.${this.sign(body)}`, {
      path: DEVICE_COOKIE_PATH,
      httpOnly: true,
      sameSite: 'strict',
      secure: this.cookie.secure,
      maxAge: this.cookie.maxAgeDays * 24 * 60 * 60,
    });
  }
}
