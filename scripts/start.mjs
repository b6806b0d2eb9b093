// `npm start`: builds what changed, starts PostgreSQL (DATABASE_URL, or an embedded one kept
// under DATA_DIR), then every service and the gateway as child processes, and prints the URL.
// Ctrl-C (SIGINT) or SIGTERM stops the services, then the database. Once Tiendita is up, a
// service (or the gateway) that exits on its own is started again with backoff while the others
// keep serving, and left stopped after 5 crashes in 2 minutes (scripts/lib/supervisor.cjs).
//
// Ports: the gateway on PORT (default 3000); identity, catalog, ordering, inventory,
// reporting and fel on PORT+1 … PORT+6 (3001 … 3006 by default), bound to 127.0.0.1.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatLogLine, prefixer } from './lib/log-format.mjs';

/* global AbortSignal */

const require = createRequire(import.meta.url);
const { serviceNodeFlags } = require('./lib/node-flags.cjs');
const { startEmbeddedPostgres, stopStalePostmaster, ensureDatabase, EmbeddedPostgresError } = require('./lib/embedded-pg.cjs');
const { CrashPolicy, supervisorMessages } = require('./lib/supervisor.cjs');
const pg = require('pg');

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Prints one line and exits with code 1: the only way start-up problems are reported. */
function fail(line) {
  process.stderr.write(`${line}\n`);
  process.exit(1);
}

function say(line) {
  process.stdout.write(`${line}\n`);
}

// ---- configuration ----------------------------------------------------------------------
const env = process.env;
const port = env.PORT === undefined || env.PORT === '' ? 3000 : Number(env.PORT);
if (!Number.isInteger(port) || port < 1 || port > 65529) fail(`Configuración inválida: PORT debe ser un número de puerto entre 1 y 65529 (recibido: ${env.PORT})`);
const host = env.HOST || '127.0.0.1';
const dataDir = resolve(env.DATA_DIR || '.data');
const logLevel = env.LOG_LEVEL || 'info';
const services = [
  // The services, by port; they start in two waves (see the end of this file).
  { name: 'identity', port: port + 1, urlVar: 'IDENTITY_URL' },
  { name: 'catalog', port: port + 2, urlVar: 'CATALOG_URL' },
  { name: 'ordering', port: port + 3, urlVar: 'ORDERING_URL' },
  { name: 'inventory', port: port + 4, urlVar: 'INVENTORY_URL' },
  { name: 'reporting', port: port + 5, urlVar: 'REPORTING_URL' },
  // FEL (issue 25): runs its sandbox certifier ('pruebas') itself, on a free 127.0.0.1 port.
  { name: 'fel', port: port + 6, urlVar: 'FEL_URL' },
];

mkdirSync(dataDir, { recursive: true });

// ---- one npm start per DATA_DIR -----------------------------------------------------------
const lockFile = join(dataDir, 'tiendita.pid');

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** A leftover child of a killed run: still alive and still one of our dist/main.js processes. */
function isOurLeftover(pid) {
  try {
    return alive(pid) && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('dist/main.js') && readlinkSync(`/proc/${pid}/cwd`) === root;
  } catch {
    return false;
  }
}

function readLock() {
  try {
    return JSON.parse(readFileSync(lockFile, 'utf8'));
  } catch {
    return null;
  }
}
const previous = readLock();
if (previous && previous.pid !== process.pid && alive(previous.pid)) fail(`Tiendita ya está corriendo con DATA_DIR=${dataDir} (pid ${previous.pid})`);
if (previous) {
  // The previous run was killed without cleaning up: stop what it left behind.
  for (const pid of previous.children ?? []) if (isOurLeftover(pid)) process.kill(pid, 'SIGTERM');
}
const lock = { pid: process.pid, children: [] };
const writeLock = () => writeFileSync(lockFile, JSON.stringify(lock));
writeLock();
const removeLock = () => rmSync(lockFile, { force: true });

// ---- ports ---------------------------------------------------------------------------------
function portFree(p, h) {
  return new Promise((done) => {
    const server = net.createServer();
    server.once('error', () => done(false));
    server.listen(p, h, () => server.close(() => done(true)));
  });
}

async function checkPorts() {
  if (!(await portFree(port, host))) return port;
  for (const s of services) if (!(await portFree(s.port, '127.0.0.1'))) return s.port;
  return null;
}

