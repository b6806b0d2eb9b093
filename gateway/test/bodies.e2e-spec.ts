import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';
import { registerAndLogin, startStack, type Stack, type StackClient } from './support/stack';

/**
 * Bodies at the edge: JSON-only routes refuse anything else (413 above the JSON limit, 415 below,
 * never 500), and a refused upload closes its connection cleanly so the browser's next request on
 * a keep-alive connection works. Identity and catalog run; ordering does not (its public route is
 * refused before any call would be made).
 */
let stack: Stack;
let owner: StackClient;
const UPLOAD_LIMIT = 256 * 1024;
const TWO_MB = 2 * 1024 * 1024;
const tooLarge = { message: 'La solicitud es demasiado grande', code: 'PAYLOAD_TOO_LARGE' };
const unsupported = { message: 'Tipo de contenido no soportado: envía los datos como JSON', code: 'UNSUPPORTED_MEDIA_TYPE' };

beforeAll(async () => {
  stack = await startStack({ services: ['identity', 'catalog'], gatewayEnv: { UPLOAD_LIMIT_BYTES: String(UPLOAD_LIMIT) } });
  owner = stack.client();
  await registerAndLogin(owner);
}, 60_000);
afterAll(() => stack?.stop());

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** The local port of the connection it came on (same port = same keep-alive connection). */
  localPort: number;
}

/** One request on a node:http agent (keep-alive, like a browser), the body as bytes or as a stream (chunked). */
function send(agent: Agent, method: string, path: string, headers: Record<string, string>, body?: Buffer | Readable): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, stack.url);
    const req = httpRequest({ agent, method, hostname: url.hostname, port: url.port, path: url.pathname + url.search, headers: { origin: stack.url, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8'), localPort: req.socket?.localPort ?? 0 }));
      res.on('error', reject);
    });
    req.setTimeout(15_000, () => req.destroy(new Error('sin respuesta en 15 s')));
    req.on('error', reject);
    if (body instanceof Readable) body.pipe(req);
    else req.end(body);
  });
}

/** A body sent in chunks with no Content-Length (Transfer-Encoding: chunked). */
function chunked(total: number, chunk = 64 * 1024): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= total) return void this.push(null);
      const size = Math.min(chunk, total - sent);
      sent += size;
      this.push(Buffer.alloc(size, 0x61));
    },
  });
}

const cookieHeader = () => ({ cookie: [...owner.cookies].map(([k, v]) => `${k}=${v}`).join('; ') });

describe('JSON-only routes', () => {
  const publicWrites = ['/api/public/orders/demo', '/api/auth/login', '/api/auth/register', '/api/public/subscribe/demo', '/api/auth/forgot-password'];

  it.each(['text/plain', 'application/octet-stream', 'application/x-www-form-urlencoded'])('answer a 2 MB %s body with 413 and the Spanish message, never 500', async (type) => {
    for (const path of publicWrites) {
      const res = await stack.client().post(path, new Uint8Array(TWO_MB).fill(0x61), { 'content-type': type });
      expect({ path, status: res.status }).toEqual({ path, status: 413 });
      expect(res.body).toEqual(tooLarge);
    }
  });

  it('answer a 2 MB chunked body (no Content-Length) with 413 too', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (const path of ['/api/public/orders/demo', '/api/auth/login']) {
        const res = await send(agent, 'POST', path, { 'content-type': 'text/plain' }, chunked(TWO_MB));
        expect(res.status).toBe(413);
        expect(JSON.parse(res.body)).toEqual(tooLarge);
      }
    } finally {
      agent.destroy();
    }
  });

  it('answer a small body that is not JSON with 415, and an empty one as no body at all', async () => {
    for (const path of publicWrites) {
      const res = await stack.client().post(path, 'email=a@example.com', { 'content-type': 'text/plain' });
      expect({ path, status: res.status }).toEqual({ path, status: 415 });
      expect(res.body).toEqual(unsupported);
    }
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const res = await send(agent, 'POST', '/api/public/orders/demo', { 'content-type': 'text/plain' }, chunked(100));
      expect(res.status).toBe(415);
    } finally {
      agent.destroy();
    }
    // A logout with a stray content type and no body is still a logout.
    expect((await stack.client().post('/api/auth/logout', '', { 'content-type': 'text/plain' })).status).toBe(200);
  });

  it('refuse a non-JSON body on an owner route that is not an upload', async () => {
    const res = await owner.post('/api/products', 'nombre=Café', { 'content-type': 'text/plain' });
    expect(res.status).toBe(415);
    expect(res.body).toEqual(unsupported);
  });

  it('still take JSON bodies within the limit, and answer 413 above it', async () => {
    expect((await stack.client().post('/api/auth/login', { email: 'nadie@example.com', password: 'x' })).status).toBe(401);
    const big = await stack.client().post('/api/auth/login', { email: 'nadie@example.com', password: 'x'.repeat(TWO_MB) });
    expect(big.status).toBe(413);
    expect(big.body).toEqual(tooLarge);
  });
});

describe('an oversized upload', () => {
  async function uploadUrl(): Promise<string> {
    const ticket = await owner.post('/api/upload', { filename: 'grande.png', contentType: 'image/png' });
    expect(ticket.status).toBe(200);
    return ticket.body.uploadUrl as string;
  }

  it.each([
    ['with a Content-Length', () => Buffer.alloc(4 * UPLOAD_LIMIT, 1)],
    ['chunked', () => chunked(4 * UPLOAD_LIMIT)],
  ])('(%s) answers 413 with Connection: close, and the next request of the same keep-alive agent works', async (_name, body) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const url = await uploadUrl();
      const refused = await send(agent, 'PUT', url, { 'content-type': 'image/png', ...cookieHeader() }, body());
      expect(refused.status).toBe(413);
      expect(JSON.parse(refused.body)).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
      expect(refused.headers.connection).toBe('close');
      // The browser's next call, on the same agent.
      const next = await send(agent, 'GET', '/api/auth/user', cookieHeader());
      expect(next.status).toBe(200);
      expect(JSON.parse(next.body).email).toBeDefined();
    } finally {
      agent.destroy();
    }
  });

  it('a 413 for an oversized JSON body and a 401 for an upload without a session close cleanly too', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const big = await send(agent, 'POST', '/api/auth/login', { 'content-type': 'application/json' }, Buffer.alloc(TWO_MB, 0x20));
      expect(big.status).toBe(413);
      const anonymous = await send(agent, 'PUT', await uploadUrl(), { 'content-type': 'image/png' }, Buffer.alloc(2 * UPLOAD_LIMIT, 1));
      expect(anonymous.status).toBe(401);
      expect((await send(agent, 'GET', '/api/auth/user', cookieHeader())).status).toBe(200);
    } finally {
      agent.destroy();
    }
  });

  it('an upload within the limit still goes through to catalog', async () => {
    const sharp = (await import('sharp')).default;
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 10, g: 120, b: 10 } } }).png().toBuffer();
    const put = await owner.put(await uploadUrl(), new Uint8Array(png), { 'content-type': 'image/png' });
    expect(put.status).toBe(200);
  });
});
