// `npm run replay -- <service>.<projection> [--no-verify]`: rebuilds one projection of a service
// from position 0 into shadow tables, with a progress bar on stderr (events, events/s, ETA),
// compares it with the live read model, swaps it in atomically and prints a summary.
//
// The projection comes from the service's build: services/<service>/dist/projections.js exports
// `projections` (an array of Projection); the service's schema is its name. The running service
// keeps serving (and applying) its live projection until the swap, which pauses it for that
// moment only. Database: DATABASE_URL, else the embedded PostgreSQL of `npm start` under
// DATA_DIR (default .data): the running one, or started for the replay and stopped after it.
// The comparison is skipped when the projection's version changed (its rows are expected to
// differ) or with --no-verify.
import { existsSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const target = args.find((a) => !a.startsWith('--'));
const noVerify = args.includes('--no-verify');

function fail(line, code = 1) {
  process.stderr.write(`${line}\n`);
  process.exit(code);
}

if (!target || !/^[a-z_][a-z0-9_]*\.[a-z_][a-z0-9_]*$/.test(target)) {
  fail('Uso: npm run replay -- <servicio>.<proyección> [--no-verify]   (por ejemplo: npm run replay -- reporting.sales_by_day)');
}
const [service, name] = target.split('.');
const serviceDir = join(root, 'services', service);
if (!existsSync(serviceDir)) fail(`No existe el servicio "${service}" (services/${service})`);

// Build what changed (fast when nothing did), so dist/ matches the code.
const build = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
if (build.status !== 0) fail('La compilación falló (ejecuta npm run build para ver los detalles)');

const projectionsFile = join(serviceDir, 'dist', 'projections.js');
if (!existsSync(projectionsFile)) fail(`El servicio "${service}" no exporta proyecciones: falta services/${service}/src/projections.ts (export const projections = [...])`);
const { projections } = require(projectionsFile);
if (!Array.isArray(projections)) fail(`services/${service}/dist/projections.js no exporta un arreglo "projections"`);
const projection = projections.find((p) => p.name === name);
if (!projection) fail(`El servicio "${service}" no tiene la proyección "${name}" (tiene: ${projections.map((p) => p.name).join(', ') || 'ninguna'})`);

const { ProjectionRunner, createTransport, RebuildMismatchError } = require(join(root, 'libs', 'eventsourcing', 'dist', 'index.js'));
const pg = require('pg');

// ---- database ------------------------------------------------------------------------------
let embedded = null;
async function databaseUrl() {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  const dataDir = resolve(process.env.DATA_DIR || join(root, '.data'));
  const pgDir = join(dataDir, 'pg');
  if (!existsSync(join(pgDir, 'PG_VERSION'))) {
    fail(`No hay base de datos: define DATABASE_URL, o ejecuta npm start una vez para crear la embebida en ${pgDir}`);
  }
  let secrets;
  try {
    secrets = JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8'));
  } catch {
    fail(`No se puede leer ${join(dataDir, 'secrets.json')} (la contraseña de la base embebida): define DATABASE_URL`);
  }
  const { runningPostmaster, startEmbeddedPostgres, EmbeddedPostgresError } = require('./lib/embedded-pg.cjs');
  const auth = `postgres:${encodeURIComponent(secrets.postgresPassword)}`;
  if (runningPostmaster(pgDir)) {
    // npm start is running: postmaster.pid's fourth line is its port.
    const port = Number(readFileSync(join(pgDir, 'postmaster.pid'), 'utf8').split('\n')[3]);
    return `postgres://${auth}@127.0.0.1:${port}/tiendita`;
  }
  try {
    embedded = await startEmbeddedPostgres({ dataDir: pgDir, logFile: join(dataDir, 'postgres.log'), password: secrets.postgresPassword });
  } catch (error) {
    fail(error instanceof EmbeddedPostgresError ? error.message : `PostgreSQL embebido no arrancó: ${error.message}`);
  }
  process.stderr.write(`PostgreSQL embebido iniciado para la reconstrucción (127.0.0.1:${embedded.port})\n`);
  return embedded.url('tiendita');
}

// ---- progress ------------------------------------------------------------------------------
const tty = process.stderr.isTTY;
const n = (x) => Math.round(x).toLocaleString('es-GT');
function duration(s) {
  if (s === null || !Number.isFinite(s)) return '?';
  if (s < 60) return `${Math.ceil(s)} s`;
  return `${Math.floor(s / 60)} min ${Math.ceil(s % 60)} s`;
}
let lastLine = 0;
function onProgress(p) {
  const now = Date.now();
  const done = p.done >= p.total;
  if (!tty && !done && now - lastLine < 2000) return;
  lastLine = now;
  const width = 30;
  const fraction = p.total > 0 ? Math.min(1, p.done / p.total) : 1;
  const bar = '█'.repeat(Math.round(fraction * width)).padEnd(width, '░');
  const phase = { build: 'reconstruyendo', 'catch-up': 'alcanzando', swap: 'verificando e intercambiando' }[p.phase];
  const line = `${bar} ${(fraction * 100).toFixed(1).padStart(5)} %  ${n(p.done)}/${n(p.total)} eventos  ${n(p.eventsPerSecond)} ev/s  ETA ${duration(p.etaSeconds)}  (${phase})`;
  process.stderr.write(tty ? `\r${line}\x1b[K` : `${line}\n`);
}

// ---- run -----------------------------------------------------------------------------------
const url = await databaseUrl();
const pool = new pg.Pool({ connectionString: url, max: 6 });
pool.on('error', () => undefined);
let code = 0;
try {
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    throw Object.assign(new Error(`No se puede conectar a la base de datos: ${error.message}`), { oneLine: true });
  }
  const transport = createTransport({ pool, schema: service, connectionString: url, relay: [] });
  const quiet = { info: () => undefined, warn: () => undefined, error: (obj, msg) => process.stderr.write(`${msg ?? ''}\n`) };
  const runner = new ProjectionRunner({ pool, schema: service, transport, projections: [projection], logger: quiet });
  await runner.migrate();
  const stored = (await runner.states())[0];
  const versionChanged = stored !== undefined && stored.version !== projection.version;
  const verify = !noVerify && !versionChanged;
  process.stderr.write(
    `Reconstruyendo ${service}.${name} (versión ${projection.version}${versionChanged ? `, antes ${stored.version}: no se compara` : ''}${noVerify ? ', sin comparar' : ''})\n`,
  );
  try {
    const result = await runner.rebuild(name, { onProgress, verify });
    if (tty) process.stderr.write('\n');
    const check = result.verified ? 'verificada: igual a la proyección en vivo' : versionChanged ? 'sin comparar (cambió la versión)' : 'sin comparar';
    console.log(`${service}.${name}: ${n(result.events)} eventos en ${result.seconds.toFixed(1)} s (${n(result.eventsPerSecond)} ev/s), ${check}; tablas intercambiadas`);
  } finally {
    await transport.close();
  }
} catch (error) {
  if (tty) process.stderr.write('\n');
  if (RebuildMismatchError && error instanceof RebuildMismatchError) {
    process.stderr.write(`${error.message}. No se intercambió nada; la proyección en vivo sigue igual.\n`);
    code = 2;
  } else {
    process.stderr.write(`${error.oneLine ? error.message : `La reconstrucción falló: ${error.message}`}\n`);
    code = 1;
  }
} finally {
  await pool.end().catch(() => undefined);
  if (embedded) await embedded.stop();
}
process.exit(code);