// Leftover children from a killed run need a moment to let go of their ports.
let busy = await checkPorts();
for (let i = 0; busy !== null && previous && i < 50; i++) {
  await new Promise((r) => setTimeout(r, 100));
  busy = await checkPorts();
}
if (busy !== null) {
  removeLock();
  fail(`El puerto ${busy} ya está en uso`);
}

// ---- build ---------------------------------------------------------------------------------
await new Promise((done) => {
  // BUILD_WEB=0: the services only, without (re)building the web client (the fault test, the faults bench).
  const build = spawn(process.execPath, [join(root, 'scripts', 'build.mjs'), ...(env.BUILD_WEB === '0' ? ['--no-web'] : [])], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  const out = prefixer('build', process.stdout);
  const err = prefixer('build', process.stderr);
  build.stdout.on('data', out);
  build.stderr.on('data', err);
  build.on('close', (code) => {
    if (code === 0) return done();
    removeLock();
    fail('La compilación falló (detalles arriba)');
  });
});

// ---- secrets kept in DATA_DIR ---------------------------------------------------------------
const secretsFile = join(dataDir, 'secrets.json');
let secrets = {};
if (existsSync(secretsFile)) {
  try {
    secrets = JSON.parse(readFileSync(secretsFile, 'utf8'));
  } catch {
    secrets = {};
  }
}
let secretsChanged = false;
if (!secrets.internalSecret) {
  secrets.internalSecret = randomBytes(32).toString('base64url');
  secretsChanged = true;
}

// ---- database ------------------------------------------------------------------------------
let embedded = null;
let databaseUrl = env.DATABASE_URL;

function describe(url) {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
  } catch {
    return '(URL inválida)';
  }
}

function reason(error) {
  if (error instanceof AggregateError && error.errors?.length) return reason(error.errors[0]);
  return error?.message || error?.code || String(error);
}

/** The embedded server's options: the same folder, password and (on a restart) port every time. */
function embeddedOptions(pgDir, port) {
  return { dataDir: pgDir, logFile: join(dataDir, 'postgres.log'), password: secrets.postgresPassword, detached: true, ...(port ? { port } : {}) };
}

