import { ConfigError, parseConfig } from '@tiendita/service-kit';
import { readdirSync, readFileSync } from 'node:fs';
import { identityConfigShape } from '../src/config';
import { ARGON2_OPTIONS, hashPassword, verifyPassword } from '../src/shared/passwords';

/** Nice value of each thread of this process (Linux: field 19 of /proc/self/task/<tid>/stat). */
function threadNiceValues(): number[] {
  return readdirSync('/proc/self/task').map((tid) => Number(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ')[16]));
}

describe('passwords (argon2id on threads of their own)', () => {
  it('hashes with argon2id at 7 MiB × 5 passes and verifies only the right password', async () => {
    const hash = await hashPassword('Secreto123');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=7168,t=5,p=1\$/);
    expect(ARGON2_OPTIONS).toMatchObject({ memoryCost: 7168, timeCost: 5, parallelism: 1 });
    expect(await verifyPassword(hash, 'Secreto123')).toBe(true);
    expect(await verifyPassword(hash, 'secreto123')).toBe(false);
  });

  it('answers false for a missing or malformed hash', async () => {
    expect(await verifyPassword(null, 'Secreto123')).toBe(false);
    expect(await verifyPassword('no-es-un-hash', 'Secreto123')).toBe(false);
    // The pool still works after a refused hash.
    expect(await verifyPassword(await hashPassword('otra'), 'otra')).toBe(true);
  });

  it('answers each of many verifications at once with its own result, in a queue', async () => {
    const [a, b] = await Promise.all([hashPassword('uno-Uno1'), hashPassword('dos-Dos2')]);
    const checks = [
      [a, 'uno-Uno1', true],
      [b, 'dos-Dos2', true],
      [a, 'dos-Dos2', false],
      [b, 'uno-Uno1', false],
      [a, 'uno-Uno1', true],
      [b, 'x', false],
    ] as const;
    const results = await Promise.all(checks.map(([hash, password]) => verifyPassword(hash, password)));
    expect(results).toEqual(checks.map(([, , ok]) => ok));
  });

  it('runs argon2 on threads 10 nice steps below the main thread, which keeps its priority', async () => {
    const mainNice = () => Number(readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ')[16]);
    const before = mainNice();
    await hashPassword('Secreto123');
    expect(threadNiceValues()).toContain(Math.min(19, before + 10));
    expect(mainNice()).toBe(before);
  });
});

describe('ARGON2_NICE', () => {
  const env = { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/tiendita', INTERNAL_SECRET: '0123456789abcdef', PUBLIC_URL: 'https://tiendita.example' };

  it('is 10 unless set, and takes 0 to 19', () => {
    expect(parseConfig(identityConfigShape, env).ARGON2_NICE).toBe(10);
    expect(parseConfig(identityConfigShape, { ...env, ARGON2_NICE: '0' }).ARGON2_NICE).toBe(0);
    expect(parseConfig(identityConfigShape, { ...env, ARGON2_NICE: '19' }).ARGON2_NICE).toBe(19);
  });

  it.each(['20', '-1', '2.5', 'bajo'])('refuses %s with a Spanish message', (value) => {
    expect(() => parseConfig(identityConfigShape, { ...env, ARGON2_NICE: value })).toThrow(ConfigError);
    expect(() => parseConfig(identityConfigShape, { ...env, ARGON2_NICE: value })).toThrow('Configuración inválida: ARGON2_NICE debe ser un número entero de 0 a 19');
  });
});
