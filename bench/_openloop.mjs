// A lean open-loop load generator, run as its own process by the benches (like wrk would be), so
// the bench's own heap (NestJS, pg, the seed data) and its garbage collections never weigh on the
// latencies it reports. Input: one JSON object on argv[2]:
//   { url, paths: [..], rate, seconds, maxInFlight, headers?: { [path]: { … } } }
// Sends paths[i % paths.length] when each request is due (whether or not earlier ones answered),
// counts latency from the due time, and prints one JSON object: { latencies (sorted ms), errors,
// seconds, worstBySecond, lagMaxMs }.
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';

const { url, paths, rate, seconds, maxInFlight = 1000, headers = {} } = JSON.parse(process.argv[2]);
const pool = new Pool(url, { connections: 64, pipelining: 1, keepAliveTimeout: 30_000 });

/** Reads a body to its end without gathering it; answers its length. */
async function drain(body) {
  let bytes = 0;
  for await (const chunk of body) bytes += chunk.length;
  return bytes;
}

const latencies = [];
const worstBySecond = new Array(Math.ceil(seconds)).fill(0);
let errors = 0;
let inFlight = 0;
let sent = 0;
const total = Math.round(rate * seconds);
let drained = null;
const lag = monitorEventLoopDelay({ resolution: 1 });
lag.enable();
const t0 = performance.now();
while (sent < total) {
  const due = Math.min(total, Math.floor(((performance.now() - t0) / 1000) * rate) + 1);
  while (sent < due) {
    const dueAt = t0 + (sent / rate) * 1000;
    const path = paths[sent % paths.length];
    sent++;
    if (inFlight >= maxInFlight) {
      errors++;
      continue;
    }
    inFlight++;
    pool
      .request({ method: 'GET', path, headers: headers[path] ?? {} })
      .then(async (res) => {
        const bytes = await drain(res.body);
        if (res.statusCode !== 200 || bytes < 2) return void errors++;
        const ms = performance.now() - dueAt;
        latencies.push(ms);
        const second = Math.min(worstBySecond.length - 1, Math.floor((dueAt - t0) / 1000));
        worstBySecond[second] = Math.max(worstBySecond[second], ms);
      })
      .catch(() => void errors++)
      .finally(() => {
        inFlight--;
        if (inFlight === 0 && drained) drained();
      });
  }
  await sleep(1);
}
if (inFlight > 0) await new Promise((resolve) => (drained = resolve));
lag.disable();
await pool.close();
latencies.sort((a, b) => a - b);
process.stdout.write(JSON.stringify({ latencies, errors, seconds: (performance.now() - t0) / 1000, worstBySecond, lagMaxMs: lag.max / 1e6 }));
