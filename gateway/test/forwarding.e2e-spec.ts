import { InternalHeader, verifyInternalHeaders } from '@tiendita/service-kit';
import { TEST_INTERNAL_SECRET } from '@tiendita/service-kit/testing';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { startStack, type Stack } from './support/stack';

/** A stand-in service: answers what it received (method, url, headers, body size, signature check). */
let upstream: Server;
let upstreamUrl: string;
let stack: Stack;

function echo(request: IncomingMessage, body: Buffer) {
  const caller = verifyInternalHeaders(TEST_INTERNAL_SECRET, { headers: request.headers, method: request.method!, url: request.url! } as never);
  return { method: request.method, url: request.url, headers: request.headers, bodyBytes: body.length, bodyText: body.length < 2000 ? body.toString('utf8') : null, caller };
}

beforeAll(async () => {
  upstream = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
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
  stack = await startStack({ services: [], gatewayEnv: { IDENTITY_URL: upstreamUrl, UPLOAD_LIMIT_BYTES: String(512 * 1024) } });
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

  it('streams other bodies (uploads) through, and cuts them at UPLOAD_LIMIT_BYTES with 413', async () => {
    const ok = await stack.client().post('/api/public/subscribe/demo', new Uint8Array(400 * 1024), { 'content-type': 'application/octet-stream' });
    expect(ok.status).toBe(200);
    expect(ok.body.bodyBytes).toBe(400 * 1024);
    const tooBig = await stack.client().post('/api/public/subscribe/demo', new Uint8Array(600 * 1024), { 'content-type': 'application/octet-stream' });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });

  it('streams a large answer back whole', async () => {
    const res = await fetch(`${stack.url}/api/public/store/big`);
    expect(res.status).toBe(200);
    expect((await res.arrayBuffer()).byteLength).toBe(300 * 1024);
  });
});
