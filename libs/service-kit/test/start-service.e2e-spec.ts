import { createTestDatabase, TEST_INTERNAL_SECRET, type TestDatabase } from '@tiendita/service-kit/testing';
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');
const fixture = join(__dirname, 'fixtures', 'start-service.fixture.ts');

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

function start(env: Record<string, string>): { child: ChildProcess; done: Promise<Outcome> } {
  const child = spawn(process.execPath, ['-r', join(root, 'scripts', 'lib', 'swc-register.cjs'), fixture], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', TIENDITA_REGISTER_SRC: '1', LOG_LEVEL: 'info', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (c) => (stdout += c));
  child.stderr?.on('data', (c) => (stderr += c));
  const done = new Promise<Outcome>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  return { child, done };
}

async function listen(server: Server, port = 0): Promise<number> {
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db?.drop();
});

describe('startService, run as a real process', () => {
  it('stops on a missing variable with one line naming it and exit code 1', async () => {
    const { done } = start({ INTERNAL_SECRET: TEST_INTERNAL_SECRET });
    const outcome = await done;
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toBe('Configuración inválida: DATABASE_URL es requerida\n');
  });

  it('stops on an unreachable database with one line and exit code 1', async () => {
    const probe = createServer();
    const port = await listen(probe);
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const { done } = start({ DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/nada`, INTERNAL_SECRET: TEST_INTERNAL_SECRET, PORT: '0' });
    const outcome = await done;
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toBe(`No se puede conectar a la base de datos 127.0.0.1:${port}/nada: connect ECONNREFUSED 127.0.0.1:${port}\n`);
  });

  it('stops on a busy port with one line and exit code 1', async () => {
    const squatter = createServer();
    const port = await listen(squatter);
    try {
      const { done } = start({ DATABASE_URL: db.url, INTERNAL_SECRET: TEST_INTERNAL_SECRET, PORT: String(port) });
      const outcome = await done;
      expect(outcome.code).toBe(1);
      expect(outcome.stderr).toBe(`El puerto ${port} ya está en uso\n`);
    } finally {
      await new Promise<void>((resolve) => squatter.close(() => resolve()));
    }
  });

  it('serves /health, logs JSON lines, and exits 0 on SIGTERM', async () => {
    const probe = createServer();
    const port = await listen(probe);
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const { child, done } = start({ DATABASE_URL: db.url, INTERNAL_SECRET: TEST_INTERNAL_SECRET, PORT: String(port) });
    let body: unknown = null;
    for (let i = 0; i < 100 && body === null; i++) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/health`);
        body = await res.json();
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    expect(body).toEqual({ status: 'ok', service: 'fixture', ready: true });
    child.kill('SIGTERM');
    const outcome = await done;
    expect(outcome.code).toBe(0);
    const lines = outcome.stdout.trim().split('\n').map((l) => JSON.parse(l) as { service: string; msg: string });
    expect(lines.every((l) => l.service === 'fixture')).toBe(true);
    expect(lines.map((l) => l.msg)).toEqual(expect.arrayContaining([`fixture escuchando en http://127.0.0.1:${port}`, 'deteniendo']));
  });
});
