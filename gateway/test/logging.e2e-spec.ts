import { Writable } from 'node:stream';
import { registerAndLogin, startStack, type Stack } from './support/stack';

/** The gateway's own log lines, read back: tokens never appear, API calls at info, the rest at debug. */
let stack: Stack;
const chunks: string[] = [];
const destination = new Writable({
  write(chunk: Buffer, _encoding, done) {
    chunks.push(chunk.toString('utf8'));
    done();
  },
});
const text = () => chunks.join('');
const lines = () =>
  text()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { level: string; msg: string; url?: string; status?: number });
const requestLine = (path: string) => lines().find((l) => l.msg === 'solicitud' && l.url?.split('?')[0] === path);

beforeAll(async () => {
  stack = await startStack({ services: ['identity', 'catalog'], gatewayEnv: { LOG_LEVEL: 'debug' }, gatewayOptions: { logDestination: destination } });
}, 60_000);
afterAll(() => stack?.stop());

/** The answer is sent before its line is written (onResponse): wait for the line. */
async function lineFor(path: string) {
  for (let i = 0; i < 100; i++) {
    const line = requestLine(path);
    if (line) return line;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`sin línea para ${path}`);
}

it('never logs a reset token, an unsubscribe token or an upload token', async () => {
  const owner = stack.client();
  await registerAndLogin(owner);
  const ticket = await owner.post('/api/upload', { filename: 'a.png', contentType: 'image/png' });
  const uploadToken = (ticket.body.uploadUrl as string).split('/').pop()!;
  expect(uploadToken.length).toBeGreaterThan(20);
  await stack.client().get('/reset-password?token=RESET-TOKEN-SECRETO');
  await stack.client().get('/api/public/unsubscribe?token=BAJA-TOKEN-SECRETO');
  await owner.put(ticket.body.uploadUrl, 'no es una imagen', { 'content-type': 'image/png' });
  await stack.client().post('/api/auth/reset-password', { token: 'CUERPO-TOKEN-SECRETO', password: 'Valida123', confirmPassword: 'Valida123' });
  await lineFor('/api/auth/reset-password');

  expect(text()).not.toMatch(/RESET-TOKEN-SECRETO|BAJA-TOKEN-SECRETO|CUERPO-TOKEN-SECRETO/);
  expect(text()).not.toContain(uploadToken);
  expect((await lineFor('/reset-password')).url).toBe('/reset-password?token=[oculto]');
  expect((await lineFor('/api/public/unsubscribe')).url).toBe('/api/public/unsubscribe?token=[oculto]');
  expect(lines().some((l) => l.msg === 'solicitud' && l.url === '/api/upload/direct/[oculto]')).toBe(true);
});

it('logs one line per API call at info, and static files and pages at debug', async () => {
  await stack.client().get('/api/public/store/no-existe');
  await stack.client().get('/assets/index-abc123.js');
  await stack.client().get('/favicon.ico');
  await stack.client().get('/dashboard');
  expect(await lineFor('/api/public/store/no-existe')).toMatchObject({ level: 'info', status: 404 });
  for (const path of ['/assets/index-abc123.js', '/favicon.ico', '/dashboard']) expect((await lineFor(path)).level).toBe('debug');
  expect(lines().filter((l) => l.msg === 'solicitud' && l.url === '/api/public/store/no-existe')).toHaveLength(1);
});
