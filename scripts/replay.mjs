// `npm run replay -- <service>.<projection> [--no-verify]`: rebuilds one projection of a service
// from position 0 into shadow tables, with a progress bar on stderr (events, events/s, ETA),
// compares it with the live read model, swaps it in atomically and prints a summary.
// `npm run replay -- --list`: every projection and reaction of every service (version, status,
// checkpoint, lag, dead letters). `npm run replay -- --dead-letters [<service>[.<projection>]]`: the dead letters
// themselves, with their ids; `--retry <id>` applies one again with the code deployed now (a
// refused Kafka message: rebuilds its projection; a reaction's event: handed back to its running service); `--skip <id>` leaves its event out for good.
//
// The projection comes from the service's build: services/<service>/dist/projections.js exports
// `projections` (an array of Projection); the service's schema is its name. The running service
// keeps serving (and applying) its live projection until the swap, which pauses it for that
// moment only; a projection paused on a dead letter runs again in the service a few seconds after
// a successful retry, skip or rebuild. Database: DATABASE_URL, else the embedded PostgreSQL of
// `npm start` under DATA_DIR (default .data): the running one, or started for the replay and
// stopped after it. The comparison is skipped when the projection's version changed (its rows
// are expected to differ) or with --no-verify.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const optionValue = (flag) => {
  const i = args.indexOf(flag);
  return i >= 0 ? (args[i + 1] ?? '') : null;
};
const retryId = optionValue('--retry');
const skipId = optionValue('--skip');
const deadMode = args.includes('--dead-letters');
const target = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--retry' && args[i - 1] !== '--skip');
const noVerify = args.includes('--no-verify');

function fail(line, code = 1) {
  process.stderr.write(`${line}\n`);
  process.exit(code);
}

const USAGE = [
  'Uso: npm run replay -- <servicio>.<proyección> [--no-verify]   (por ejemplo: npm run replay -- reporting.sales)',
  '     npm run replay -- --list                                  (todas las proyecciones y reacciones: versión, checkpoint, retraso, estado, dead letters)',
  '     npm run replay -- --dead-letters [<servicio>[.<proyección>]]   (los dead letters, con su id)',
  '     npm run replay -- --retry <id>                            (vuelve a aplicar un dead letter con el código actual)',
  '     npm run replay -- --skip <id>                             (descarta un dead letter: la proyección sigue sin ese evento)',
].join('\n');
const listMode = args.includes('--list');
const opsMode = listMode || deadMode || retryId !== null || skipId !== null;
if (retryId === '' || skipId === '') fail(`Falta el id del dead letter (npm run replay -- --dead-letters los lista)\n${USAGE}`);
if (deadMode && target && !/^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)?$/.test(target)) fail(USAGE);
if (!opsMode && (!target || !/^[a-z_][a-z0-9_]*\.[a-z_][a-z0-9_]*$/.test(target))) fail(USAGE);
const [service, name] = opsMode ? [null, null] : target.split('.');
if (!opsMode && !existsSync(join(root, 'services', service))) fail(`No existe el servicio "${service}" (services/${service})`);

// Build what changed (fast when nothing did), so dist/ matches the code.
const build = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
if (build.status !== 0) fail('La compilación falló (ejecuta npm run build para ver los detalles)');

const serviceDir = opsMode ? null : join(root, 'services', service);
const projectionsFile = opsMode ? null : join(serviceDir, 'dist', 'projections.js');
if (opsMode) {
  // every service's projections are loaded by serviceProjections()
} else if (!existsSync(projectionsFile)) fail(`El servicio "${service}" no exporta proyecciones: falta services/${service}/src/projections.ts (export const projections = [...])`);
const { projections } = opsMode ? { projections: [] } : require(projectionsFile);
if (!Array.isArray(projections)) fail(`services/${service}/dist/projections.js no exporta un arreglo "projections"`);
const projection = opsMode ? null : projections.find((p) => p.name === name);
if (!opsMode && !projection) fail(`El servicio "${service}" no tiene la proyección "${name}" (tiene: ${projections.map((p) => p.name).join(', ') || 'ninguna'})`);

const { ProjectionRunner, createTransport, RebuildMismatchError, RebuildInProgressError, DeadLetters, DeadLetterRetryError, DeadLetterNotFoundError, deadLetterSchema } = require(
  join(root, 'libs', 'eventsourcing', 'dist', 'index.js'),
);

