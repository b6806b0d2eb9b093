// `npm run bench -- <name> [args…]`: builds, then runs bench/<name>.ts (transpiled by swc on
// the fly, workspace packages from their dist/) or bench/<name>.mjs. With no name, runs every
// bench in bench/. Without DATABASE_URL, a temporary embedded PostgreSQL is started for the run
// and its URL handed to the benches as DATABASE_URL.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { startEmbeddedPostgres, randomPassword, EmbeddedPostgresError } = require('./lib/embedded-pg.cjs');
const { serviceNodeFlags } = require('./lib/node-flags.cjs');

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const benchDir = join(root, 'bench');
const [name, ...args] = process.argv.slice(2);

function fail(line) {
  process.stderr.write(`${line}\n`);
  process.exit(1);
}

const available = existsSync(benchDir)
  ? readdirSync(benchDir, { withFileTypes: true })
      .filter((d) => d.isFile() && /\.(ts|mjs)$/.test(d.name) && !d.name.endsWith('.d.ts') && !d.name.startsWith('_'))
      .map((d) => d.name)
      .sort()
  : [];

let files;
if (name) {
  const file = [`${name}.ts`, `${name}.mjs`].find((f) => available.includes(f));
  if (!file) fail(`No existe el bench "${name}" (disponibles: ${available.map((f) => f.replace(/\.(ts|mjs)$/, '')).join(', ') || 'ninguno'})`);
  files = [file];
} else {
  if (available.length === 0) fail('No hay benches en bench/');
  files = available;
}

const build = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
if (build.status !== 0) fail('La compilación falló (detalles arriba)');

let embedded = null;
let base = null;
const env = { ...process.env };
if (!env.DATABASE_URL) {
  base = mkdtempSync(join(tmpdir(), 'tiendita-bench-pg-'));
  chmodSync(base, 0o755);
  try {
    // BENCH_PG_SETTINGS="io_method=sync,autovacuum=off" passes settings to the embedded server, to compare.
    const settings = Object.fromEntries((env.BENCH_PG_SETTINGS ?? '').split(',').filter(Boolean).map((kv) => kv.split('=')));
    embedded = await startEmbeddedPostgres({ dataDir: join(base, 'data'), logFile: join(base, 'postgres.log'), password: randomPassword(), settings });
  } catch (error) {
    rmSync(base, { recursive: true, force: true });
    fail(error instanceof EmbeddedPostgresError ? error.message : `PostgreSQL embebido no arrancó: ${error.message}`);
  }
  env.DATABASE_URL = embedded.url('postgres');
  console.log(`bench: PostgreSQL embebido temporal en 127.0.0.1:${embedded.port}`);
}

async function cleanup() {
  if (embedded) await embedded.stop();
  if (base) rmSync(base, { recursive: true, force: true });
}

let current = null;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, async () => {
    current?.kill(signal);
    await cleanup();
    process.exit(130);
  });
}

let failed = 0;
for (const file of files) {
  if (files.length > 1) console.log(`\n=== bench ${file} ===`);
  // BENCH_NODE_ARGS adds flags to the bench's own node (e.g. "--cpu-prof --cpu-prof-dir=/tmp/p").
  const extra = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  // The bench process itself runs with the services' node flags: the auth bench hosts the gateway.
  const nodeArgs = [...serviceNodeFlags(), ...extra, ...(file.endsWith('.ts') ? ['-r', join(root, 'scripts', 'lib', 'swc-register.cjs')] : [])];
  const code = await new Promise((done) => {
    current = spawn(process.execPath, [...nodeArgs, join(benchDir, file), ...args], { cwd: root, env, stdio: 'inherit' });
    current.on('close', (c, signal) => done(c ?? (signal ? 1 : 0)));
  });
  current = null;
  if (code !== 0) {
    failed++;
    console.error(`bench ${file} terminó con código ${code}`);
  }
}
await cleanup();
process.exit(failed ? 1 : 0);
