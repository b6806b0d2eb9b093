import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const contracts = fileURLToPath(new URL('../contracts/src/index.ts', import.meta.url));
const contractsConstants = fileURLToPath(new URL('../contracts/src/constants.ts', import.meta.url));
const contractsDir = fileURLToPath(new URL('../contracts/src/', import.meta.url));

export default defineConfig({
  plugins: [react()],
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
