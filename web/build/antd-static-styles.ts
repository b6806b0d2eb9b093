import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { createElement, type ReactElement } from 'react';
import type { Plugin } from 'vite';
import type { ThemeConfig } from 'antd';

/**
 * antd's styles as static CSS, written at build time from the owner app's theme (decision 0019).
 *
 * At run time antd builds every component's CSS in JavaScript (hashing, serialising, one <style> each):
 * on a phone that was most of the owner screens' blocking time. With `zeroRuntime` the app builds none
 * and this plugin supplies it instead:
 *  - every antd component the sources import gets its CSS, extracted from antd itself rendered with
 *    the theme (@ant-design/static-style-extract), plus the components it renders inside (Table's
 *    pagination, Form's grid…), found in antd's own imports;
 *  - a rule shared by several components belongs to one of them (the smallest), so no rule is sent twice;
 *  - each source module that imports from 'antd' imports the CSS of what it uses
 *    (`virtual:antd-style/<Component>.css`): a screen's chunk carries only its components' CSS;
 *  - antd's CSS is in the cascade layer `antd`, so the app's own CSS wins whatever the load order.
 */
const VIRTUAL = 'virtual:antd-style/';
const RESOLVED = '/@antd-style/';
const BASE = 'base';

type Extract = (includes: string[]) => string;

/** Top-level CSS rules (a rule, an @media block or a @keyframes block each). */
export function cssRules(css: string): string[] {
  const rules: string[] = [];
  let depth = 0;
  let start = 0;
  let quote: string | null = null;
  for (let i = 0; i < css.length; i++) {
    const c = css[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) {
      rules.push(css.slice(start, i + 1).trim());
      start = i + 1;
    }
  }
  return rules;
}

/** Value names a module imports from 'antd' (not types). */
export function antdImports(code: string): string[] {
  const names = new Set<string>();
  for (const m of code.matchAll(/import\s+(type\s+)?\{([^}]*)\}\s+from\s+['"]antd['"]/g)) {
    if (m[1]) continue;
    for (const part of m[2].split(',')) {
      const name = part.trim().split(/\s+as\s+/)[0]?.trim();
      if (name && !name.startsWith('type ')) names.add(name);
    }
  }
  return [...names];
}

/** antd's exported components and the folder each lives in (from antd/es/index.js). */
function antdComponents(esDir: string): Map<string, string> {
  const index = readFileSync(join(esDir, 'index.js'), 'utf8');
  const map = new Map<string, string>();
  for (const m of index.matchAll(/export \{ default as (\w+) \} from '\.\/([\w-]+)';/g)) map.set(m[1], m[2]);
  return map;
}

/**
 * The components a component renders inside (in any state), from the imports of its folder's files:
 * '../pagination' or '../pagination/Pagination' counts, a hook ('../grid/hooks/useBreakpoint') does not.
 */
function innerComponents(esDir: string, folder: string, folders: Map<string, string>): string[] {
  const found = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) {
        if (entry !== 'style') walk(path);
        continue;
      }
      if (!entry.endsWith('.js')) continue;
      for (const m of readFileSync(path, 'utf8').matchAll(/from '(\.\.?\/[^']+)'/g)) {
        const target = relative(esDir, resolve(dirname(path), m[1])).split(sep);
        if (target[0] === 'config-provider' && target[1] === 'defaultRenderEmpty') found.add('Empty');
        // The grid's folder holds Row and Col ('../grid', '../grid/col'); its hooks render nothing.
        if (target[0] === 'grid' && (target.length === 1 || /^(row|col)(\.js)?$/.test(target[1]))) {
          if (target.length === 1 || target[1].startsWith('row')) found.add('Row');
          if (target.length === 1 || target[1].startsWith('col')) found.add('Col');
        }
        const name = folders.get(target[0]);
        if (!name || target[0] === folder) continue;
        if (target.length === 1 || /^[A-Z]/.test(target[1])) found.add(name);
      }
    }
  };
  walk(join(esDir, folder));
  return [...found];
}

