import { createHmac, hkdfSync } from 'node:crypto';
import { bodySha256, INTERNAL_SIGNATURE_MAX_AGE_MS, newNonce, NonceCache, signInternalHeaders, UNSIGNED_PAYLOAD, verifyInternalHeaders } from './internal-auth';

const secret = 'un-secreto-de-prueba-largo';
const body = JSON.stringify({ name: 'Martillo', price: 45 });

function call(headers: Record<string, string>, method = 'POST', url = '/products?page=2', sent: string | null = body) {
  return { headers, method, url, bodySha256: sent === null ? undefined : bodySha256(sent) };
}

describe('internal call signature (v2: method, path and query, body hash, time, nonce)', () => {
  it('accepts what signInternalHeaders produced', () => {
    const headers = signInternalHeaders(secret, { method: 'post', path: '/products?page=2', userId: 'u1', storeId: 's1', body });
    expect(verifyInternalHeaders(secret, call(headers), Date.now(), new NonceCache())).toEqual({ userId: 'u1', storeId: 's1' });
  });

  it('gives nulls to an anonymous call without a body', () => {
    const headers = signInternalHeaders(secret, { method: 'GET', path: '/public/demo/products' });
    expect(verifyInternalHeaders(secret, call(headers, 'GET', '/public/demo/products', null), Date.now(), new NonceCache())).toEqual({ userId: null, storeId: null });
  });

  it('refuses a changed user, store, method, path, query or body', () => {
    const headers = signInternalHeaders(secret, { method: 'POST', path: '/products?page=2', userId: 'u1', storeId: 's1', body });
    const fresh = () => new NonceCache();
    expect(verifyInternalHeaders(secret, call({ ...headers, 'x-tiendita-store-id': 's2' }), Date.now(), fresh())).toBeNull();
    expect(verifyInternalHeaders(secret, call({ ...headers, 'x-tiendita-user-id': 'u2' }), Date.now(), fresh())).toBeNull();
    expect(verifyInternalHeaders(secret, call(headers, 'DELETE'), Date.now(), fresh())).toBeNull();
    expect(verifyInternalHeaders(secret, call(headers, 'POST', '/orders?page=2'), Date.now(), fresh())).toBeNull();
    expect(verifyInternalHeaders(secret, call(headers, 'POST', '/products?page=3'), Date.now(), fresh())).toBeNull();
    expect(verifyInternalHeaders(secret, call(headers, 'POST', '/products?page=2', JSON.stringify({ name: 'Martillo', price: 0 })), Date.now(), fresh())).toBeNull();
    expect(verifyInternalHeaders('otro-secreto-de-prueba-largo', call(headers), Date.now(), fresh())).toBeNull();
  });

  it('refuses the same signed call a second time (the nonce is used once)', () => {
    const nonces = new NonceCache();
    const headers = signInternalHeaders(secret, { method: 'POST', path: '/products?page=2', userId: 'u1', storeId: 's1', body });
    expect(verifyInternalHeaders(secret, call(headers), Date.now(), nonces)).not.toBeNull();
    expect(verifyInternalHeaders(secret, call(headers), Date.now(), nonces)).toBeNull();
  });

  it('forgets a nonce only once its call is too old to pass anyway, and holds no more than the window', () => {
    const nonces = new NonceCache();
    const t = 1_000_000;
    for (let i = 0; i < 5000; i++) expect(nonces.use(`n${i}`, t + i)).toBe(true);
    expect(nonces.use('n0', t + 2 * INTERNAL_SIGNATURE_MAX_AGE_MS)).toBe(false);
    expect(nonces.size).toBe(5000);
    // Past twice the window every one of them has expired: the next call sweeps them all.
    expect(nonces.use('late', t + 5000 + 2 * INTERNAL_SIGNATURE_MAX_AGE_MS + 1)).toBe(true);
    expect(nonces.size).toBe(1);
    // A clock that steps back never lets an entry expire before one added earlier.
    expect(nonces.use('earlier-clock', t)).toBe(true);
    expect(nonces.use('late', t)).toBe(false);
  });

  it('refuses stale and future calls beyond the short window', () => {
    const now = Date.now();
    const old = signInternalHeaders(secret, { method: 'GET', path: '/x', timestamp: now - INTERNAL_SIGNATURE_MAX_AGE_MS - 1000 });
    const future = signInternalHeaders(secret, { method: 'GET', path: '/x', timestamp: now + INTERNAL_SIGNATURE_MAX_AGE_MS + 1000 });
    expect(verifyInternalHeaders(secret, call(old, 'GET', '/x', null), now, new NonceCache())).toBeNull();
    expect(verifyInternalHeaders(secret, call(future, 'GET', '/x', null), now, new NonceCache())).toBeNull();
  });

  it('lets a streamed upload go unhashed, but never a JSON body', () => {
    const upload = signInternalHeaders(secret, { method: 'PUT', path: '/api/upload/direct/a.png', userId: 'u1', storeId: 's1', body: UNSIGNED_PAYLOAD });
    expect(verifyInternalHeaders(secret, { headers: { ...upload, 'content-type': 'image/png' }, method: 'PUT', url: '/api/upload/direct/a.png' }, Date.now(), new NonceCache())).not.toBeNull();
    const json = signInternalHeaders(secret, { method: 'POST', path: '/products', body: UNSIGNED_PAYLOAD });
    expect(verifyInternalHeaders(secret, { headers: { ...json, 'content-type': 'application/json' }, method: 'POST', url: '/products' }, Date.now(), new NonceCache())).toBeNull();
  });

  it('refuses missing or malformed headers', () => {
    expect(verifyInternalHeaders(secret, call({}), Date.now(), new NonceCache())).toBeNull();
    const headers = signInternalHeaders(secret, { method: 'POST', path: '/products?page=2', body });
    expect(verifyInternalHeaders(secret, call({ ...headers, 'x-tiendita-signature': 'abc' }), Date.now(), new NonceCache())).toBeNull();
    expect(verifyInternalHeaders(secret, call({ ...headers, 'x-tiendita-timestamp': 'ayer' }), Date.now(), new NonceCache())).toBeNull();
  });
  it('signs v2 as HMAC-SHA256 over the fields joined by newlines, with a key HKDF derives from the secret for internal calls alone', () => {
    const key = (s: string) => Buffer.from(hkdfSync('sha256', s, 'tiendita/INTERNAL_SECRET', 'tiendita/internal-call-signature/v1', 32));
    const headers = signInternalHeaders(secret, { method: 'get', path: '/api/inventory?page=2', userId: 'u1', storeId: 's1', timestamp: 1_700_000_000_000, nonce: 'ab'.repeat(16) });
    const fields = ['v2', '1700000000000', 'ab'.repeat(16), 'GET', '/api/inventory?page=2', 'u1', 's1', bodySha256(null)].join('\n');
    expect(headers['x-tiendita-signature']).toBe(createHmac('sha256', key(secret)).update(fields).digest('hex'));
    // Never the shared secret itself.
    expect(headers['x-tiendita-signature']).not.toBe(createHmac('sha256', secret).update(fields).digest('hex'));
    // Another secret in the same process gets its own key.
    const other = signInternalHeaders('otro-secreto-de-prueba-largo', { method: 'GET', path: '/x', timestamp: 1, nonce: 'cd'.repeat(16) });
    expect(other['x-tiendita-signature']).toBe(createHmac('sha256', key('otro-secreto-de-prueba-largo')).update(['v2', '1', 'cd'.repeat(16), 'GET', '/x', '', '', bodySha256(null)].join('\n')).digest('hex'));
  });

  it('gives every call a fresh 128-bit nonce, across the blocks of random bytes they are cut from', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const nonce = newNonce();
      expect(nonce).toMatch(/^[0-9a-f]{32}$/);
      seen.add(nonce);
    }
    expect(seen.size).toBe(2000);
    const a = signInternalHeaders(secret, { method: 'GET', path: '/x' });
    const b = signInternalHeaders(secret, { method: 'GET', path: '/x' });
    expect(a['x-tiendita-nonce']).not.toBe(b['x-tiendita-nonce']);
  });
});
