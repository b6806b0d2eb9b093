// `node -r scripts/lib/swc-register.cjs file.ts`: runs TypeScript (benches, tools) by transpiling
// each .ts file with swc as it is required. Workspace packages resolve to their built dist/, and
// a subpath such as '@tiendita/eventsourcing/testing' to dist/testing/index.js. With
// TIENDITA_REGISTER_SRC=1 they resolve to their src/ instead (tests that spawn a process and must
// not depend on a build).
'use strict';

const Module = require('node:module');
const fs = require('node:fs');
const path = require('node:path');
const { transformSync } = require('@swc/core');

const root = path.join(__dirname, '..', '..');
const swcrc = JSON.parse(fs.readFileSync(path.join(root, '.swcrc'), 'utf8'));

require.extensions['.ts'] = function compileTypeScript(module, filename) {
  const source = fs.readFileSync(filename, 'utf8');
  const { code } = transformSync(source, { ...swcrc, swcrc: false, filename, sourceMaps: 'inline' });
  module._compile(code, filename);
};

const fromSource = process.env.TIENDITA_REGISTER_SRC === '1';
const originalResolve = Module._resolveFilename;
Module._resolveFilename = function resolveWorkspaceSubpath(request, parent, ...rest) {
  if (fromSource) {
    const m = /^@tiendita\/([^/]+)(?:\/(.+))?$/.exec(request);
    if (m) {
      const pkgDir = fs.realpathSync(path.join(root, 'node_modules', '@tiendita', m[1]));
      const candidate = path.join(pkgDir, 'src', m[2] ?? '', 'index.ts');
      if (fs.existsSync(candidate)) return candidate;
    }
  }
  const match = /^@tiendita\/([^/]+)\/(.+)$/.exec(request);
  if (match) {
    const pkgDir = path.join(root, 'node_modules', '@tiendita', match[1]);
    for (const candidate of [path.join(pkgDir, 'dist', match[2], 'index.js'), path.join(pkgDir, 'dist', `${match[2]}.js`)]) {
      if (fs.existsSync(candidate)) return candidate;
    }
  }
  return originalResolve.call(this, request, parent, ...rest);
};
