import { createHmac } from 'node:crypto';
import { linkToken, verifyLinkToken } from './subscription-mail';

const secret = 'un-secreto-interno-de-prueba-largo';
const id = '0f8fad5b-d9cb-469f-a165-70867728950e';

describe('subscription link tokens use their own key derived from INTERNAL_SECRET (HKDF)', () => {
  it('verifies its own token, and refuses one signed with the bare secret', () => {
    const token = linkToken(secret, 'unsubscribe', id);
    expect(verifyLinkToken(secret, 'unsubscribe', token)).toBe(id);
    const bare = `${id}.${createHmac('sha256', secret).update(`unsubscribe:${id}`).digest('base64url')}`;
    expect(token).not.toBe(bare);
    expect(verifyLinkToken(secret, 'unsubscribe', bare)).toBeNull();
    expect(verifyLinkToken(secret, 'confirm', token)).toBeNull();
  });
});
