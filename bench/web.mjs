// Web bundle budget: builds the client and prints the gzipped JavaScript each route loads.
// The landing route loads the entry, its static imports and the landing page chunk (with its static
// imports); the owner shell loads the entry and the owner-app chunk. Read from Vite's manifest.
// Last line: {"landing_js_gz_kb":…,"owner_js_gz_kb":…}
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const webDir = join(root, 'web');
const distDir = join(webDir, 'dist');

const ROUTES = {
  landing: 'src/features/landing/landing-page.tsx',
  owner: 'src/features/shell/owner-app.tsx',
};
const LANDING_BUDGET_KB = 120;

if (!process.argv.includes('--no-build')) {
  execFileSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], { cwd: webDir, stdio: 'inherit' });
}

const manifest = JSON.parse(readFileSync(join(distDir, '.vite', 'manifest.json'), 'utf8'));
const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
if (!entryKey) throw new Error('no entry in the Vite manifest');

/** A chunk and everything it imports statically, as output file names. */
function closure(key, seen = new Set()) {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`${key} is not in the Vite manifest`);
  if (seen.has(chunk.file)) return seen;
  seen.add(chunk.file);
  for (const imported of chunk.imports ?? []) closure(imported, seen);
  return seen;
}

const gzCache = new Map();
function gzBytes(file) {
  if (!gzCache.has(file)) gzCache.set(file, gzipSync(readFileSync(join(distDir, file))).length);
  return gzCache.get(file);
}

const kb = (bytes) => Math.round((bytes / 1024) * 10) / 10;
const result = {};
for (const [route, source] of Object.entries(ROUTES)) {
  const files = [...new Set([...closure(entryKey), ...closure(source)])].filter((f) => f.endsWith('.js'));
  const total = files.reduce((sum, f) => sum + gzBytes(f), 0);
  console.log(`\n${route} (${files.length} archivos JS):`);
  for (const f of files.sort((a, b) => gzBytes(b) - gzBytes(a))) console.log(`  ${String(kb(gzBytes(f))).padStart(7)} KB  ${f}`);
  console.log(`  ${String(kb(total)).padStart(7)} KB  total gzip`);
  result[`${route}_js_gz_kb`] = kb(total);
}
if (result.landing_js_gz_kb > LANDING_BUDGET_KB) console.log(`\nAVISO: la página de inicio supera el presupuesto de ${LANDING_BUDGET_KB} KB`);
console.log(JSON.stringify(result));
