import { AuthMessages } from '@tiendita/contracts';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { Mailbox, type ReceivedMail } from './support/mailbox';
import { newRegistration, registerAndLogin, startStack, type Stack, type StackClient } from './support/stack';

/** identity's clock, moved forward by the expiry test. */
let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };

let stack: Stack;
let mailbox: Mailbox;

beforeAll(async () => {
  mailbox = await new Mailbox().start();
  stack = await startStack({ serviceEnv: { identity: { SMTP_URL: mailbox.url } }, serviceOptions: { identity: { clock } } });
}, 60_000);
afterAll(async () => {
  await stack?.stop();
  await mailbox?.stop();
});
afterEach(() => {
  offsetMs = 0;
});

function tokenFrom(mail: ReceivedMail): { link: string; token: string } {
  const match = /(https?:\/\/[^\s"<>]+\/reset-password\?token=([A-Za-z0-9_-]+))/.exec(mail.decoded);
  if (!match) throw new Error(`sin enlace en el correo:\n${mail.decoded}`);
  return { link: match[1], token: match[2] };
}

async function requestLink(email: string): Promise<{ link: string; token: string; mail: ReceivedMail }> {
  const res = await stack.client().post('/api/auth/forgot-password', { email });
  expect(res.status).toBe(200);
  const mail = await mailbox.next();
  return { ...tokenFrom(mail), mail };
}

async function newOwner(): Promise<{ email: string; password: string; client: StackClient; userId: string }> {
  const client = stack.client();
  const { registration, userId } = await registerAndLogin(client);
  return { email: registration.email, password: registration.password, client, userId };
}

describe('POST /api/auth/forgot-password', () => {
  it('mails a Spanish message with a link to /reset-password?token=… through SMTP', async () => {
    const { email } = await newOwner();
    const { link, token, mail } = await requestLink(email);
    expect(mail.to).toEqual([email]);
    expect(mail.subject).toBe('Restablece tu contraseña de Tiendita');
    expect(mail.decoded).toContain('Recibimos una solicitud para restablecer la contraseña');
    expect(mail.decoded).toContain('El enlace vence en 1 hora');
    expect(link).toBe(`${stack.publicUrl}/reset-password?token=${token}`);
    // 32 random bytes in base64url: 43 characters, 256 bits.
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('answers the same for a known and an unknown e-mail, and mails only the known one', async () => {
    const { email } = await newOwner();
    const known = await stack.client().post('/api/auth/forgot-password', { email });
    const unknown = await stack.client().post('/api/auth/forgot-password', { email: 'nadie-conocido@example.com' });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual(known.body);
    expect(known.body).toEqual({ message: AuthMessages.forgotPasswordSent });
    const mail = await mailbox.next();
    expect(mail.to).toEqual([email]);
    await new Promise((r) => setTimeout(r, 300));
    expect(mailbox.received).toEqual([]);
  });

  it('builds the link from PUBLIC_URL, never from a forged Host header', async () => {
    const { email } = await newOwner();
    // What an attacker sends straight to the gateway: their own site as Host and Origin.
    const body = JSON.stringify({ email });
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        `${stack.url}/api/auth/forgot-password`,
        { method: 'POST', headers: { host: 'evil.example', origin: 'http://evil.example', 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    expect(status).toBe(200);
    const mail = await mailbox.next();
    expect(mail.to).toEqual([email]);
    expect(mail.decoded).not.toContain('evil.example');
    const { link, token } = tokenFrom(mail);
    expect(link).toBe(`${stack.publicUrl}/reset-password?token=${token}`);
  });

  it('answers a known address at once, before any of the work (token, event, mail) is done', async () => {
    const { email } = await newOwner();
    // While this lock is held no reset token can be recorded: an answer that waited for the work would hang.
    const lock = await stack.pool.connect();
    let answers: Awaited<ReturnType<StackClient['post']>>[];
    try {
      await lock.query('BEGIN');
      await lock.query('LOCK TABLE identity.reset_token_lookup IN ACCESS EXCLUSIVE MODE');
      const asked = Promise.all([
        stack.client().post('/api/auth/forgot-password', { email }),
        stack.client().post('/api/auth/forgot-password', { email: newRegistration().email }),
      ]);
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error('forgot-password esperó al trabajo antes de responder')), 3000);
      });
      try {
        answers = await Promise.race([asked, late]);
      } finally {
        clearTimeout(timer);
      }
      expect(mailbox.received).toEqual([]);
    } finally {
      await lock.query('ROLLBACK');
      lock.release();
    }
    const [known, unknown] = answers;
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.body).toEqual({ message: AuthMessages.forgotPasswordSent });
    expect(unknown.body).toEqual(known.body);
    expect(unknown.headers.get('content-length')).toBe(known.headers.get('content-length'));
    // The work happens after the answer: the mail still arrives.
    const mail = await mailbox.next();
    expect(mail.to).toEqual([email]);
    tokenFrom(mail);
  });

  it('50 requests for one account append one reset event and send one mail, not 50', async () => {
    const { email, userId } = await newOwner();
    const answers = await Promise.all(Array.from({ length: 50 }, () => stack.client().post('/api/auth/forgot-password', { email })));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    const { token } = tokenFrom(await mailbox.next());
    await expect(mailbox.next(1000)).rejects.toThrow('no llegó ningún correo');
    const events = await stack.pool.query(`SELECT data FROM identity.events WHERE stream_id = $1 AND type = 'PasswordResetRequested'`, [`user-${userId}`]);
    expect(events.rows).toHaveLength(1);
    // The one link mailed is the one recorded.
    expect(events.rows[0].data.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    // The requests that appended nothing leave no lookup row behind either.
    let rows = -1;
    for (let i = 0; i < 100 && rows !== 1; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 50));
      rows = (await stack.pool.query('SELECT count(*)::int AS n FROM identity.reset_token_lookup WHERE user_id = $1', [userId])).rows[0].n;
    }
    expect(rows).toBe(1);
  });

  it('validates the e-mail: Email inválido', async () => {
    const res = await stack.client().post('/api/auth/forgot-password', { email: 'no-es-email' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message: 'Email inválido', code: 'VALIDATION_ERROR' });
  });

  it('keeps only the sha256 of the token in the database, never the token', async () => {
    const { email, userId } = await newOwner();
    const { token } = await requestLink(email);
    const hash = createHash('sha256').update(token).digest('hex');
    const lookup = await stack.pool.query('SELECT token_hash FROM identity.reset_token_lookup WHERE user_id = $1', [userId]);
    expect(lookup.rows.map((r) => r.token_hash)).toContain(hash);
    const event = await stack.pool.query(`SELECT data FROM identity.events WHERE stream_id = $1 AND type = 'PasswordResetRequested'`, [`user-${userId}`]);
    expect(event.rows[0].data.tokenHash).toBe(hash);
    // Nowhere in the whole database does the token itself appear.
    const dump = await stack.pool.query(`
      SELECT string_agg(t::text, ' ') AS everything FROM (
        SELECT row_to_json(e)::text AS t FROM identity.events e
        UNION ALL SELECT row_to_json(r)::text FROM identity.reset_token_lookup r
        UNION ALL SELECT row_to_json(u)::text FROM identity.users u
        UNION ALL SELECT row_to_json(s)::text FROM gateway.sessions s
      ) x`);
    expect(dump.rows[0].everything).toContain(hash);
    expect(dump.rows[0].everything).not.toContain(token);
  });
});

