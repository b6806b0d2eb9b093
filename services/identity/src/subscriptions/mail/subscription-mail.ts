import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { deriveKey, KeyPurpose } from '@tiendita/service-kit';

/** What a link of a subscription mail does once the shopper presses its button on the shop's page. */
export type LinkPurpose = 'confirm' | 'unsubscribe';

/** The query value of each purpose in the shop's URL (?suscripcion=…). */
export const LINK_ACTION: Record<LinkPurpose, string> = { confirm: 'confirmar', unsubscribe: 'cancelar' };

/**
 * The two mails of a subscription, both with a fixed text: nothing a shopper or a store typed (a
 * name, a store name) goes into them, so the form cannot be used to send chosen words to anyone.
 * The link opens the store's page in the shop, which names the store and asks for a button press.
 */
export function composeSubscriptionMail(kind: LinkPurpose, to: string, link: string, from: string) {
  const lines =
    kind === 'confirm'
      ? [
          'Hola:',
          '',
          'Recibimos una solicitud para suscribir esta dirección a las ofertas de una tienda en Tiendita.',
          'Para confirmarla, abre este enlace y pulsa «Confirmar suscripción»:',
          link,
          '',
          'Si no fuiste tú, ignora este correo: no te suscribiremos.',
        ]
      : ['Hola:', '', 'Tu suscripción quedó confirmada.', 'Si ya no quieres recibir correos de esa tienda, abre este enlace y pulsa «Cancelar suscripción»:', link];
  const text = [...lines, '', '— Tiendita'].join('\n');
  const escaped = link.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const html = lines
    .filter((line) => line !== '')
    .map((line) => (line === link ? `<p><a href="${escaped}">${kind === 'confirm' ? 'Confirmar suscripción' : 'Cancelar suscripción'}</a></p>` : `<p>${line}</p>`))
    .join('\n');
  return { from, to, subject: kind === 'confirm' ? 'Confirma tu suscripción' : 'Tu suscripción está confirmada', text, html: `${html}\n<p>— Tiendita</p>` };
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

// The link key is derived from INTERNAL_SECRET for these tokens alone (HKDF, issue 26), never the secret itself.
const signature = (secret: string, purpose: LinkPurpose, subscriptionId: string) =>
  createHmac('sha256', deriveKey(secret, KeyPurpose.unsubscribe)).update(`${purpose}:${subscriptionId}`).digest('base64url');

/** `<subscriptionId>.<hmac>` for one purpose: only whoever received the mail can use it, and only for that. */
export function linkToken(secret: string, purpose: LinkPurpose, subscriptionId: string): string {
  return `${subscriptionId}.${signature(secret, purpose, subscriptionId)}`;
}

/** The subscription id of a valid token of that purpose, else null. */
export function verifyLinkToken(secret: string, purpose: LinkPurpose, token: string): string | null {
  const match = /^([0-9a-f-]{36})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const expected = Buffer.from(signature(secret, purpose, match[1]));
  const given = Buffer.from(match[2]);
  return expected.length === given.length && timingSafeEqual(expected, given) ? match[1] : null;
}

export const unsubscribeToken = (secret: string, subscriptionId: string): string => linkToken(secret, 'unsubscribe', subscriptionId);
export const verifyUnsubscribeToken = (secret: string, token: string): string | null => verifyLinkToken(secret, 'unsubscribe', token);
