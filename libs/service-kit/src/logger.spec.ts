import { Writable } from 'node:stream';
import { requestLogLevel } from './request-hooks';
import { createLogger, redactLogFields, redactSecrets, REDACTED } from './logger';

/** A pino destination that keeps every line. */
function capture(): { stream: Writable; lines: () => Record<string, unknown>[]; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString('utf8'));
      done();
    },
  });
  const text = () => chunks.join('');
  return { stream, text, lines: () => text().trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('redactSecrets', () => {
  it.each([
    ['/reset-password?token=abcDEF123_-', `/reset-password?token=${REDACTED}`],
    ['/api/public/unsubscribe?token=eyJ.abc.def&x=1', `/api/public/unsubscribe?token=${REDACTED}&x=1`],
    ['/x?a=1&resetToken=zzz#frag', `/x?a=1&resetToken=${REDACTED}#frag`],
    ['PUT /api/upload/direct/k3Jd9_aQ?x=1', `PUT /api/upload/direct/${REDACTED}?x=1`],
    ['https://tienda.gt/reset-password?token=abc mandado', `https://tienda.gt/reset-password?token=${REDACTED} mandado`],
    ['{"token":"abc\\"def","password":"Secreto123","email":"a@b.gt"}', `{"token":"${REDACTED}","password":"${REDACTED}","email":"a@b.gt"}`],
    ['/api/products?page=2&search=tokens', '/api/products?page=2&search=tokens'],
  ])('%s', (input, expected) => {
    expect(redactSecrets(input)).toBe(expected);
  });
});

describe('redactLogFields', () => {
  it('hides credential fields and scrubs strings at any depth, errors included', () => {
    const error = new Error('falló /reset-password?token=SECRETO1');
    const out = redactLogFields({ body: { token: 'SECRETO2', nested: [{ password: 'SECRETO3' }] }, headers: { cookie: 'tiendita.sid=SECRETO4' }, err: error }) as { body: { token: string }; err: { message: string; type: string } };
    const text = JSON.stringify(out);
    expect(text).not.toMatch(/SECRETO/);
    expect(out.body.token).toBe(REDACTED);
    expect(out.err.message).toBe(`falló /reset-password?token=${REDACTED}`);
    expect(out.err.type).toBe('Error');
  });

  it('copes with cycles', () => {
    const a: Record<string, unknown> = { url: '/x?token=y' };
    a.self = a;
    expect((redactLogFields(a) as Record<string, unknown>).url).toBe(`/x?token=${REDACTED}`);
  });
});

describe('createLogger', () => {
  it('never writes a reset or upload token, whether in a field, an error or the message', async () => {
    const out = capture();
    const logger = createLogger('prueba', 'debug', out.stream);
    logger.info({ method: 'GET', url: '/reset-password?token=RESET-SECRETO', status: 200 }, 'solicitud');
    logger.info({ url: '/api/upload/direct/SUBIDA-SECRETA' }, 'solicitud');
    logger.error({ err: new Error('no se pudo enviar https://x.gt/reset-password?token=RESET-SECRETO') }, 'correo fallido');
    logger.warn('enlace /api/public/unsubscribe?token=BAJA-SECRETA');
    logger.child({ reqId: 'r1' }).info({ body: { token: 'CUERPO-SECRETO', password: 'CLAVE' } }, 'cuerpo');
    await flush();
    expect(out.text()).not.toMatch(/SECRET|CLAVE/);
    const lines = out.lines();
    expect(lines).toHaveLength(5);
    expect(lines[0]).toMatchObject({ service: 'prueba', level: 'info', url: `/reset-password?token=${REDACTED}`, status: 200, msg: 'solicitud' });
    expect(lines[1].url).toBe(`/api/upload/direct/${REDACTED}`);
    expect(lines[3].msg).toBe(`enlace /api/public/unsubscribe?token=${REDACTED}`);
    expect(lines[4]).toMatchObject({ reqId: 'r1', body: { token: REDACTED, password: REDACTED } });
  });
});

describe('requestLogLevel', () => {
  it('logs API calls at info and everything else (health, static files, images) at debug', () => {
    expect(requestLogLevel('/api/products?page=1')).toBe('info');
    expect(requestLogLevel('/internal/auth/verify')).toBe('info');
    for (const url of ['/health', '/assets/index-abc123.js', '/favicon.ico', '/', '/dashboard', '/temp-uploads/products/a.png?w=400', '/objects/a.png']) {
      expect(requestLogLevel(url)).toBe('debug');
    }
  });
});
