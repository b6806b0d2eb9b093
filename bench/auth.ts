// `npm run bench -- auth`: 20 concurrent logins through the gateway, on a stack this bench starts
// itself on a fresh database: identity and the gateway each in its own process from their build,
// as `npm start` runs them, and the client in this one. Prints latency percentiles, the CPU a
// login costs in each process, and the worst event-loop delay of the gateway and of identity
// while the logins ran; the last line is the JSON the targets read:
// {"login_p99_ms":…,"loop_lag_max_ms":…}  (targets: p99 ≤ 250 ms, loop lag ≤ 50 ms).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Pool } from 'undici';
import { startBenchRun } from './_db';
import { percentile, round1, runBench } from './_measure';
import { cpuSeconds, machineBusySeconds } from './_proc';
import { freePort, startServiceProcess } from './_services';
import { testEnv } from '@tiendita/service-kit/testing';
import { newRegistration, RELAXED_LIMITS } from '../gateway/test/support/stack';

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 20);
// 50 rounds give 1,000 samples, so p99 is a percentile and not just the worst round; the first
// rounds after start-up run colder code (V8 optimises the login path over the first few hundred
// calls), so WARMUP rounds go first, unmeasured, as a server that has been up a while would be.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 50);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);

/** CPU seconds of each thread of a process, by thread id: the main thread, or one of the others. */
function threadCpu(pid: number): Map<string, { name: string; seconds: number }> {
  const out = new Map<string, { name: string; seconds: number }>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    // Node names every thread "node": the main thread is the one whose id is the process's.
    const name = tid === String(pid) ? 'principal' : 'otros (argon2)';
    out.set(tid, { name, seconds: cpuSeconds(`${pid}/task/${tid}`) });
  }
  return out;
}

