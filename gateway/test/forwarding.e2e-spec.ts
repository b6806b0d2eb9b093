import { bodySha256, InternalHeader, verifyInternalHeaders } from '@tiendita/service-kit';
import { TEST_INTERNAL_SECRET } from '@tiendita/service-kit/testing';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { startStack, type Stack } from './support/stack';

/** A stand-in service: answers what it received (method, url, headers, body size, signature check). */
let upstream: Server;
let upstreamUrl: string;
let stack: Stack;
/** Paths the stand-in was called with. */
const received: string[] = [];

/** Error answers of a service gone wrong: internal text that must never reach a browser. */
const BROKEN: Record<string, { status: number; type: string; body: string }> = {
  '/api/public/store/roto-json': {
    status: 500,
    type: 'application/json',
    body: JSON.stringify({ message: 'relation "catalog.products" does not exist', code: 'INTERNAL_ERROR' }),
  },
  '/api/public/store/roto-pila': {
    status: 500,
    type: 'application/json',
    body: JSON.stringify({ statusCode: 500, error: 'Internal Server Error', message: 'Error: at Pool.query (/app/node_modules/pg/lib/index.js:45)' }),
  },
  '/api/public/store/roto-html': { status: 502, type: 'text/html', body: '<html><body>nginx: upstream 10.0.3.7:3002 failed</body></html>' },
  '/api/public/store/roto-texto': { status: 504, type: 'text/plain', body: 'TypeError: Cannot read properties of undefined (secret=abc)' },
  '/api/public/store/ocupado': {
    status: 503,
    type: 'application/json',
    body: JSON.stringify({ message: 'Se guardó el stock (2), pero no los demás cambios.', code: 'SERVICE_UNAVAILABLE', details: { saved: { stock: 2 } } }),
  },
};

function echo(request: IncomingMessage, body: Buffer) {
  const streamed = request.headers[InternalHeader.contentSha256] === 'UNSIGNED-PAYLOAD';
  const caller = verifyInternalHeaders(TEST_INTERNAL_SECRET, { headers: request.headers, method: request.method!, url: request.url!, bodySha256: streamed ? undefined : bodySha256(body) });
  return { method: request.method, url: request.url, headers: request.headers, bodyBytes: body.length, bodyText: body.length < 2000 ? body.toString('utf8') : null, caller };
}