/** Every service with projections (services/*\/dist/projections.js), by name. */
function serviceProjections() {
  const out = new Map();
  for (const svc of readdirSync(join(root, 'services')).sort()) {
    const file = join(root, 'services', svc, 'dist', 'projections.js');
    if (existsSync(file)) out.set(svc, require(file).projections ?? []);
  }
  return out;
}
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

// ---- --list ----------------------------------------------------------------------------------
// Every projection of every service (services/*/dist/projections.js): version (code and stored),
// status, checkpoint per source, lag in events behind each source, dead letters.
async function listAll(pool) {
  const rows = [];
  const exists = async (table) => (await pool.query('SELECT to_regclass($1) AS t', [table])).rows[0].t !== null;
  for (const [svc, list] of serviceProjections()) {
    const hasState = await exists(`${svc}.projections`);
    const hasCheckpoints = await exists(`${svc}.subscription_checkpoints`);
    const hasDead = await exists(`${svc}.dead_letters`);
    const hasRefused = await exists(`${svc}.transport_dead_letters`);
    for (const p of list) {
      const state = hasState ? (await pool.query(`SELECT version, status, last_error FROM ${svc}.projections WHERE name = $1`, [p.name])).rows[0] : undefined;
      // Events the projection could not apply, and Kafka messages its consumer group refused.
      const dead =
        (hasDead ? Number((await pool.query(`SELECT count(*) AS n FROM ${svc}.dead_letters WHERE projection = $1`, [p.name])).rows[0].n) : 0) +
        (hasRefused ? Number((await pool.query(`SELECT count(*) AS n FROM ${svc}.transport_dead_letters WHERE group_name = $1`, [`${svc}.${p.name}`])).rows[0].n) : 0);
      // Stores whose events it set aside (their reads answer 503; every other store goes on).
      const hasStore = hasDead && (await pool.query(`SELECT 1 FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'dead_letters' AND column_name = 'store_id'`, [svc])).rowCount > 0;
      const stores = hasStore ? (await pool.query(`SELECT DISTINCT store_id FROM ${svc}.dead_letters WHERE projection = $1 AND store_id IS NOT NULL ORDER BY store_id`, [p.name])).rows.map((x) => x.store_id) : [];
      const sources = [];
      for (const source of p.sources) {
        const cp = hasCheckpoints
          ? (await pool.query(`SELECT transaction_id::text AS tx, global_position FROM ${svc}.subscription_checkpoints WHERE group_name = $1 AND source = $2 AND partition = 0`, [`${svc}.${p.name}`, source])).rows[0]
          : undefined;
        let lag = null;
        if (await exists(`${source}.events`)) {
          lag = Number(
            (await pool.query(`SELECT count(*) AS n FROM ${source}.events WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)`, [cp?.tx ?? '0', cp?.global_position ?? 0])).rows[0].n,
          );
        }
        sources.push({ source, checkpoint: cp ? Number(cp.global_position) : null, lag });
      }
      rows.push({ service: svc, name: p.name, version: p.version, stored: state?.version ?? null, status: state?.status ?? 'sin iniciar', error: state?.last_error ?? null, dead, stores, sources });
    }
    // Reactions (inventory's stock items and orders…) run in the same runner but need the service to
    // be built; they are known from the rows their runner stored.
    const hasKind = hasState && (await pool.query(`SELECT 1 FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'projections' AND column_name = 'kind'`, [svc])).rowCount > 0;
    const reactions = hasKind ? (await pool.query(`SELECT name, version, status, last_error FROM ${svc}.projections WHERE kind = 'reaction' ORDER BY name`)).rows : [];
    for (const r of reactions) {
      const dead =
        (hasDead ? Number((await pool.query(`SELECT count(*) AS n FROM ${svc}.dead_letters WHERE projection = $1`, [r.name])).rows[0].n) : 0) +
        (hasRefused ? Number((await pool.query(`SELECT count(*) AS n FROM ${svc}.transport_dead_letters WHERE group_name = $1`, [`${svc}.${r.name}`])).rows[0].n) : 0);
      const checkpoints = hasCheckpoints
        ? (await pool.query(`SELECT source, transaction_id::text AS tx, global_position FROM ${svc}.subscription_checkpoints WHERE group_name = $1 AND partition = 0 ORDER BY source`, [`${svc}.${r.name}`])).rows
        : [];
      const sources = [];
      for (const cp of checkpoints) {
        const lag = (await exists(`${cp.source}.events`))
          ? Number((await pool.query(`SELECT count(*) AS n FROM ${cp.source}.events WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)`, [cp.tx, cp.global_position])).rows[0].n)
          : null;
        sources.push({ source: cp.source, checkpoint: Number(cp.global_position), lag });
      }
      if (sources.length === 0) sources.push({ source: '—', checkpoint: null, lag: null });
      rows.push({ service: svc, name: `${r.name} (reacción)`, version: r.version, stored: r.version, status: r.status, error: r.last_error, dead, sources });
    }
  }
  const out = [];
  out.push(['proyección', 'versión', 'estado', 'fuente', 'checkpoint', 'retraso (eventos)', 'dead letters']);
  for (const r of rows) {
    const version = r.stored === null || r.stored === r.version ? String(r.version) : `${r.version} (guardada ${r.stored})`;
    const status = r.error ? `${r.status === 'paused' ? 'pausada' : r.status}: ${r.error.slice(0, 60)}` : { running: 'en marcha', paused: 'pausada', rebuilding: 'reconstruyendo' }[r.status] ?? r.status;
    r.sources.forEach((s, i) => {
      const dead = r.stores?.length ? `${r.dead} (tienda${r.stores.length === 1 ? '' : 's'} apartada${r.stores.length === 1 ? '' : 's'}: ${r.stores.join(', ')})` : String(r.dead);
      out.push([i === 0 ? `${r.service}.${r.name}` : '', i === 0 ? version : '', i === 0 ? status : '', s.source, s.checkpoint === null ? '—' : String(s.checkpoint), s.lag === null ? '—' : String(s.lag), i === 0 ? dead : '']);
    });
  }
  const widths = out[0].map((_, c) => Math.max(...out.map((row) => row[c].length)));
  for (const row of out) console.log(row.map((cell, c) => cell.padEnd(widths[c])).join('  ').trimEnd());
  if (args.includes('--json')) console.log(JSON.stringify(rows));
}

