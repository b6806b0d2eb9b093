import { AuthMessages } from '@tiendita/contracts';
import { parseConfig } from '@tiendita/service-kit';
import { testEnv } from '@tiendita/service-kit/testing';
import { gatewayConfigShape } from '../src/config';
import { Mailbox } from './support/mailbox';
import { newRegistration, startStack, StackClient, type Stack } from './support/stack';

let stack: Stack;
let mailbox: Mailbox;
let ipCounter = 0;

/** A client coming from its own address (the gateway trusts X-Forwarded-For with TRUST_PROXY=1). */
function fromNewIp(): StackClient {
  ipCounter += 1;
  return stack.client({ forwardedFor: `203.0.113.${ipCounter}` });
}

/** Ends every current window: what waiting would do (an ended window no longer counts, and the sweeper drops it). */
async function letWindowsPass(): Promise<void> {
  await stack.pool.query(`DELETE FROM gateway.rate_limits`);
}

const tooMany = { message: AuthMessages.tooManyRequests, code: 'TOO_MANY_REQUESTS' };

beforeAll(async () => {
  mailbox = await new Mailbox().start();
  stack = await startStack({
    productionRateLimits: true,
    serviceEnv: { identity: { SMTP_URL: mailbox.url } },
    gatewayEnv: {
      TRUST_PROXY: '1',
      RATE_LOGIN_PER_IP: '5',
      RATE_LOGIN_FAILURES_PER_ACCOUNT: '3',
      RATE_LOGIN_SLOWDOWN_MS: '50',
      RATE_REGISTER_PER_IP: '3',
      RATE_REGISTER_PER_ACCOUNT: '2',
      RATE_FORGOT_PER_IP: '3',
      RATE_FORGOT_PER_ACCOUNT: '2',
      RATE_RESET_PER_IP: '3',
      RATE_RESET_PER_TOKEN: '2',
      RATE_SUBSCRIBE_PER_IP: '10',
    },
  });
}, 60_000);
afterAll(async () => {
  await stack?.stop();
  await mailbox?.stop();
});
beforeEach(() => letWindowsPass());

async function registered(): Promise<{ email: string; password: string }> {
  const registration = newRegistration();
  expect((await fromNewIp().post('/api/auth/register', registration)).status).toBe(201);
  return { email: registration.email, password: registration.password };
}

