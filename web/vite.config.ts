import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { ROUTE_CHUNKS_META, type RouteChunks } from './src/app/route-chunks';
import { OWNER_THEME } from './src/features/shell/owner-theme';
import { antdStaticStyles } from './build/antd-static-styles';

const contracts = fileURLToPath(new URL('../contracts/src/index.ts', import.meta.url));
const contractsConstants = fileURLToPath(new URL('../contracts/src/constants.ts', import.meta.url));
const contractsDir = fileURLToPath(new URL('../contracts/src/', import.meta.url));

// Owner screens by path, as owner-app.tsx loads them: the HTML lists each one's chunks (routeChunks).
const OWNER_ROUTE_SOURCES: Record<string, string> = {
  '/dashboard': 'src/features/shell/owner-app.tsx',
  '/orders': 'src/features/orders/pages/orders-page.tsx',
  '/pos': 'src/features/pos/pos-page.tsx',
  '/products': 'src/features/products/products-page.tsx',
  '/reports': 'src/features/reports/reports-page.tsx',
  '/inventory': 'src/features/inventory/inventory-page.tsx',
  '/settings': 'src/features/settings/settings-page.tsx',
};

type Chunk = { type: 'chunk'; fileName: string; isEntry: boolean; facadeModuleId: string | null; imports: string[]; viteMetadata?: { importedCss: Set<string> } };

/**
 * Writes into index.html, as a <meta> (the CSP runs no inline script), the files each owner screen
 * needs beyond the entry: the entry modulepreloads the screen opened directly together with the owner
 * app (not one after the other), and the owner app prefetches the likely next screens without running them.
 */
function routeChunks(): Plugin {
  return {
    name: 'tiendita-route-chunks',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (!ctx.bundle) return html;
        const chunks = Object.values(ctx.bundle).filter((c): c is never => c.type === 'chunk') as Chunk[];
        const byName = new Map(chunks.map((c) => [c.fileName, c]));
        const closure = (chunk: Chunk, seen: Set<string>) => {
          if (seen.has(chunk.fileName)) return seen;
          seen.add(chunk.fileName);
          for (const css of chunk.viteMetadata?.importedCss ?? []) seen.add(css);
          for (const name of chunk.imports) closure(byName.get(name)!, seen);
          return seen;
        };
        const entry = chunks.find((c) => c.isEntry);
        const inEntry = entry ? closure(entry, new Set()) : new Set<string>();
        const files: string[] = [];
        const indexOf = (file: string) => (files.includes(file) ? files.indexOf(file) : files.push(file) - 1);
        const ASSETS = 'assets/';
        const routes: RouteChunks['routes'] = {};
        for (const [path, source] of Object.entries(OWNER_ROUTE_SOURCES)) {
          const chunk = chunks.find((c) => c.facadeModuleId?.endsWith(source));
          if (chunk) routes[path] = [...closure(chunk, new Set())].filter((f) => !inEntry.has(f)).map((f) => indexOf(f.startsWith(ASSETS) ? f.slice(ASSETS.length) : f));
        }
        const map: RouteChunks = { files, routes };
        // File names have no quote: the JSON goes in a single-quoted attribute as it is.
        const meta = `<meta name="${ROUTE_CHUNKS_META}" content='${JSON.stringify(map)}'>`;
        return html.replace('</head>', `  ${meta}\n  </head>`);
      },
    },
  };
}

/**
 * gzip and brotli copies beside each file of the build (the gateway serves them when the browser
 * accepts them): a phone downloads the owner app's ~250 KB instead of ~850 KB. Every build gets them,
 * so what `npm run bench -- web` measures is what `npm start` serves.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'tiendita-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const walk = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? walk(join(dir, d.name)) : [join(dir, d.name)]));
      for (const file of walk(outDir)) {
        if (!/\.(js|css|html|svg|json|txt|webmanifest)$/.test(file) || file.endsWith('manifest.json')) continue;
        const size = statSync(file).size;
        if (size < 1024) continue;
        const content = readFileSync(file);
        writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
        writeFileSync(`${file}.br`, brotliCompressSync(content, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: size } }));
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), antdStaticStyles({ theme: OWNER_THEME, srcDir: fileURLToPath(new URL('./src/', import.meta.url)) }), routeChunks(), precompress()],
  resolve: {
    alias: [
      // The package's two entries (contracts/package.json exports), from source.
      { find: /^@tiendita\/contracts$/, replacement: contracts },
      { find: /^@tiendita\/contracts\/constants$/, replacement: contractsConstants },
    ],
  },
  server: { proxy: { '/api': 'http://localhost:3000' } },
  preview: { proxy: { '/api': 'http://localhost:3000' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    target: 'es2022',
    // The owner app carries antd (~165 KB gzipped); it is lazy and never reaches the landing page or the shop.
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      // Contracts only declare schemas and pure helpers: a page that uses formatQuetzales must not pull in
      // every zod schema (and zod itself) through the barrel.
      treeshake: { moduleSideEffects: (id: string) => !id.startsWith(contractsDir), manualPureFunctions: ['z'] },
      // Keep code that only lazy screens share (zod, form helpers) out of the entry every visitor loads.
      experimental: { chunkOptimization: { mergeCommonChunks: false } },
      output: {
        codeSplitting: {
          groups: [
            { name: 'zod', test: /node_modules[\\/]zod[\\/]/ },
            { name: 'react-router', test: /node_modules[\\/]react-router[\\/]/ },
            // The shop's contracts module holds only re-exports: alone it made an empty chunk that the shop
            // still asked for (rolldown keeps it); beside the money helpers, which the shop loads anyway, it costs nothing.
            { name: 'money', test: /(contracts[\\/]src[\\/]money|web[\\/]src[\\/]shop[\\/]lib[\\/]contracts)\.ts$/ },
          ],
        },
      },
    },
  },
});