// ---- dead letters ----------------------------------------------------------------------------
const short = (text, max) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const when = (d) => new Date(d).toISOString().replace('T', ' ').slice(0, 19);

/** `--dead-letters [<service>[.<projection>]]`: one line per dead letter, its id first. */
async function listDeadLetters(pool) {
  const [onlyService, onlyProjection] = target ? target.split('.') : [null, null];
  const all = serviceProjections();
  if (onlyService && !all.has(onlyService)) throw Object.assign(new Error(`No existe el servicio "${onlyService}" con proyecciones`), { oneLine: true });
  const out = [['id', 'tipo', 'tienda', 'fuente', 'evento', 'posición', 'intentos', 'desde', 'error']];
  for (const [svc, list] of all) {
    if (onlyService && svc !== onlyService) continue;
    const dead = new DeadLetters({ pool, schema: svc, projections: list });
    for (const d of await dead.list()) {
      if (onlyProjection && d.projection !== onlyProjection) continue;
      const position = d.position ? `${d.position.transactionId}/${d.position.globalPosition}` : `partición ${d.partition}, offset ${d.offset}`;
      const kind = d.kind !== 'projection' ? 'mensaje rechazado' : d.held ? 'apartado detrás de otro' : d.storeId ? 'evento apartado' : 'evento no aplicado';
      // A store's dead letter holds only that store's reads; one without a store pauses the projection for all.
      out.push([d.id, kind, d.storeId ?? (d.kind === 'projection' ? 'todas (pausa)' : '—'), d.source, `${d.type ?? '?'} ${d.eventId ?? ''}`.trim(), position, String(d.attempts), when(d.createdAt), short(d.error, 80)]);
    }
  }
  if (out.length === 1) {
    console.log(`No hay dead letters${target ? ` de ${target}` : ''}.`);
  } else {
    const widths = out[0].map((_, c) => Math.max(...out.map((row) => row[c].length)));
    for (const row of out) console.log(row.map((cell, c) => cell.padEnd(widths[c])).join('  ').trimEnd());
    console.log(`\n${out.length - 1} dead letter(s). Reintentar con el código actual: npm run replay -- --retry <id>; descartar: npm run replay -- --skip <id>`);
  }
}

