import { TEST_INTERNAL_SECRET } from '@tiendita/service-kit/testing';
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');

/** Runs a process's real entry point (src/main.ts through swc) and collects how it ended. */
function run(main: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['-r', join(root, 'scripts', 'lib', 'swc-register.cjs'), join(root, main)], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', TIENDITA_REGISTER_SRC: '1', LOG_LEVEL: 'info', HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  // A process that starts after all (the defect) is stopped, so the test fails instead of leaving it running.
  const timer = setTimeout(() => child.kill('SIGTERM'), 30_000);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

// Reset links, captions and previews are built from PUBLIC_URL only: a process that would have to
// fall back to a request's Host header does not start.
describe.each(['gateway/src/main.ts', 'services/identity/src/main.ts', 'services/catalog/src/main.ts'])('%s without PUBLIC_URL', (main) => {
  it('stops at start-up with one line naming it and exit code 1', async () => {
    const outcome = await run(main, { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/postgres', INTERNAL_SECRET: TEST_INTERNAL_SECRET });
    expect(outcome).toEqual({ code: 1, stdout: '', stderr: 'Configuración inválida: PUBLIC_URL es requerida\n' });
  }, 60_000);
});
