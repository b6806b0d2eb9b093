import { AuthMessages } from '@tiendita/contracts';
import { newRegistration, startStack, type Stack, type StackClient } from './support/stack';

/**
 * No targeted lockout: failed logins slow or stop the guesser, never the owner. Production limits
 * (10 failures per account, 300 attempts per address), addresses taken from X-Forwarded-For
 * (TRUST_PROXY=1). The windows are a day long here so that no test straddles the end of a fixed
 * window (a 15-minute window ending mid-test would reset the counts it checks).
 */
let stack: Stack;
const SLOWDOWN_MS = 2000;
const tooMany = { message: AuthMessages.tooManyRequests, code: 'TOO_MANY_REQUESTS' };
let ipCounter = 0;

function browserAt(ip?: string): StackClient {
  ipCounter += 1;
  return stack.client({ forwardedFor: ip ?? `198.51.100.${ipCounter}` });
}

/** A second client at another address carrying the same browser's cookies (a laptop moving from home to the office). */
function sameBrowserAt(browser: StackClient, ip: string): StackClient {
  const moved = stack.client({ forwardedFor: ip });
  for (const [name, value] of browser.cookies) moved.cookies.set(name, value);
  return moved;
}

async function owner(): Promise<{ email: string; password: string }> {
  const registration = newRegistration();
  expect((await browserAt().post('/api/auth/register', registration)).status).toBe(201);
  return { email: registration.email, password: registration.password };
}

beforeAll(async () => {
  stack = await startStack({ productionRateLimits: true, gatewayEnv: { TRUST_PROXY: '1', RATE_LOGIN_SLOWDOWN_MS: String(SLOWDOWN_MS), RATE_LOGIN_ACCOUNT_WINDOW_MIN: '1440', RATE_LOGIN_IP_WINDOW_MIN: '1440' } });
}, 60_000);
afterAll(() => stack?.stop());

describe('ten wrong passwords do not lock the owner out', () => {
  it('stops the guesser with 429, while the owner signs in from a known browser (even at the guesser’s address) and from a fresh address', async () => {
    const { email, password } = await owner();
    // The owner signed in on this browser before, then signed out: the browser stays known.
    const ownerBrowser = browserAt('192.0.2.10');
    expect((await ownerBrowser.post('/api/auth/login', { email, password })).status).toBe(200);
    expect(ownerBrowser.cookie('tiendita.device')).toBeDefined();
    expect((await ownerBrowser.post('/api/auth/logout')).status).toBe(200);

    const guesserIp = '203.0.113.66';
    const guesser = browserAt(guesserIp);
    for (let i = 0; i < 10; i++) {
      const res = await guesser.post('/api/auth/login', { email, password: `intento-${i}` });
      expect(res.status).toBe(401);
    }
    for (const attempt of ['intento-10', password]) {
      const refused = await guesser.post('/api/auth/login', { email, password: attempt });
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject(tooMany);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.headers.getSetCookie()).toEqual([]);
    }

    // The owner's known browser, now behind the guesser's very address (same NAT), gets straight in.
    const known = sameBrowserAt(ownerBrowser, guesserIp);
    const started = performance.now();
    const fromKnown = await known.post('/api/auth/login', { email, password });
    expect(fromKnown.status).toBe(200);
    expect(performance.now() - started).toBeLessThan(SLOWDOWN_MS);
    expect((await known.get('/api/auth/user')).body.email).toBe(email);

    // A browser that never signed in, at an address with no failures: in, after the slowdown.
    const fresh = browserAt('192.0.2.77');
    const slowStart = performance.now();
    const fromFresh = await fresh.post('/api/auth/login', { email, password });
    expect(fromFresh.status).toBe(200);
    expect(performance.now() - slowStart).toBeGreaterThanOrEqual(SLOWDOWN_MS - 5);
  });

  it('marks the browser with a signed, HttpOnly, SameSite=Strict cookie sent only to the login call', async () => {
    const { email, password } = await owner();
    const res = await browserAt().post('/api/auth/login', { email, password });
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('tiendita.device='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    expect(cookie).toMatch(/Path=\/api\/auth\/login/);
    expect(Number(/Max-Age=(\d+)/i.exec(cookie)?.[1])).toBeGreaterThan(300 * 24 * 3600);
    // It never names the account in the clear.
    expect(decodeURIComponent(cookie)).not.toContain(email);
    expect(decodeURIComponent(cookie)).not.toContain(email.split('@')[0]);
  });

  it('a forged device cookie, or one from the guesser’s own account, is an unknown browser', async () => {
    const victim = await owner();
    const guesserAccount = await owner();
    const guesserIp = '203.0.113.67';
    const guesser = browserAt(guesserIp);
    // The guesser signs in to an account of its own: its browser is known, for that account only.
    expect((await guesser.post('/api/auth/login', guesserAccount)).status).toBe(200);
    for (let i = 0; i < 10; i++) expect((await guesser.post('/api/auth/login', { email: victim.email, password: `x${i}` })).status).toBe(401);
    expect((await guesser.post('/api/auth/login', victim)).status).toBe(429);

    const [id, tags, signature] = decodeURIComponent(guesser.cookie('tiendita.device')!).split('.');
    for (const forged of [`${id}.${tags}.${signature.slice(0, -2)}aa`, `${id}.${tags}-0123456789abcdef.${signature}`, 'basura']) {
      const client = stack.client({ forwardedFor: guesserIp });
      client.cookies.set('tiendita.device', encodeURIComponent(forged));
      expect((await client.post('/api/auth/login', victim)).status).toBe(429);
    }
  });

  it('a known browser has a failure limit of its own', async () => {
    const { email, password } = await owner();
    const browser = browserAt();
    expect((await browser.post('/api/auth/login', { email, password })).status).toBe(200);
    for (let i = 0; i < 10; i++) expect((await browser.post('/api/auth/login', { email, password: `mala-${i}` })).status).toBe(401);
    const refused = await browser.post('/api/auth/login', { email, password });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject(tooMany);
    // Those failures came from a known browser: the account is not under attack for anyone else.
    const elsewhere = browserAt();
    const started = performance.now();
    expect((await elsewhere.post('/api/auth/login', { email, password })).status).toBe(200);
    expect(performance.now() - started).toBeLessThan(SLOWDOWN_MS);
  });
});