if (databaseUrl) {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (error) {
    removeLock();
    fail(`No se puede conectar a la base de datos ${describe(databaseUrl)}: ${reason(error)}`);
  } finally {
    await client.end().catch(() => undefined);
  }
} else {
  const pgDir = join(dataDir, 'pg');
  if (existsSync(join(pgDir, 'PG_VERSION')) && !secrets.postgresPassword) {
    removeLock();
    fail(`Falta la contraseña de la base embebida en ${secretsFile}: restaura ese archivo o borra ${pgDir} para empezar de cero`);
  }
  if (!secrets.postgresPassword) {
    secrets.postgresPassword = randomBytes(18).toString('base64url');
    secretsChanged = true;
  }
  if (secretsChanged) writeFileSync(secretsFile, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  secretsChanged = false;
  try {
    if (await stopStalePostmaster(pgDir)) say('PostgreSQL embebido de una ejecución anterior detenido');
    const first = !existsSync(join(pgDir, 'PG_VERSION'));
    if (first) say(`Creando la base de datos embebida en ${pgDir}…`);
    // Detached: a terminal Ctrl-C reaches us, not PostgreSQL, so it stops after the services.
    embedded = await startEmbeddedPostgres(embeddedOptions(pgDir));
    lock.postgres = embedded.pid;
    writeLock();
    await ensureDatabase(embedded.url('postgres'), 'tiendita');
    databaseUrl = embedded.url('tiendita');
    say(`PostgreSQL embebido listo en 127.0.0.1:${embedded.port} (datos en ${pgDir})`);
  } catch (error) {
    if (embedded) await embedded.stop();
    removeLock();
    fail(error instanceof EmbeddedPostgresError ? error.message : `PostgreSQL embebido no arrancó: ${reason(error)}`);
  }
}
if (secretsChanged) writeFileSync(secretsFile, JSON.stringify(secrets, null, 2), { mode: 0o600 });
const internalSecret = env.INTERNAL_SECRET || secrets.internalSecret;

// ---- services ------------------------------------------------------------------------------
const urls = Object.fromEntries(services.map((s) => [s.urlVar, `http://127.0.0.1:${s.port}`]));
const children = new Map();
let stopping = false;

function childEnv(name, childPort, childHost) {
  return {
    ...env,
    NODE_ENV: env.NODE_ENV || 'production',
    DATABASE_URL: databaseUrl,
    INTERNAL_SECRET: internalSecret,
    PORT: String(childPort),
    HOST: childHost,
    DATA_DIR: dataDir,
    LOG_LEVEL: logLevel,
    SEED_DEMO: env.SEED_DEMO ?? '1',
    // Reset links are built from PUBLIC_URL, never from a Host header a client controls.
    PUBLIC_URL: env.PUBLIC_URL || `http://localhost:${port}`,
    TIENDITA_SUPERVISED: '1',
    ...urls,
  };
}

/** Set once every process answered /health: from then on a crash is restarted, not fatal. */
let ready = false;

/** @param {{ name: string, dir: string, port: number, host: string }} spec */
function startChild(spec) {
  const { name, dir, port: childPort, host: childHost } = spec;
  const main = join(root, dir, 'dist', 'main.js');
  if (!existsSync(main)) throw new Error(`No existe ${main}: ¿falló la compilación?`);
  const child = spawn(process.execPath, [...serviceNodeFlags(), main], { cwd: root, env: childEnv(name, childPort, childHost), stdio: ['pipe', 'pipe', 'pipe'] });
  children.set(name, child);
  lock.children = [...lock.children.filter((pid) => pid !== spec.pid), child.pid];
  spec.pid = child.pid;
  writeLock();
  child.stdout.on('data', prefixer(name, process.stdout, formatLogLine));
  child.stderr.on('data', prefixer(name, process.stderr, formatLogLine));
  // A supervisor's pipe closed under it (the child died): nothing to report, the exit says it.
  child.stdin.on('error', () => undefined);
  child.exited = new Promise((done) => child.on('close', (code, signal) => done({ code, signal })));
  child.exited.then((exit) => {
    if (children.get(name) === child) children.delete(name);
    if (stopping) return;
    if (!ready) {
      say(`[${name}] terminó inesperadamente (${exit.signal ?? `código ${exit.code}`}); deteniendo Tiendita`);
      void stopAll(1);
      return;
    }
    void restart(spec, exit);
  });
  return child;
}

/** A crash after start-up: start the process again after its backoff, or leave it stopped (CrashPolicy). */
async function restart(spec, exit) {
  const fellAt = Date.now();
  spec.policy ??= new CrashPolicy();
  const decision = spec.policy.crashed(fellAt);
  if (decision.action === 'give-up') {
    say(supervisorMessages.givingUp(spec.name, exit, decision));
    return;
  }
  say(supervisorMessages.restarting(spec.name, exit, decision));
  await new Promise((r) => setTimeout(r, decision.delayMs));
  if (stopping) return;
  const child = startChild(spec);
  if (await waitHealthy(spec.name, spec.port, spec.host)) {
    say(supervisorMessages.back(spec.name, Date.now() - fellAt));
  } else if (!stopping && children.get(spec.name) === child) {
    // Up but never healthy: stop it; its exit counts as one more crash.
    say(supervisorMessages.notBack(spec.name));
    child.kill('SIGKILL');
  }
}

const healthHost = (h) => (h === '0.0.0.0' || h === '::' ? '127.0.0.1' : h.includes(':') ? `[${h}]` : h);

async function waitHealthy(name, childPort, childHost = '127.0.0.1', withinMs = 90_000) {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (stopping || !children.has(name)) return false;
    try {
      const res = await fetch(`http://${healthHost(childHost)}:${childPort}/health`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return true;
    } catch {
      // not listening yet
    }
    // Often: a restarted service is back for the shops as soon as this sees it (the gateway needs no word).
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

/**
 * Waits until each process's /health says `ready` (its start-up work settled: the demo shop's
 * seed), at most `withinMs`; past that the product opens anyway and says what is still running.
 */
async function waitReady(specs, withinMs = 180_000) {
  const deadline = Date.now() + withinMs;
  let waiting = [...specs];
  while (waiting.length > 0 && Date.now() < deadline && !stopping) {
    const states = await Promise.all(
      waiting.map(async (s) => {
        try {
          const res = await fetch(`http://${healthHost(s.host)}:${s.port}/health`, { signal: AbortSignal.timeout(2000) });
          return res.ok && (await res.json()).ready !== false;
        } catch {
          return false;
        }
      }),
    );
    waiting = waiting.filter((_, i) => !states[i]);
    if (waiting.length > 0) await new Promise((r) => setTimeout(r, 200));
  }
  for (const s of waiting) say(`[${s.name}] sigue con su trabajo de arranque; la aplicación abre sin esperarlo`);
}

async function stopAll(code) {
  if (stopping) return;
  stopping = true;
  const running = [...children.values()];
  for (const child of running) child.kill('SIGTERM');
  const timer = setTimeout(() => running.forEach((c) => c.kill('SIGKILL')), 15_000);
  await Promise.all(running.map((c) => c.exited));
  clearTimeout(timer);
  if (embedded) await embedded.stop();
  removeLock();
  if (code === 0) say('Tiendita detenida');
  process.exit(code);
}

let interrupts = 0;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    interrupts++;
    if (interrupts === 1) {
      say('\nDeteniendo Tiendita…');
      void stopAll(0);
    } else if (interrupts === 3) {
      for (const child of children.values()) child.kill('SIGKILL');
    }
  });
}

