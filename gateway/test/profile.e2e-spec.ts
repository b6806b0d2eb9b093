import { AuthMessages } from '@tiendita/contracts';
import { registerAndLogin, startStack, type Stack, type StackClient } from './support/stack';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
}, 60_000);
afterAll(() => stack?.stop());

/** A new owner signed in on two browsers (two cookie jars): `here` and `elsewhere`. */
async function ownerOnTwoDevices(): Promise<{ email: string; password: string; here: StackClient; elsewhere: StackClient }> {
  const here = stack.client();
  const { registration } = await registerAndLogin(here);
  const elsewhere = stack.client();
  expect((await elsewhere.post('/api/auth/login', { email: registration.email, password: registration.password })).status).toBe(200);
  return { email: registration.email, password: registration.password, here, elsewhere };
}

describe('POST /api/auth/change-password', () => {
  it('refuses a wrong current password with 400 in Spanish and keeps the old password and every session', async () => {
    const { email, password, here, elsewhere } = await ownerOnTwoDevices();
    const res = await here.post('/api/auth/change-password', { currentPassword: 'NoEsLaMia1', newPassword: 'Nueva1234' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message: AuthMessages.currentPasswordWrong, code: 'VALIDATION_ERROR' });
    expect((await here.get('/api/auth/user')).status).toBe(200);
    expect((await elsewhere.get('/api/auth/user')).status).toBe(200);
    expect((await stack.client().post('/api/auth/login', { email, password })).status).toBe(200);
    expect((await stack.client().post('/api/auth/login', { email, password: 'Nueva1234' })).status).toBe(401);
  });

  it('applies the reset rules to the new password (400 with the same Spanish message)', async () => {
    const { password, here } = await ownerOnTwoDevices();
    const res = await here.post('/api/auth/change-password', { currentPassword: password, newPassword: 'sinmayuscula1' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(AuthMessages.passwordUppercase);
  });

  it('changes the password: the old one no longer signs in, the new one does; this session stays and the other ends', async () => {
    const { email, password, here, elsewhere } = await ownerOnTwoDevices();
    const res = await here.post('/api/auth/change-password', { currentPassword: password, newPassword: 'Nueva1234' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: AuthMessages.passwordUpdated, endedSessions: 1 });
    const me = await here.get('/api/auth/user');
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(email);
    expect((await elsewhere.get('/api/auth/user')).status).toBe(401);
    expect((await stack.client().post('/api/auth/login', { email, password })).status).toBe(401);
    expect((await stack.client().post('/api/auth/login', { email, password: 'Nueva1234' })).status).toBe(200);
  });

  it('stops guessing: past the failures allowed, 429 in Spanish even with the right password', async () => {
    const limited = await startStack({ gatewayEnv: { RATE_LOGIN_FAILURES_PER_ACCOUNT: '2' } });
    try {
      const here = limited.client();
      const { registration } = await registerAndLogin(here);
      for (const guess of ['Adivina111', 'Adivina222']) {
        expect((await here.post('/api/auth/change-password', { currentPassword: guess, newPassword: 'Nueva1234' })).status).toBe(400);
      }
      const res = await here.post('/api/auth/change-password', { currentPassword: registration.password, newPassword: 'Nueva1234' });
      expect(res.status).toBe(429);
      expect(res.body.message).toBe(AuthMessages.tooManyRequests);
      expect((await limited.client().post('/api/auth/login', { email: registration.email, password: registration.password })).status).toBe(200);
    } finally {
      await limited.stop();
    }
  }, 60_000);

  it('needs a session', async () => {
    const res = await stack.client().post('/api/auth/change-password', { currentPassword: 'Secreto123', newPassword: 'Nueva1234' });
    expect(res.status).toBe(401);
  });
});

describe('POST /api/auth/sessions/revoke-others', () => {
  it('ends every other session of the user, says how many, and keeps this one', async () => {
    const { email, password, here, elsewhere } = await ownerOnTwoDevices();
    const third = stack.client();
    expect((await third.post('/api/auth/login', { email, password })).status).toBe(200);
    // Another owner's session is not touched.
    const stranger = stack.client();
    await registerAndLogin(stranger);

    const res = await here.post('/api/auth/sessions/revoke-others');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: AuthMessages.otherSessionsEnded, endedSessions: 2 });
    expect((await here.get('/api/auth/user')).status).toBe(200);
    expect((await elsewhere.get('/api/auth/user')).status).toBe(401);
    expect((await third.get('/api/auth/user')).status).toBe(401);
    expect((await stranger.get('/api/auth/user')).status).toBe(200);
    // The password is unchanged.
    expect((await stack.client().post('/api/auth/login', { email, password })).status).toBe(200);
  });
});