export function antdStaticStyles(options: { theme: ThemeConfig; srcDir: string }): Plugin {
  const require = createRequire(import.meta.url);
  const esDir = join(dirname(require.resolve('antd/package.json')), 'es');
  let files: Map<string, string> | null = null; // CSS file name -> CSS
  let needs: Map<string, string[]> | null = null; // component -> CSS files it needs, in order
  const theme: ThemeConfig = { ...options.theme, zeroRuntime: false };

  async function build(): Promise<void> {
    const [{ extractStyle }, antd] = await Promise.all([import('@ant-design/static-style-extract'), import('antd')]);
    const extract: Extract = (includes) =>
      extractStyle({ includes, customTheme: (node: ReactElement) => createElement(antd.ConfigProvider, { theme }, node) });
    const folders = antdComponents(esDir);
    const byFolder = new Map([...folders].map(([name, folder]) => [folder, name]));
    const used = new Set<string>();
    const inside = new Map<string, string[]>(); // component -> the components it renders inside, directly
    const addUsed = (name: string) => {
      if (used.has(name) || !folders.has(name) || name === 'ConfigProvider' || !/^[A-Z]|^message$|^notification$/.test(name)) return;
      used.add(name);
      const inner = innerComponents(esDir, folders.get(name)!, byFolder);
      inside.set(name, inner);
      for (const child of inner) addUsed(child);
    };
    /** A component and every component it may render inside, however deep. */
    const withInner = (name: string, seen = new Set<string>()): Set<string> => {
      if (seen.has(name) || !used.has(name)) return seen;
      seen.add(name);
      for (const child of inside.get(name) ?? []) withInner(child, seen);
      return seen;
    };
    for (const file of sources(options.srcDir)) for (const name of antdImports(readFileSync(file, 'utf8'))) addUsed(name);

    const baseRules = cssRules(extract([]));
    const extracted = [...used].map((name) => ({ name, rules: cssRules(extract([name])) }));
    // The smallest component first: a rule shared with a larger one belongs to the smaller.
    extracted.sort((a, b) => a.rules.length - b.rules.length || a.name.localeCompare(b.name));
    const owner = new Map<string, string>(baseRules.map((rule) => [rule, BASE]));
    files = new Map([[BASE, baseRules.join('')]]);
    const order = [BASE];
    for (const { name, rules } of extracted) {
      const own = rules.filter((rule) => !owner.has(rule));
      for (const rule of own) owner.set(rule, name);
      files.set(name, own.join(''));
      order.push(name);
    }
    // What a module that imports a component needs: the files owning the rules of that component and of
    // every component it may render inside (Table's pagination shows only once there are rows).
    const rulesOf = new Map(extracted.map(({ name, rules }) => [name, rules]));
    needs = new Map();
    for (const { name } of extracted) {
      const owners = new Set([...withInner(name)].flatMap((inner) => (rulesOf.get(inner) ?? []).map((rule) => owner.get(rule)!)));
      needs.set(name, order.filter((file) => owners.has(file) || file === BASE));
    }
  }

  return {
    name: 'tiendita-antd-static-styles',
    async buildStart() {
      await build();
    },
    resolveId(id) {
      return id.startsWith(VIRTUAL) ? RESOLVED + id.slice(VIRTUAL.length) : null;
    },
    load(id) {
      if (!id.startsWith(RESOLVED)) return null;
      const name = id.slice(RESOLVED.length).replace(/\.css$/, '');
      const css = files?.get(name);
      if (css === undefined) throw new Error(`sin CSS de antd para ${name}`);
      // In a cascade layer: the app's own CSS wins over antd's whatever the order the chunks load in
      // (at run time antd put its <style> first in <head> for the same reason).
      return `@layer antd{${css}}`;
    },
    transform(code, id) {
      if (!needs || !id.startsWith(options.srcDir) || !/\.tsx?$/.test(id)) return null;
      const names = antdImports(code).filter((name) => needs!.has(name));
      if (names.length === 0) return null;
      const wanted = new Set(names.flatMap((name) => needs!.get(name)!));
      const ordered = [BASE, ...[...needs.keys()].filter((name) => wanted.has(name))].filter((name, i, all) => all.indexOf(name) === i);
      // On the module's first line, so its line numbers stay as they were.
      return { code: ordered.map((name) => `import '${VIRTUAL}${name}.css';`).join('') + code, map: null };
    },
  };
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}