/**
 * The embedded PostgreSQL is supervised too: when it exits on its own (a crash, an immediate
 * shutdown) it is started again on the same port, and the services reconnect by themselves
 * (their requests answer 503 meanwhile). Five exits in 2 minutes leave it stopped.
 */
function superviseDatabase(server) {
  const policy = new CrashPolicy();
  const watch = (current) => {
    current.exited.then(async (exit) => {
      if (stopping || embedded !== current) return;
      const fellAt = Date.now();
      const decision = policy.crashed(fellAt);
      if (decision.action === 'give-up') {
        say(supervisorMessages.givingUp('postgres', exit, decision));
        return;
      }
      say(supervisorMessages.restarting('postgres', exit, decision));
      for (;;) {
        await new Promise((r) => setTimeout(r, decision.delayMs));
        if (stopping) return;
        try {
          const next = await startEmbeddedPostgres(embeddedOptions(join(dataDir, 'pg'), current.port));
          if (stopping) {
            await next.stop();
            return;
          }
          embedded = next;
          lock.postgres = next.pid;
          writeLock();
          say(supervisorMessages.back('postgres', Date.now() - fellAt));
          watch(next);
          return;
        } catch (error) {
          say(`[postgres] no arrancó de nuevo: ${error instanceof EmbeddedPostgresError ? error.message : reason(error)}; se reintenta`);
        }
      }
    });
  };
  watch(server);
}

const gatewaySpec = { name: 'gateway', dir: 'gateway', port, host };
/** Starts these processes together and waits until each answers /health; one that does not stops Tiendita. */
async function startWave(specs) {
  for (const s of specs) startChild(s);
  // As long as one after the other would have had: they share the machine while they start.
  const healthy = await Promise.all(specs.map((s) => waitHealthy(s.name, s.port, s.host, 90_000 * specs.length)));
  const late = specs.find((_, i) => !healthy[i]);
  if (!late) return;
  if (!stopping) {
    say(`[${late.name}] no respondió en /health a tiempo; deteniendo Tiendita`);
    await stopAll(1);
  }
  await new Promise(() => undefined);
}

try {
  // Services start in two waves of processes started together (each has its own schema and
  // migrations; a subscription to a source whose events table is not there yet retries), which on a
  // busy machine takes a fraction of the time one after the other did: the sources of most events
  // first (inventory too: ordering's start asks it for the holds of lost checkouts), then their
  // consumers. The gateway opens last, once every service has finished its start-up work (the demo
  // shop's seed): whoever reaches the product's address finds it whole.
  const spec = (name) => ({ name, dir: join('services', name), port: services.find((x) => x.name === name).port, host: '127.0.0.1' });
  const first = ['identity', 'catalog', 'inventory'].map(spec);
  const second = ['ordering', 'reporting', 'fel'].map(spec);
  await startWave(first);
  await startWave(second);
  await waitReady([...first, ...second]);
  await startWave([gatewaySpec]);
} catch (error) {
  say(reason(error));
  await stopAll(1);
}
ready = true;
if (embedded) superviseDatabase(embedded);

const shown = host === '127.0.0.1' || host === '0.0.0.0' || host === '::' ? 'localhost' : host;
say(`Tiendita lista en http://${shown}:${port}`);