describe('login', () => {
  it('limits attempts per IP: 429 with the Spanish message and Retry-After', async () => {
    const client = fromNewIp();
    for (let i = 0; i < 5; i++) expect((await client.post('/api/auth/login', { email: `x${i}@example.com`, password: 'nope' })).status).toBe(401);
    const res = await client.post('/api/auth/login', { email: 'x@example.com', password: 'nope' });
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject(tooMany);
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(10 * 60);
    // Another address is not affected.
    expect((await fromNewIp().post('/api/auth/login', { email: 'x@example.com', password: 'nope' })).status).toBe(401);
  });

  it('once an account’s failures are full, refuses an address that failed (even with the right password) but lets a clean one in', async () => {
    const { email, password } = await registered();
    const guesser = fromNewIp();
    for (let i = 0; i < 3; i++) expect((await guesser.post('/api/auth/login', { email, password: 'mala' })).status).toBe(401);
    const blocked = await guesser.post('/api/auth/login', { email, password });
    expect(blocked.status).toBe(429);
    expect(blocked.body).toMatchObject(tooMany);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    // An address with no failed login of its own still signs in: nobody can lock the owner out.
    expect((await fromNewIp().post('/api/auth/login', { email, password })).status).toBe(200);
    // The guesser's address can still sign in to another account whose failures are not full.
    const other = await registered();
    expect((await guesser.post('/api/auth/login', other)).status).toBe(200);
  });

  it('never locks anyone out for good: once the window has passed the guesser’s address signs in too', async () => {
    const { email, password } = await registered();
    const guesser = fromNewIp();
    for (let i = 0; i < 3; i++) await guesser.post('/api/auth/login', { email, password: 'mala' });
    expect((await guesser.post('/api/auth/login', { email, password })).status).toBe(429);
    await letWindowsPass();
    expect((await guesser.post('/api/auth/login', { email, password })).status).toBe(200);
  });

  it('counts an IPv6 /64 as one address', async () => {
    const prefix = '2001:db8:77:1';
    for (let i = 1; i <= 5; i++) {
      const res = await stack.client({ forwardedFor: `${prefix}::${i.toString(16)}` }).post('/api/auth/login', { email: `v6-${i}@example.com`, password: 'x' });
      expect(res.status).toBe(401);
    }
    const sameNetwork = await stack.client({ forwardedFor: `${prefix}:ffff:ffff:ffff:fffe` }).post('/api/auth/login', { email: 'v6@example.com', password: 'x' });
    expect(sameNetwork.status).toBe(429);
    expect(sameNetwork.body).toMatchObject(tooMany);
    // The next /64 is another subscriber.
    expect((await stack.client({ forwardedFor: '2001:db8:77:2::1' }).post('/api/auth/login', { email: 'v6@example.com', password: 'x' })).status).toBe(401);
    const rows = await stack.pool.query(`SELECT bucket FROM gateway.rate_limits WHERE bucket LIKE 'login:ip:2001:db8:77:%'`);
    expect(rows.rows.map((r) => r.bucket).sort()).toEqual(['login:ip:2001:db8:77:1::/64', 'login:ip:2001:db8:77:2::/64']);
  });

  it('counts an IPv6 /64 as one address for the shop’s subscriptions too', async () => {
    const prefix = '2001:db8:78:1';
    // Identity answers 404 for an unknown store; the limit is counted before the call.
    for (let i = 1; i <= 10; i++) await stack.client({ forwardedFor: `${prefix}::${i}` }).post('/api/public/subscribe/no-existe', { email: 'a@example.com' });
    const res = await stack.client({ forwardedFor: `${prefix}::abcd` }).post('/api/public/subscribe/no-existe', { email: 'a@example.com' });
    expect(res.status).toBe(429);
  });

  it('successful logins do not count as failures', async () => {
    const { email, password } = await registered();
    for (let i = 0; i < 4; i++) expect((await fromNewIp().post('/api/auth/login', { email, password })).status).toBe(200);
  });

  it('the defaults allow at most 100 failed logins per account in any hour, and at least one try every 15 minutes', () => {
    const config = parseConfig(gatewayConfigShape, testEnv('postgres://localhost/x'));
    const windowsTouchingAnHour = Math.ceil(60 / config.RATE_LOGIN_ACCOUNT_WINDOW_MIN) + 1;
    expect(config.RATE_LOGIN_FAILURES_PER_ACCOUNT * windowsTouchingAnHour).toBeLessThanOrEqual(100);
    expect(config.RATE_LOGIN_ACCOUNT_WINDOW_MIN).toBeLessThanOrEqual(60);
  });

  it('the per-address defaults leave room for many people behind one shared address (a carrier NAT, a shop Wi-Fi), and still cap a flood', () => {
    const config = parseConfig(gatewayConfigShape, testEnv('postgres://localhost/x'));
    // A hundred people signing in within ten minutes, or a day of sign-ups at one café, are not refused.
    expect(config.RATE_LOGIN_PER_IP).toBeGreaterThanOrEqual(100);
    expect(config.RATE_REGISTER_PER_IP).toBeGreaterThanOrEqual(50);
    expect(config.RATE_SUBSCRIBE_PER_IP).toBeGreaterThanOrEqual(20);
    // A single address still cannot send thousands per window.
    for (const limit of [config.RATE_LOGIN_PER_IP, config.RATE_REGISTER_PER_IP, config.RATE_FORGOT_PER_IP, config.RATE_RESET_PER_IP, config.RATE_SUBSCRIBE_PER_IP]) {
      expect(limit).toBeLessThanOrEqual(1000);
    }
  });
});

