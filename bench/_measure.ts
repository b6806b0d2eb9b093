// What the benches measure with: rounding, percentiles, waiting for a read model, the open-loop
// load generator in its own process, and the shop route's initial JS from web/dist.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const root = join(__dirname, '..');

export const round1 = (x: number) => Math.round(x * 10) / 10;
export const round2 = (x: number) => Math.round(x * 100) / 100;
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The p-th percentile (nearest rank) of an ascending array; NaN when empty. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.max(0, Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** Probes every `everyMs` until it answers something truthy (a throw counts as not yet); past `timeoutMs`, fails naming `what`. */
export async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 60_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => null);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`tiempo agotado esperando ${what}`);
    await sleep(everyMs);
  }
}

/** What bench/_openloop.mjs answers. */
export interface OpenLoopResult {
  latencies: number[];
  errors: number;
  seconds: number;
  worstBySecond: number[];
  lagMaxMs: number;
}

/**
 * Runs the open-loop load generator (bench/_openloop.mjs) in its own lean process with `input`
 * (url, paths, rate, seconds, maxInFlight, and optionally method, bodies, headers, internalSecret),
 * so this process's heap and garbage collections never show up as the service's latency.
 */
export async function runOpenLoop(input: Record<string, unknown>): Promise<OpenLoopResult> {
  const child = spawn(process.execPath, ['--single-threaded-gc', join(__dirname, '_openloop.mjs'), JSON.stringify(input)], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (code !== 0) throw new Error(`el generador de carga terminó con código ${code}`);
  return JSON.parse(out) as OpenLoopResult;
}

/**
 * A route's first load from web/dist's Vite manifest: the entry chunk, the first chunk whose source
 * path `chunk` matches, and everything they import statically: the JS files and their gzipped KB
 * (null without a web build or without such a chunk).
 */
export function initialJs(chunk: (source: string) => boolean): { kb: number; js: Buffer[] } | null {
  const dist = join(root, 'web', 'dist');
  const manifestFile = join(dist, '.vite', 'manifest.json');
  if (!existsSync(manifestFile)) return null;
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, { file: string; isEntry?: boolean; imports?: string[] }>;
  const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
  const route = Object.keys(manifest).find(chunk);
  if (!entry || !route) return null;
  const files = new Set<string>();
  const walk = (key: string) => {
    const c = manifest[key];
    if (!c || files.has(c.file)) return;
    files.add(c.file);
    for (const i of c.imports ?? []) walk(i);
  };
  walk(entry);
  walk(route);
  const js = [...files].filter((f) => f.endsWith('.js')).map((f) => readFileSync(join(dist, f)));
  return { kb: round1(js.reduce((sum, b) => sum + gzipSync(b).length, 0) / 1024), js };
}

/** The shop route's initial JS, gzipped KB (the shop app's chunk, or the first chunk under src/shop/). */
export function shopJsGzKb(): number | null {
  const shopApp = (source: string) => /^src\/shop\/shop-app\.[jt]sx?$/.test(source);
  return (initialJs(shopApp) ?? initialJs((source) => source.startsWith('src/shop/')))?.kb ?? null;
}

/** Runs a bench's main and exits with 0, or prints the error and exits with 1. */
export function runBench(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
