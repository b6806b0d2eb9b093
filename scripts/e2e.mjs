// `npm run test:e2e`: the browser journeys against the whole stack.
// Builds, starts `node scripts/start.mjs` on a fresh temporary DATA_DIR (and a fresh database) and a
// free PORT, waits for /health, runs `node --test e2e/`, then stops the stack. Screenshots of failed
// journeys and the stack's log land in test-results/.
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { chmodSync, copyFileSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/* global AbortSignal */

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { freePortBlock } = require('./lib/free-ports.cjs');
const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const resultsDir = join(root, 'test-results');
const STARTUP_TIMEOUT_MS = 240_000;

function say(line) {
  process.stdout.write(`[e2e] ${line}\n`);
}

if (!existsSync(chromium)) {
  say(`No se encontró chromium en ${chromium} (instálalo con apt-get install chromium, o define CHROMIUM_PATH)`);
  process.exit(1);
}

// ---- build -----------------------------------------------------------------------------------
const build = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) {
  say('La compilación falló');
  process.exit(1);
}

// ---- a free port block: the gateway on PORT, the services on PORT+1 … PORT+6 ----------------------
const port = await freePortBlock(7);
const dataDir = mkdtempSync(join(tmpdir(), 'tiendita-e2e-'));
// When run as root the embedded PostgreSQL runs as the postgres user, which must be able to enter it.
chmodSync(dataDir, 0o755);

// ---- a fresh database: a new one on DATABASE_URL's server, else start.mjs's embedded one in DATA_DIR
const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: process.env.LOG_LEVEL || 'warn' };
// The journeys order from one address, some with the same phone: the public orders' fairness limits (issue 26) stay out of their way.
Object.assign(env, { RATE_ORDER_PER_IP: '1000', ORDER_RATE_PER_PHONE: '1000', ORDER_MAX_PENDING_PER_PHONE: '1000' });
// The FEL journey watches a receipt go from 'Factura en proceso de certificación' to certified: the sandbox certifier answers after 4 s.
env.FEL_SANDBOX_DELAY_MS ??= '4000';
delete env.SMTP_URL; // reset mails go to DATA_DIR/mail/, where the journeys read them
// Mailed links point at the address the browser uses (never taken from a request's Host).
env.PUBLIC_URL = `http://127.0.0.1:${port}`;
let dropDatabase = async () => undefined;
if (process.env.DATABASE_URL) {
  const pg = require('pg');
  const admin = new URL(process.env.DATABASE_URL);
  const name = `tiendita_e2e_${Date.now().toString(36)}`;
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  env.DATABASE_URL = url.toString();
  dropDatabase = async () => {
    const c = new pg.Client({ connectionString: admin.toString() });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.end();
  };
  say(`base de datos nueva ${name} en ${admin.host}`);
}

// ---- start the stack ------------------------------------------------------------------------------
const logFile = join(dataDir, 'stack.log');
const log = createWriteStream(logFile);
say(`iniciando la aplicación en el puerto ${port} con DATA_DIR=${dataDir}`);
// Its own process group, so a stuck stack can be stopped as a whole (only what this script started).
const stack = spawn(process.execPath, [join(root, 'scripts', 'start.mjs')], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
stack.stdout.pipe(log);
stack.stderr.pipe(log);
const stackExited = new Promise((done) => stack.on('close', (code, signal) => done({ code, signal })));
let exited = null;
void stackExited.then((result) => (exited = result));

const baseUrl = `http://127.0.0.1:${port}`;
async function waitForHealth() {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (exited) return false;
    try {
      const res = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return true;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
}

async function stopStack() {
  if (!exited) {
    stack.kill('SIGTERM');
    const timeout = new Promise((r) => setTimeout(() => r('timeout'), 30_000));
    if ((await Promise.race([stackExited, timeout])) === 'timeout') {
      say('la aplicación no se detuvo en 30 s; forzando');
      try {
        process.kill(-stack.pid, 'SIGKILL');
      } catch {
        // already gone
      }
      await stackExited;
    }
  }
  log.end();
}

function keepLog() {
  mkdirSync(resultsDir, { recursive: true });
  const kept = join(resultsDir, 'e2e-stack.log');
  if (existsSync(logFile)) copyFileSync(logFile, kept);
  return kept;
}

let code = 1;
try {
  if (!(await waitForHealth())) {
    const kept = keepLog();
    say(`la aplicación no respondió en /health${exited ? ` (terminó: ${exited.signal ?? `código ${exited.code}`})` : ''}; registro en ${kept}`);
    process.stdout.write(readFileSync(logFile, 'utf8').split('\n').slice(-40).join('\n') + '\n');
  } else {
    say(`aplicación lista en ${baseUrl}; corriendo los recorridos`);
    const args = ['--test', '--test-concurrency=1', ...process.argv.slice(2)];
    if (!args.some((a) => a.startsWith('e2e'))) args.push('e2e/');
    const tests = spawn(process.execPath, args, {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, E2E_BASE_URL: baseUrl, E2E_DATA_DIR: dataDir, CHROMIUM_PATH: chromium },
    });
    code = await new Promise((done) => tests.on('close', (c) => done(c ?? 1)));
    if (code !== 0) say(`fallaron recorridos; capturas y registro en ${keepLog()}`);
  }
} finally {
  await stopStack();
  await dropDatabase().catch((error) => say(`no se pudo borrar la base de datos de prueba: ${error.message}`));
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(code);
