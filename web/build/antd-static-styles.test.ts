import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Plugin } from 'vite';
import { antdImports, antdStaticStyles, cssRules } from './antd-static-styles';
import { OWNER_THEME } from '../src/features/shell/owner-theme';

type Hook = (...args: unknown[]) => unknown;
const call = (plugin: Plugin, hook: 'buildStart' | 'resolveId' | 'load' | 'transform', ...args: unknown[]) => (plugin[hook] as Hook).call({}, ...args);

describe('antd static styles (build)', () => {
  it('splits CSS into top-level rules, @media blocks whole and quotes respected', () => {
    expect(cssRules('.a{color:red}@media (max-width:10px){.b{x:1}.c{y:2}}.d::after{content:"}"}')).toEqual([
      '.a{color:red}',
      '@media (max-width:10px){.b{x:1}.c{y:2}}',
      '.d::after{content:"}"}',
    ]);
  });

  it("reads the components a module imports from 'antd', not its types", () => {
    const code = "import { Button, type MenuProps, Table as T } from 'antd';\nimport type { FormInstance } from 'antd';\nimport { x } from './antd';";
    expect(antdImports(code)).toEqual(['Button', 'Table']);
  });

  describe('with a module that uses a Table', () => {
    const srcDir = `${mkdtempSync(join(tmpdir(), 'antd-styles-'))}/`;
    const plugin = antdStaticStyles({ theme: OWNER_THEME, srcDir });
    const table = "import { Table } from 'antd';\nexport const X = Table;\n";
    beforeAll(async () => {
      writeFileSync(join(srcDir, 'list.tsx'), table);
      await call(plugin, 'buildStart');
    }, 60_000);
    afterAll(() => rmSync(srcDir, { recursive: true, force: true }));

    it("imports, on the module's first line, the CSS of the table and of what it shows inside (its pagination)", () => {
      const out = call(plugin, 'transform', table, join(srcDir, 'list.tsx')) as { code: string };
      const imports = [...out.code.split('\n')[0].matchAll(/import '(virtual:antd-style\/[^']+)';/g)].map((m) => m[1]);
      expect(imports[0]).toBe('virtual:antd-style/base.css');
      expect(imports).toEqual(expect.arrayContaining(['virtual:antd-style/Table.css', 'virtual:antd-style/Pagination.css', 'virtual:antd-style/Empty.css']));
      expect(out.code.split('\n').slice(1).join('\n')).toBe(table.split('\n').slice(1).join('\n'));
      const css = imports.map((id) => call(plugin, 'load', call(plugin, 'resolveId', id)) as string);
      for (const file of css) expect(file.startsWith('@layer antd{')).toBe(true);
      const all = css.join('');
      expect(all).toContain('.ant-table');
      expect(all).toContain('.ant-pagination');
      // The theme's colour, not antd's default blue.
      expect(all).toContain('#0369a1');
      // A rule shared by several components is sent in one file only.
      const files = css.map((file) => new Set(cssRules(file.slice('@layer antd{'.length, -1))));
      const inFiles = new Map<string, number>();
      for (const rules of files) for (const rule of rules) inFiles.set(rule, (inFiles.get(rule) ?? 0) + 1);
      expect([...inFiles.values()].filter((n) => n > 1)).toEqual([]);
    });

    it('leaves a module without antd untouched', () => {
      expect(call(plugin, 'transform', 'export const y = 1;', join(srcDir, 'other.ts'))).toBeNull();
    });
  });
});