async function main(): Promise<void> {
  // As `npm start` runs them: identity and the gateway in processes of their own, on one database.
  const bench = await startBenchRun('auth');
  const { dataDir } = bench;
  const common = testEnv(bench.db.url, { DATA_DIR: dataDir, NODE_ENV: 'production', SEED_DEMO: '0', LOG_LEVEL: 'warn' });
  try {
    const identity = await startServiceProcess('identity', await freePort(), common, { probe: true });
    bench.children.push(identity);
    // Every login of the bench comes from 127.0.0.1: the per-address limits are raised, as in the tests.
    const gateway = await startServiceProcess('gateway', await freePort(), {
      ...common,
      ...RELAXED_LIMITS,
      IDENTITY_URL: identity.url,
      CATALOG_URL: 'http://127.0.0.1:9',
      ORDERING_URL: 'http://127.0.0.1:9',
      INVENTORY_URL: 'http://127.0.0.1:9',
      REPORTING_URL: 'http://127.0.0.1:9',
      WEB_DIST_DIR: join(dataDir, 'sin-web'),
    }, { probe: true });
    bench.children.push(gateway);
    const headers = { 'content-type': 'application/json', origin: gateway.url };
    const owners: { email: string; password: string }[] = [];
    for (let i = 0; i < CONCURRENCY; i++) {
      const registration = newRegistration();
      const res = await fetch(`${gateway.url}/api/auth/register`, { method: 'POST', headers, body: JSON.stringify(registration) });
      if (res.status !== 201) throw new Error(`registro falló: ${res.status} ${await res.text()}`);
      owners.push({ email: registration.email, password: registration.password });
    }

    // The client is this process, with a lean HTTP client (undici). No cookies are sent: each
    // login starts from a fresh browser, as a real sign-in does.
    const http = new Pool(gateway.url, { connections: CONCURRENCY });
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

    for (let round = 0; round < WARMUP; round++) await loginAll(); // connections, prepared statements, JIT

    identity.resetLag();
    gateway.resetLag();
    const samples: number[] = [];
    const clientBefore = process.cpuUsage();
    const identityBefore = cpuSeconds(identity.child.pid ?? 0);
    const gatewayBefore = cpuSeconds(gateway.child.pid ?? 0);
    const threadsBefore = threadCpu(identity.child.pid ?? 0);
    const machineBefore = machineBusySeconds();
    const started = performance.now();
    const roundMax: number[] = [];
    // The machine's CPU per login in each round (whole cores, /proc/stat, 10 ms ticks): on these
    // shared VMs it moves from run to run and within one, and the slowest login of a round tracks
    // it (20 logins on 2 cores end after about 10 × the CPU one login takes).
    const roundCpu: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const busyBefore = machineBusySeconds();
      const times = await loginAll();
      roundCpu.push(((machineBusySeconds() - busyBefore) * 1000) / CONCURRENCY);
      roundMax.push(Math.max(...times));
      samples.push(...times);
    }
    if (process.env.BENCH_VERBOSE) {
      console.log(`  máximo de cada ronda ms: ${roundMax.map((x) => Math.round(x)).join(' ')}`);
      console.log(`  CPU de la máquina por inicio de sesión en cada ronda ms: ${roundCpu.map((x) => x.toFixed(1)).join(' ')}`);
    }
    const seconds = (performance.now() - started) / 1000;
    const client = process.cpuUsage(clientBefore);
    const clientCpuMs = (client.user + client.system) / 1000;
    const identityCpuMs = (cpuSeconds(identity.child.pid ?? 0) - identityBefore) * 1000;
    const gatewayCpuMs = (cpuSeconds(gateway.child.pid ?? 0) - gatewayBefore) * 1000;
    const threadsAfter = threadCpu(identity.child.pid ?? 0);
    const byName = new Map<string, number>();
    for (const [tid, t] of threadsAfter) byName.set(t.name, (byName.get(t.name) ?? 0) + (t.seconds - (threadsBefore.get(tid)?.seconds ?? 0)) * 1000);
    const machineCpuMs = (machineBusySeconds() - machineBefore) * 1000;

    samples.sort((a, b) => a - b);
    const perLogin = (ms: number) => round1(ms / samples.length);
    const p99 = round1(percentile(samples, 99));
    const gatewayLagMax = round1(await gateway.lagMaxMs());
    const identityLagMax = round1(await identity.lagMaxMs());
    const lagMax = Math.max(gatewayLagMax, identityLagMax);
    console.log(`bench auth: ${ROUNDS} rondas de ${CONCURRENCY} inicios de sesión concurrentes a través del gateway (${samples.length} en total, ${round1(samples.length / seconds)}/s)`);
    console.log(`  latencia ms: p50 ${round1(percentile(samples, 50))} · p95 ${round1(percentile(samples, 95))} · p99 ${p99} · máx ${round1(samples[samples.length - 1])}`);
    console.log(
      `  CPU por inicio de sesión ms: gateway ${perLogin(gatewayCpuMs)} · identity ${perLogin(identityCpuMs)} · cliente ${perLogin(clientCpuMs)} · ` +
        `PostgreSQL y el resto de la máquina ${perLogin(machineCpuMs - identityCpuMs - gatewayCpuMs - clientCpuMs)} · máquina entera ${perLogin(machineCpuMs)}`,
    );
    console.log(`  CPU de identity por hilo, ms por inicio de sesión: ${[...byName].filter(([, ms]) => ms > 0).map(([name, ms]) => `${name} ${perLogin(ms)}`).join(' · ')}`);
    console.log(`  retraso máximo del event loop ms: gateway ${gatewayLagMax} · identity ${identityLagMax}`);
    console.log(`  objetivos: p99 ≤ 250 ms ${p99 <= 250 ? '✓' : '✗'} · retraso ≤ 50 ms ${lagMax <= 50 ? '✓' : '✗'}`);
    console.log(JSON.stringify({ login_p99_ms: p99, loop_lag_max_ms: lagMax }));
    await http.close();
  } finally {
    await bench.stop();
  }
}

runBench(main);