/** `--retry <id>` / `--skip <id>`: one dead letter, with the service's transport (Kafka partitions). */
async function resolveDeadLetter(pool, url, id, action) {
  const svc = deadLetterSchema(id);
  const all = serviceProjections();
  if (!svc || !all.has(svc)) {
    throw Object.assign(new Error(`Id de dead letter inválido o de un servicio sin proyecciones: ${id} (npm run replay -- --dead-letters los lista)`), { oneLine: true });
  }
  const transport = createTransport({ pool, schema: svc, connectionString: url, relay: [] });
  const quiet = { info: () => undefined, warn: () => undefined, error: (obj, msg) => process.stderr.write(`${msg ?? ''}\n`) };
  try {
    const dead = new DeadLetters({ pool, schema: svc, projections: all.get(svc), transport, logger: quiet });
    const result = action === 'retry' ? await dead.retry(id, { onProgress }) : await dead.skip(id);
    if (tty && result.outcome === 'rebuilt') process.stderr.write('\n');
    const e = result.entry;
    const what = `${e.type ?? 'mensaje'}${e.eventId ? ` ${e.eventId}` : ''}`;
    const follows = e.storeId
      ? result.resumed
        ? `; la tienda ${e.storeId} vuelve a leer ${e.projection} en unos segundos (sus eventos apartados se aplicaron en orden)`
        : `; la tienda ${e.storeId} sigue apartada en ${e.projection}: otro de sus eventos falló (npm run replay -- --dead-letters ${svc}.${e.projection})`
      : result.resumed
      ? `; ${e.projection ?? e.group} sigue en marcha (el servicio la reanuda en unos segundos)`
      : e.kind === 'projection'
        ? `; ${e.projection} sigue en pausa: le quedan otros dead letters (npm run replay -- --dead-letters ${svc}.${e.projection})`
        : '';
    const line = {
      applied: `${id}: ${what} aplicado a la proyección en vivo (${result.events ?? 0} evento(s)) y dead letter quitado${follows}`,
      'already-applied': `${id}: la proyección ya había pasado ${what} (una reconstrucción lo aplicó); dead letter quitado${follows}`,
      rebuilt: `${id}: ${e.projection} reconstruida desde el evento 0 (${result.events ?? 0} eventos, con ${what}); mensaje rechazado quitado`,
      skipped: `${id}: ${what} descartado; la proyección sigue sin él${follows}`,
      requeued: result.resumed
        ? `${id}: ${what} devuelto a la reacción ${e.projection}: el servicio ${svc} lo vuelve a procesar con su código actual en unos segundos (si vuelve a fallar, aparece otra vez en --dead-letters)`
        : `${id}: ${what} devuelto a la reacción ${e.projection}; la reacción sigue en pausa por sus otros dead letters (npm run replay -- --dead-letters ${svc}.${e.projection}) y lo procesa al reanudarse`,
    }[result.outcome];
    console.log(line);
  } finally {
    await transport.close();
  }
}

// ---- run -----------------------------------------------------------------------------------
const url = await databaseUrl();
if (opsMode) {
  const opsPool = new pg.Pool({ connectionString: url, max: 6 });
  opsPool.on('error', () => undefined);
  let opsCode = 0;
  try {
    if (retryId !== null) await resolveDeadLetter(opsPool, url, retryId, 'retry');
    else if (skipId !== null) await resolveDeadLetter(opsPool, url, skipId, 'skip');
    else if (deadMode) await listDeadLetters(opsPool);
    else await listAll(opsPool);
  } catch (error) {
    if (tty) process.stderr.write('\n');
    const known = error instanceof DeadLetterRetryError || error instanceof DeadLetterNotFoundError || error.oneLine;
    process.stderr.write(`${known ? error.message : `No se pudo completar la operación: ${error.message}`}\n`);
    if (error instanceof DeadLetterRetryError) process.stderr.write(`Sigue en pausa (${error.entry.attempts} intentos). Corrige la proyección y vuelve a intentarlo, o descártalo con --skip ${error.entry.id}\n`);
    opsCode = 1;
  } finally {
    await opsPool.end().catch(() => undefined);
    if (embedded) await embedded.stop();
  }
  process.exit(opsCode);
}
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
  } else if (error instanceof RebuildInProgressError) {
    process.stderr.write(`${error.message} (npm run replay -- --list la muestra "reconstruyendo"). No se hizo nada.\n`);
    code = 3;
  } else {
    process.stderr.write(`${error.oneLine ? error.message : `La reconstrucción falló: ${error.message}`}\n`);
    code = 1;
  }
} finally {
  await pool.end().catch(() => undefined);
  if (embedded) await embedded.stop();
}
process.exit(code);
