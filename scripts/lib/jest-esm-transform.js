// Jest on Node 20 cannot require() ES modules (native support needs Node 24.9+), and NestJS 12,
// nodemailer and a few others ship ESM only. This transform turns ESM files under node_modules
// into CommonJS with swc; CommonJS files pass through untouched (cheap: a regex and a cached lookup).
const { transformSync } = require('@swc/core');
const { createHash } = require('node:crypto');
const { readFileSync, existsSync } = require('node:fs');
const { dirname, join } = require('node:path');

const typeByDir = new Map();

/** The "type" of the nearest package.json above a file ("module" or "commonjs"). */
function packageType(dir) {
  if (typeByDir.has(dir)) return typeByDir.get(dir);
  let type = 'commonjs';
  const pkg = join(dir, 'package.json');
  if (existsSync(pkg)) {
    try {
      type = JSON.parse(readFileSync(pkg, 'utf8')).type === 'module' ? 'module' : 'commonjs';
    } catch {
      type = 'commonjs';
    }
  } else if (dirname(dir) !== dir) {
    type = packageType(dirname(dir));
  }
  typeByDir.set(dir, type);
  return type;
}

function isEsm(filename, source) {
  if (filename.endsWith('.cjs')) return false;
  // antd's family ships ESM in es/ folders of "commonjs" packages (@ant-design/colors/es, reached from icons' lib/).
  const esFolder = /[\\/]es[\\/]/.test(filename);
  if (!filename.endsWith('.mjs') && !esFolder && packageType(dirname(filename)) !== 'module') return false;
  return /(^|\n)\s*(import|export)[\s{*]/.test(source) || source.includes('import.meta');
}

module.exports = {
  process(source, filename) {
    if (!isEsm(filename, source)) {
      // CommonJS that loads an ESM-only dependency with import('x') (@fastify/cookie → cookie):
      // jest cannot run import() without --experimental-vm-modules, so require it (transformed above).
      if (!source.includes('import(')) return { code: source };
      return { code: source.replace(/\bimport\((['"][^'"\n]+['"])\)/g, 'Promise.resolve().then(() => require($1))') };
    }
    const { code, map } = transformSync(source, {
      filename,
      swcrc: false,
      sourceMaps: true,
      jsc: { parser: { syntax: 'ecmascript' }, target: 'es2022', keepClassNames: true },
      module: { type: 'commonjs' },
    });
    return { code, map };
  },
  getCacheKey(source, filename) {
    return createHash('sha1').update('esm-to-cjs-3').update(filename).update('\0').update(source).digest('hex');
  },
};