describe('register', () => {
  it('limits registrations per IP', async () => {
    const client = fromNewIp();
    for (let i = 0; i < 3; i++) expect((await client.post('/api/auth/register', newRegistration())).status).toBe(201);
    const res = await client.post('/api/auth/register', newRegistration());
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject(tooMany);
    expect(res.headers.get('retry-after')).toBeTruthy();
  });

  it('limits attempts per account (e-mail)', async () => {
    const email = newRegistration().email;
    expect((await fromNewIp().post('/api/auth/register', newRegistration({ email }))).status).toBe(201);
    expect((await fromNewIp().post('/api/auth/register', newRegistration({ email }))).status).toBe(409);
    expect((await fromNewIp().post('/api/auth/register', newRegistration({ email }))).status).toBe(429);
  });
});

describe('forgot-password', () => {
  it('limits requests per IP and per account', async () => {
    const client = fromNewIp();
    for (let i = 0; i < 3; i++) expect((await client.post('/api/auth/forgot-password', { email: `n${i}@example.com` })).status).toBe(200);
    expect((await client.post('/api/auth/forgot-password', { email: 'n@example.com' })).status).toBe(429);

    const { email } = await registered();
    expect((await fromNewIp().post('/api/auth/forgot-password', { email })).status).toBe(200);
    expect((await fromNewIp().post('/api/auth/forgot-password', { email })).status).toBe(200);
    const res = await fromNewIp().post('/api/auth/forgot-password', { email });
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject(tooMany);
    // Only the first allowed request sent mail: the second, moments later, adds no new link (the first mail is on its way).
    await mailbox.next();
    await expect(mailbox.next(400)).rejects.toThrow();
  });
});

describe('reset-password', () => {
  it('limits attempts per IP and per token', async () => {
    const client = fromNewIp();
    const body = { password: 'Valida123', confirmPassword: 'Valida123' };
    for (let i = 0; i < 3; i++) expect((await client.post('/api/auth/reset-password', { ...body, token: `inventado${i}` })).status).toBe(400);
    expect((await client.post('/api/auth/reset-password', { ...body, token: 'otro' })).status).toBe(429);

    for (let i = 0; i < 2; i++) expect((await fromNewIp().post('/api/auth/reset-password', { ...body, token: 'mismo-token' })).status).toBe(400);
    const res = await fromNewIp().post('/api/auth/reset-password', { ...body, token: 'mismo-token' });
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject(tooMany);
  });
});

it('counts the address the proxy saw, not one a client adds to X-Forwarded-For', async () => {
  const ip = '192.0.2.200';
  for (let i = 0; i < 5; i++) await stack.client({ forwardedFor: ip }).post('/api/auth/login', { email: `s${i}@example.com`, password: 'x' });
  const spoofed = stack.client({ forwardedFor: `10.9.9.9, ${ip}` });
  expect((await spoofed.post('/api/auth/login', { email: 's@example.com', password: 'x' })).status).toBe(429);
});

it('keeps the counters in PostgreSQL, so a second gateway sees the same limits', async () => {
  const { createApp } = await import('../src/app');
  const second = await createApp(
    testEnv(stack.db.url, {
      IDENTITY_URL: stack.services.identity!.url,
      TRUST_PROXY: '1',
      RATE_LOGIN_PER_IP: '5',
      WEB_DIST_DIR: '/nonexistent',
    }),
  );
  try {
    await second.listen({ port: 0, host: '127.0.0.1' });
    const address = second.getHttpServer().address() as { port: number };
    const url = `http://127.0.0.1:${address.port}`;
    const ip = '198.51.100.77';
    const first = stack.client({ forwardedFor: ip });
    for (let i = 0; i < 5; i++) await first.post('/api/auth/login', { email: `g${i}@example.com`, password: 'x' });
    const other = new StackClient(url, { forwardedFor: ip });
    const res = await other.post('/api/auth/login', { email: 'g@example.com', password: 'x' });
    expect(res.status).toBe(429);
  } finally {
    await second.close();
  }
});
