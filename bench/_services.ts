// Service processes for the benches: each from its build (dist/main.js), in a process of its own
// with the node flags `npm start` gives it (scripts/lib/node-flags.cjs).
import { spawn, type ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serviceNodeFlags } from '../scripts/lib/node-flags.cjs';

export type ServiceName = 'identity' | 'catalog' | 'inventory' | 'gateway';
/** Every process a bench may start (ServiceName stays the four the first benches index their ports by). */
export type BenchService = ServiceName | 'ordering' | 'reporting';

const root = join(__dirname, '..');

/** A TCP port free on 127.0.0.1 right now, below the ephemeral range (scripts/lib/free-ports.cjs). */
export { freePort } from '../scripts/lib/free-ports.cjs';

export interface ServiceProcess {
  name: BenchService;
  /** http://127.0.0.1:<port> */
  url: string;
  child: ChildProcess;
  /** Worst event-loop delay of the process since start or the last resetLag (ms); needs `probe`. */
  lagMaxMs: () => Promise<number>;
  resetLag: () => void;
}

// Loaded before the service with `probe`: measures the event-loop delay and answers over IPC.
const PROBE = `const { monitorEventLoopDelay } = require('node:perf_hooks'); const h = monitorEventLoopDelay({ resolution: 5 }); h.enable();
  process.on('message', (m) => { if (m === 'reset') h.reset(); if (m === 'lag') process.send({ lagMaxMs: h.max / 1e6 }); });`;

/**
 * The environment every bench gives its service processes: the other services' URLs, the
 * gateway's public URL (required by the gateway, identity and catalog), the database, the shared
 * secret, and quiet production settings. One place, so a variable the services come to require
 * reaches every bench at once (three benches once stopped at start-up without PUBLIC_URL).
 */
export function benchServiceEnv(options: {
  urls: Record<string, string>;
  gatewayPort: number;
  databaseUrl: string;
  secret: string;
  dataDir: string;
  extra?: Record<string, string>;
}): Record<string, string> {
  return {
    ...options.urls,
    PUBLIC_URL: `http://127.0.0.1:${options.gatewayPort}`,
    DATABASE_URL: options.databaseUrl,
    INTERNAL_SECRET: options.secret,
    HOST: '127.0.0.1',
    DATA_DIR: options.dataDir,
    LOG_LEVEL: 'warn',
    SEED_DEMO: '0',
    NODE_ENV: 'production',
    // The bench orders from one address and, in its reservation trials, with one phone many times:
    // the public orders' fairness limits (issue 26) are raised so they never throttle it.
    RATE_ORDER_PER_IP: '1000000',
    ORDER_RATE_PER_PHONE: '1000000',
    ORDER_MAX_PENDING_PER_PHONE: '1000000',
    ...options.extra,
  };
}

/**
 * Starts one service on `port` with `env` (over this process's environment) and waits for its
 * /health, up to 60 s. BENCH_PROFILE=<name>[,<name>…] writes a V8 CPU profile of each to BENCH_PROFILE_DIR;
 * BENCH_SERVICE_ARGS="<name>:--trace-gc" adds node flags to it.
 */
export async function startServiceProcess(
  name: BenchService,
  port: number,
  env: Record<string, string>,
  options: { probe?: boolean } = {},
): Promise<ServiceProcess> {
  const main = join(root, name === 'gateway' ? 'gateway' : join('services', name), 'dist', 'main.js');
  const profile = (process.env.BENCH_PROFILE ?? '').split(',').includes(name) ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR ?? tmpdir()}`] : [];
  const [argsFor, ...flags] = (process.env.BENCH_SERVICE_ARGS ?? '').split(/[: ]/).filter(Boolean);
  const extra = argsFor === name ? flags : [];
  const entry = options.probe ? ['-e', `${PROBE}; require(${JSON.stringify(main)})`] : [main];
  const child = spawn(process.execPath, [...serviceNodeFlags(), ...profile, ...extra, ...entry], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: options.probe ? ['ignore', 'inherit', 'inherit', 'ipc'] : ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} terminó al arrancar (código ${child.exitCode})`);
    if (await fetch(`${url}/health`).then((r) => r.ok, () => false)) break;
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error(`${name} no respondió /health en 60 s`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const lagMaxMs = () =>
    new Promise<number>((resolve) => {
      child.once('message', (m: { lagMaxMs: number }) => resolve(m.lagMaxMs));
      child.send('lag');
    });
  return { name, url, child, lagMaxMs, resetLag: () => child.send('reset') };
}

/** Stops a service (SIGTERM) and waits until its process has exited. */
export async function stopServiceProcess(service: ServiceProcess | undefined): Promise<void> {
  if (!service || service.child.exitCode !== null) return;
  service.child.kill('SIGTERM');
  await new Promise((r) => service.child.once('exit', r));
}