beforeAll(async () => {
  upstream = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      received.push(request.url ?? '');
      const broken = BROKEN[request.url ?? ''];
      if (broken) {
        response.writeHead(broken.status, { 'content-type': broken.type });
        response.end(broken.body);
        return;
      }
      const payload = JSON.stringify(echo(request, Buffer.concat(chunks)));
      if (request.url?.includes('/big')) {
        response.writeHead(200, { 'content-type': 'application/octet-stream' });
        response.end(Buffer.alloc(300 * 1024, 7));
        return;
      }
      response.writeHead(request.url?.includes('/teapot') ? 418 : 200, {
        'content-type': 'application/json',
        'set-cookie': 'upstream=1',
        'x-upstream': 'si',
        'cache-control': 'public, max-age=60',
      });
      response.end(payload);
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as { port: number }).port}`;
  // Every identity route of the table now reaches the stand-in (public routes need no login).
  stack = await startStack({ services: [], gatewayEnv: { IDENTITY_URL: upstreamUrl } });
}, 60_000);
afterAll(async () => {
  // Close the stand-in's sockets first: an upload the gateway cut at its limit can leave a request
  // to the stand-in half-open, and the gateway's pool waits for it when it closes.
  upstream.closeAllConnections();
  await new Promise((resolve) => upstream.close(resolve));
  await stack?.stop();
}, 30_000);

describe('forwarding to a service', () => {
  it('passes method, path and query through, signs the call as anonymous, and drops the browser’s cookies', async () => {
    const client = stack.client();
    client.cookies.set('tiendita.sid', 'algo');
    const res = await client.get('/api/public/store/demo?x=1&y=dos', { 'x-tiendita-store-id': 'forjado', 'x-request-id': 'req-123' });
    expect(res.status).toBe(200);
    expect(res.body.method).toBe('GET');
    expect(res.body.url).toBe('/api/public/store/demo?x=1&y=dos');
    expect(res.body.caller).toEqual({ userId: null, storeId: null });
    expect(res.body.headers[InternalHeader.storeId]).toBe('');
    expect(res.body.headers.cookie).toBeUndefined();
    expect(res.body.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(res.body.headers['x-request-id']).toBe('req-123');
  });

  it('drops every x-tiendita-* header the browser sent before signing: only the gateway speaks them', async () => {
    const forged = { 'x-tiendita-user-id': 'u-forjado', 'x-tiendita-nonce': 'ab'.repeat(16), 'x-tiendita-content-sha256': 'UNSIGNED-PAYLOAD', 'x-tiendita-rol': 'admin', 'X-Tiendita-Cualquiera': 'x' };
    const res = await stack.client().get('/api/public/store/demo', forged);
    expect(res.status).toBe(200);
    expect(res.body.caller).toEqual({ userId: null, storeId: null });
    const received = Object.entries(res.body.headers as Record<string, string>).filter(([name]) => name.startsWith('x-tiendita-'));
    expect(received.map(([name]) => name).sort()).toEqual(['x-tiendita-content-sha256', 'x-tiendita-nonce', 'x-tiendita-signature', 'x-tiendita-store-id', 'x-tiendita-timestamp', 'x-tiendita-user-id']);
    expect(Object.fromEntries(received)['x-tiendita-nonce']).not.toBe('ab'.repeat(16));
    expect(Object.fromEntries(received)['x-tiendita-user-id']).toBe('');
  });

  it('passes the service’s answer back: status, headers, body; never its cookies', async () => {
    const res = await stack.client().get('/api/public/store/teapot');
    expect(res.status).toBe(418);
    expect(res.headers.get('x-upstream')).toBe('si');
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
  });

  it('forwards a JSON body as the exact bytes received', async () => {
    const raw = '{"b": 2,  "a": "ñ"}';
    const res = await stack.client().post('/api/public/subscribe/demo', raw, { 'content-type': 'application/json' });
    expect(res.body.bodyText).toBe(raw);
    expect(res.body.headers['content-type']).toBe('application/json');
  });

  it('never streams a non-JSON body to a public route: 415 below the JSON limit, 413 above, and the service is not called', async () => {
    const before = received.length;
    const small = await stack.client().post('/api/public/subscribe/demo', new Uint8Array(400 * 1024), { 'content-type': 'application/octet-stream' });
    expect(small.status).toBe(415);
    expect(small.body).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
    const big = await stack.client().post('/api/public/subscribe/demo', new Uint8Array(1100 * 1024), { 'content-type': 'application/octet-stream' });
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect(received.length).toBe(before);
  });

  it('never passes a service’s 5xx text on: a generic Spanish answer instead', async () => {
    const generic = { message: 'Error interno del servidor', code: 'INTERNAL_ERROR' };
    const json = await stack.client().get('/api/public/store/roto-json');
    expect(json.status).toBe(500);
    expect(json.body).toEqual(generic);
    expect(json.text).not.toContain('relation');
    for (const path of ['/api/public/store/roto-pila', '/api/public/store/roto-html', '/api/public/store/roto-texto']) {
      const res = await stack.client().get(path);
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ message: 'Servicio no disponible, inténtalo de nuevo en un momento', code: 'SERVICE_UNAVAILABLE' });
      expect(res.text).not.toMatch(/nginx|10\.0\.3\.7|TypeError|secret|Pool\.query/);
    }
    // A 503 in the shared error body keeps the Spanish message and the details the service chose.
    const busy = await stack.client().get('/api/public/store/ocupado');
    expect(busy.status).toBe(503);
    expect(busy.body).toEqual({ message: 'Se guardó el stock (2), pero no los demás cambios.', code: 'SERVICE_UNAVAILABLE', details: { saved: { stock: 2 } } });
  });

  it('streams a large answer back whole', async () => {
    const res = await fetch(`${stack.url}/api/public/store/big`);
    expect(res.status).toBe(200);
    expect((await res.arrayBuffer()).byteLength).toBe(300 * 1024);
  });
});