describe('POST /api/auth/reset-password', () => {
  it('sets the new password: the old one stops working, the new one works', async () => {
    const { email, password } = await newOwner();
    const { token } = await requestLink(email);
    const res = await stack.client().post('/api/auth/reset-password', { token, password: 'NuevaClave9', confirmPassword: 'NuevaClave9' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: AuthMessages.passwordChanged });
    expect(res.text).not.toMatch(/userId/);
    expect((await stack.client().post('/api/auth/login', { email, password })).status).toBe(401);
    expect((await stack.client().post('/api/auth/login', { email, password: 'NuevaClave9' })).status).toBe(200);
  });

  it('ends every session of that user', async () => {
    const { email, password, client } = await newOwner();
    const other = stack.client();
    await other.post('/api/auth/login', { email, password });
    expect((await client.get('/api/auth/user')).status).toBe(200);
    expect((await other.get('/api/auth/user')).status).toBe(200);
    const bystander = stack.client();
    await registerAndLogin(bystander);

    const { token } = await requestLink(email);
    expect((await stack.client().post('/api/auth/reset-password', { token, password: 'OtraClave77', confirmPassword: 'OtraClave77' })).status).toBe(200);

    expect((await client.get('/api/auth/user')).status).toBe(401);
    expect((await other.get('/api/auth/user')).status).toBe(401);
    expect((await other.get('/api/store')).status).toBe(401);
    // Someone else's session is untouched.
    expect((await bystander.get('/api/auth/user')).status).toBe(200);
  });

  it('accepts a token once only', async () => {
    const { email } = await newOwner();
    const { token } = await requestLink(email);
    const first = await stack.client().post('/api/auth/reset-password', { token, password: 'Primera123', confirmPassword: 'Primera123' });
    expect(first.status).toBe(200);
    const second = await stack.client().post('/api/auth/reset-password', { token, password: 'Segunda123', confirmPassword: 'Segunda123' });
    expect(second.status).toBe(400);
    expect(second.body).toMatchObject({ message: 'El enlace de recuperación no es válido o ha expirado.', code: 'VALIDATION_ERROR' });
    expect((await stack.client().post('/api/auth/login', { email, password: 'Primera123' })).status).toBe(200);
  });

  it('lets only one of two simultaneous uses of a token through', async () => {
    const { email } = await newOwner();
    const { token } = await requestLink(email);
    const results = await Promise.all(
      ['Carrera111', 'Carrera222', 'Carrera333'].map((p) => stack.client().post('/api/auth/reset-password', { token, password: p, confirmPassword: p })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400]);
  });

  it('refuses a token after its hour: El enlace de recuperación no es válido o ha expirado.', async () => {
    const { email, password } = await newOwner();
    const { token } = await requestLink(email);
    offsetMs = 60 * 60 * 1000 + 1000;
    const res = await stack.client().post('/api/auth/reset-password', { token, password: 'Tarde12345', confirmPassword: 'Tarde12345' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message: 'El enlace de recuperación no es válido o ha expirado.' });
    offsetMs = 0;
    expect((await stack.client().post('/api/auth/login', { email, password })).status).toBe(200);
  });

  it('still accepts a token just before the hour ends', async () => {
    const { email } = await newOwner();
    const { token } = await requestLink(email);
    offsetMs = 59 * 60 * 1000;
    const res = await stack.client().post('/api/auth/reset-password', { token, password: 'Justo12345', confirmPassword: 'Justo12345' });
    expect(res.status).toBe(200);
  });

  it('refuses an invented token', async () => {
    const res = await stack.client().post('/api/auth/reset-password', { token: 'x'.repeat(43), password: 'Valida123', confirmPassword: 'Valida123' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(AuthMessages.invalidResetToken);
  });

  it.each([
    [{ password: 'Ab1', confirmPassword: 'Ab1' }, 'La contraseña debe tener al menos 6 caracteres', 'password'],
    [{ password: 'sinmayuscula1', confirmPassword: 'sinmayuscula1' }, 'Debe contener al menos una mayúscula', 'password'],
    [{ password: 'SinNumeros', confirmPassword: 'SinNumeros' }, 'Debe contener al menos un número', 'password'],
    [{ password: 'Valida123', confirmPassword: '' }, 'Confirma tu contraseña', 'confirmPassword'],
    [{ password: 'Valida123', confirmPassword: 'Distinta123' }, 'Las contraseñas no coinciden', 'confirmPassword'],
  ])('validates %j: %s', async (body, message, field) => {
    const { email } = await newOwner();
    const { token } = await requestLink(email);
    const res = await stack.client().post('/api/auth/reset-password', { token, ...body });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message, code: 'VALIDATION_ERROR' });
    expect(res.body.details.fields[field]).toBe(message);
    // A refused attempt does not spend the token.
    expect((await stack.client().post('/api/auth/reset-password', { token, password: 'Buena12345', confirmPassword: 'Buena12345' })).status).toBe(200);
  });
});

