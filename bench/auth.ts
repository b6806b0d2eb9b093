// `npm run bench -- auth`: 20 concurrent logins through the gateway, on a stack this bench starts
// itself (identity + gateway in this process, a fresh database). Prints latency percentiles and
// the worst event-loop delay seen while the logins ran; the last line is the JSON the targets read:
// {"login_p99_ms":…,"loop_lag_max_ms":…}  (targets: p99 ≤ 250 ms, loop lag ≤ 50 ms).
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Pool } from 'undici';
import { newRegistration, startStack } from '../gateway/test/support/stack';

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)];
}

async function main(): Promise<void> {
  if (!process.env.TEST_DATABASE_ADMIN_URL && process.env.DATABASE_URL) process.env.TEST_DATABASE_ADMIN_URL = process.env.DATABASE_URL;
  const stack = await startStack({ services: ['identity'] });
  try {
    const owners: { email: string; password: string }[] = [];
    for (let i = 0; i < CONCURRENCY; i++) {
      const registration = newRegistration();
      const res = await stack.client().post('/api/auth/register', registration);
      if (res.status !== 201) throw new Error(`registro falló: ${res.status} ${res.text}`);
      owners.push({ email: registration.email, password: registration.password });
    }

    // A lean HTTP client (undici) so the client's own work weighs little in this process. No
    // cookies are sent: each login starts from a fresh browser, as a real sign-in does.
    const http = new Pool(stack.url, { connections: CONCURRENCY });
    const headers = { 'content-type': 'application/json', origin: stack.url };
    const loginAll = () =>
      Promise.all(
        owners.map(async (owner) => {
          const start = performance.now();
          const res = await http.request({ method: 'POST', path: '/api/auth/login', headers, body: JSON.stringify(owner) });
          const text = await res.body.text();
          const ms = performance.now() - start;
          if (res.statusCode !== 200 || !String(res.headers['set-cookie'] ?? '').includes('tiendita.sid=')) throw new Error(`inicio de sesión falló: ${res.statusCode} ${text}`);
          return ms;
        }),
      );

    await loginAll(); // warm-up: connections, prepared statements, JIT

    const lag = monitorEventLoopDelay({ resolution: 5 });
    lag.enable();
    const samples: number[] = [];
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    for (let round = 0; round < ROUNDS; round++) samples.push(...(await loginAll()));
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    lag.disable();

    samples.sort((a, b) => a - b);
    const round1 = (x: number) => Math.round(x * 10) / 10;
    const p99 = round1(percentile(samples, 99));
    const lagMax = round1(lag.max / 1e6);
    console.log(`bench auth: ${ROUNDS} rondas de ${CONCURRENCY} inicios de sesión concurrentes a través del gateway (${samples.length} en total, ${round1(samples.length / seconds)}/s)`);
    console.log(`  latencia ms: p50 ${round1(percentile(samples, 50))} · p95 ${round1(percentile(samples, 95))} · p99 ${p99} · máx ${round1(samples[samples.length - 1])}`);
    console.log(`  CPU de este proceso por inicio de sesión: ${round1((cpu.user + cpu.system) / 1000 / samples.length)} ms (usuario ${round1(cpu.user / 1000 / samples.length)}, sistema ${round1(cpu.system / 1000 / samples.length)}; argon2, gateway, identity, cliente)`);
    console.log(`  retraso del event loop ms: p99 ${round1(lag.percentile(99) / 1e6)} · máx ${lagMax}`);
    console.log(`  objetivos: p99 ≤ 250 ms ${p99 <= 250 ? '✓' : '✗'} · retraso ≤ 50 ms ${lagMax <= 50 ? '✓' : '✗'}`);
    console.log(JSON.stringify({ login_p99_ms: p99, loop_lag_max_ms: lagMax }));
    await http.close();
  } finally {
    await stack.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
