import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export interface SubscriptionMail {
  to: string;
  name: string;
  storeName: string;
  unsubscribeLink: string;
}

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The Spanish confirmation of a subscription, with its unsubscribe link (text and HTML). */
export function composeSubscriptionMail(mail: SubscriptionMail, from: string) {
  const text = [
    `Hola ${mail.name}:`,
    '',
    `Gracias por suscribirte a ${mail.storeName}. Te avisaremos de sus ofertas y novedades.`,
    '',
    'Si ya no quieres recibirlas, cancela tu suscripción con este enlace:',
    mail.unsubscribeLink,
    '',
    `— ${mail.storeName}, con Tiendita`,
  ].join('\n');
  const html = `<p>Hola ${escape(mail.name)}:</p>
<p>Gracias por suscribirte a <strong>${escape(mail.storeName)}</strong>. Te avisaremos de sus ofertas y novedades.</p>
<p>Si ya no quieres recibirlas, <a href="${escape(mail.unsubscribeLink)}">cancela tu suscripción</a>.</p>
<p>— ${escape(mail.storeName)}, con Tiendita</p>`;
  return { from, to: mail.to, subject: `Te suscribiste a ${mail.storeName}`, text, html };
}

/**
 * The subscription id of a store and e-mail: a name-based uuid (sha256, version bits of v5), so
 * one address has one subscription stream per store without a lookup table.
 */
export function subscriptionIdOf(storeId: string, email: string): string {
  const h = createHash('sha256').update(`${storeId}\n${email.toLowerCase()}`).digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

const signature = (secret: string, subscriptionId: string) =>
  createHmac('sha256', secret).update(`unsubscribe:${subscriptionId}`).digest('base64url');

/** `<subscriptionId>.<hmac>`: only whoever received the mail can leave with it. */
export function unsubscribeToken(secret: string, subscriptionId: string): string {
  return `${subscriptionId}.${signature(secret, subscriptionId)}`;
}

/** The subscription id of a valid token, else null. */
export function verifyUnsubscribeToken(secret: string, token: string): string | null {
  const match = /^([0-9a-f-]{36})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const expected = Buffer.from(signature(secret, match[1]));
  const given = Buffer.from(match[2]);
  return expected.length === given.length && timingSafeEqual(expected, given) ? match[1] : null;
}
