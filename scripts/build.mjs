// Transpiles every Node workspace's src/ to dist/ with swc (types are checked by `npm run typecheck`),
// then builds the web client with Vite. Skips work whose output is newer than its sources.
import { transformFile } from '@swc/core';
import { readFileSync, readdirSync, statSync, mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { join, dirname, relative } from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const swcrc = JSON.parse(readFileSync(join(root, '.swcrc'), 'utf8'));
const nodeWorkspaces = ['contracts', 'libs/eventsourcing', 'libs/service-kit', 'libs/ai', 'services/identity', 'services/catalog', 'services/ordering', 'services/inventory', 'services/reporting', 'services/fel', 'gateway'];

function walk(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = join(dir, d.name);
    if (d.isDirectory()) return walk(p);
    return /\.ts$/.test(d.name) && !/\.(spec|int-spec|e2e-spec)\.ts$/.test(d.name) && !d.name.endsWith('.d.ts') ? [p] : [];
  });
}

function newest(files) {
  return files.reduce((m, f) => Math.max(m, statSync(f).mtimeMs), 0);
}

const force = process.argv.includes('--force');
// --no-web: the services only (the fault test and bench start Tiendita without its web build).
const noWeb = process.argv.includes('--no-web');
let built = 0;
for (const ws of nodeWorkspaces) {
  const src = join(root, ws, 'src');
  const files = walk(src);
  for (const file of files) {
    const out = join(root, ws, 'dist', relative(src, file)).replace(/\.ts$/, '.js');
    if (!force && existsSync(out) && statSync(out).mtimeMs >= statSync(file).mtimeMs) continue;
    const { code, map } = await transformFile(file, { ...swcrc, swcrc: false, filename: file, sourceFileName: relative(dirname(out), file) });
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, code + `\n//# sourceMappingURL=${out.split('/').pop()}.map\n`);
    if (map) writeFileSync(out + '.map', map);
    built++;
  }
}
console.log(`build: ${built} archivo(s) TypeScript transpilado(s)`);

const webDir = join(root, 'web');
const webOut = join(webDir, 'dist', 'index.html');
const webSources = [...walk(join(webDir, 'src')), ...walkAll(join(webDir, 'src')), ...walkAll(join(webDir, 'build')), join(webDir, 'vite.config.ts'), join(webDir, 'index.html'), ...walk(join(root, 'contracts', 'src'))].filter(existsSync);
function walkAll(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? walkAll(join(dir, d.name)) : [join(dir, d.name)]));
}
if (!noWeb && existsSync(join(webDir, 'index.html')) && (force || !existsSync(webOut) || statSync(webOut).mtimeMs < newest(webSources))) {
  // Always a production bundle, whoever calls: under jest (NODE_ENV=test, e.g. a test that runs
  // npm run replay, which builds first) Vite would inline 'test', and antd's ids all become 'test-id'.
  execFileSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build'], { cwd: webDir, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
}

// Pre-compress the web build (the gateway serves .br/.gz next to each file when the browser
// accepts them): shoppers on phones download the gzip/brotli size, not the raw one.
const { gzipSync, brotliCompressSync, constants: zlib } = await import('node:zlib');
let compressed = 0;
for (const file of walkAll(join(webDir, 'dist'))) {
  if (!/\.(js|css|html|svg|json|txt|webmanifest)$/.test(file) || file.endsWith('manifest.json')) continue;
  const size = statSync(file).size;
  if (size < 1024) continue;
  const mtime = statSync(file).mtimeMs;
  if (!force && existsSync(`${file}.br`) && statSync(`${file}.br`).mtimeMs >= mtime && existsSync(`${file}.gz`) && statSync(`${file}.gz`).mtimeMs >= mtime) continue;
  const content = readFileSync(file);
  writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
  writeFileSync(`${file}.br`, brotliCompressSync(content, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: size } }));
  compressed++;
}
if (compressed) console.log(`build: ${compressed} archivo(s) web comprimido(s) (gzip y brotli)`);