describe('without SMTP_URL', () => {
  it('writes the mail under DATA_DIR/mail/ (npm start works offline)', async () => {
    const offline = await startStack();
    try {
      const client = offline.client();
      const { registration } = await registerAndLogin(client);
      expect((await client.post('/api/auth/forgot-password', { email: registration.email })).status).toBe(200);
      const dir = join(offline.dataDir, 'mail');
      let files: string[] = [];
      for (let i = 0; i < 100 && files.length === 0; i++) {
        files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.eml')) : [];
        if (files.length === 0) await new Promise((r) => setTimeout(r, 20));
      }
      expect(files).toHaveLength(1);
      expect(files[0]).toContain(registration.email);
      const eml = readFileSync(join(dir, files[0]), 'utf8').replace(/=\r?\n/g, '');
      expect(eml).toContain(`To: ${registration.email}`);
      expect(eml).toMatch(/reset-password\?token=3D[A-Za-z0-9_-]{43}|reset-password\?token=[A-Za-z0-9_-]{43}/);
    } finally {
      await offline.stop();
    }
  });
});

it('uses PUBLIC_URL for the link when it is set', async () => {
  const withUrl = await startStack({ serviceEnv: { identity: { SMTP_URL: mailbox.url, PUBLIC_URL: 'https://tiendita.example.gt' } } });
  try {
    const client = withUrl.client();
    const { registration } = await registerAndLogin(client);
    await client.post('/api/auth/forgot-password', { email: registration.email });
    const { link } = tokenFrom(await mailbox.next());
    expect(link.startsWith('https://tiendita.example.gt/reset-password?token=')).toBe(true);
  } finally {
    await withUrl.stop();
  }
});

it('the reset e-mail never reaches an unregistered address even with a valid-looking request', async () => {
  const email = newRegistration().email;
  await stack.client().post('/api/auth/forgot-password', { email });
  await expect(mailbox.next(500)).rejects.toThrow('no llegó ningún correo');
});
