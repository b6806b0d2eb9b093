import { INTERNAL_SIGNATURE_MAX_AGE_MS, signInternalHeaders, verifyInternalHeaders } from './internal-auth';

const secret = 'un-secreto-de-prueba-largo';

function request(headers: Record<string, string>, method = 'POST', url = '/products?page=2') {
  return { headers, method, url };
}

describe('internal call signature', () => {
  it('accepts what signInternalHeaders produced, ignoring the query string', () => {
    const headers = signInternalHeaders(secret, { method: 'post', path: '/products', userId: 'u1', storeId: 's1' });
    expect(verifyInternalHeaders(secret, request(headers))).toEqual({ userId: 'u1', storeId: 's1' });
  });

  it('gives null ids for an anonymous public call', () => {
    const headers = signInternalHeaders(secret, { method: 'GET', path: '/public/demo/products' });
    expect(verifyInternalHeaders(secret, request(headers, 'GET', '/public/demo/products'))).toEqual({ userId: null, storeId: null });
  });

  it('refuses a changed user, store, method or path, and another secret', () => {
    const headers = signInternalHeaders(secret, { method: 'POST', path: '/products', userId: 'u1', storeId: 's1' });
    expect(verifyInternalHeaders(secret, request({ ...headers, 'x-tiendita-store-id': 's2' }))).toBeNull();
    expect(verifyInternalHeaders(secret, request({ ...headers, 'x-tiendita-user-id': 'u2' }))).toBeNull();
    expect(verifyInternalHeaders(secret, request(headers, 'DELETE'))).toBeNull();
    expect(verifyInternalHeaders(secret, request(headers, 'POST', '/orders'))).toBeNull();
    expect(verifyInternalHeaders('otro-secreto-de-prueba-largo', request(headers))).toBeNull();
  });

  it('refuses stale and far-future timestamps', () => {
    const now = Date.now();
    const old = signInternalHeaders(secret, { method: 'GET', path: '/x', timestamp: now - INTERNAL_SIGNATURE_MAX_AGE_MS - 1000 });
    const future = signInternalHeaders(secret, { method: 'GET', path: '/x', timestamp: now + INTERNAL_SIGNATURE_MAX_AGE_MS + 1000 });
    expect(verifyInternalHeaders(secret, request(old, 'GET', '/x'), now)).toBeNull();
    expect(verifyInternalHeaders(secret, request(future, 'GET', '/x'), now)).toBeNull();
  });

  it('refuses unsigned and malformed signatures', () => {
    expect(verifyInternalHeaders(secret, request({}))).toBeNull();
    const headers = signInternalHeaders(secret, { method: 'POST', path: '/products' });
    expect(verifyInternalHeaders(secret, request({ ...headers, 'x-tiendita-signature': 'abc' }))).toBeNull();
    expect(verifyInternalHeaders(secret, request({ ...headers, 'x-tiendita-timestamp': 'ayer' }))).toBeNull();
  });
});
