// A lean open-loop load generator, run as its own process by the benches (like wrk would be), so
// the bench's own heap (NestJS, pg, the seed data) and its garbage collections never weigh on the
// latencies it reports. Input: one JSON object on argv[2] (or `@<file>` holding it):
//   { url, paths: [..], rate, seconds, maxInFlight, headers?: { [path]: { … } }, internalSecret?,
//     method?: 'GET' | 'POST', bodies?: [object | string, …], commonHeaders?: { … }, okStatus?: 200 }
// With bodies, request i sends bodies[i % bodies.length] (an object is sent as JSON) to paths[i % paths.length].
// With internalSecret, each request is signed anew as service-kit's internal client signs it (a
// service accepts each signature's nonce once). With bodies, request i sends bodies[i] (a POST
// load: each body once, so give at least rate × seconds of them).
// Sends paths[i % paths.length] when each request is due (whether or not earlier ones answered),
// counts latency from the due time, and prints one JSON object: { latencies (sorted ms), errors,
// seconds, worstBySecond, lagMaxMs, statuses: { [status]: count }, errorSamples: [first bodies] }.
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';

// `@<file>` instead of the JSON: the input is in that file (a POST load's bodies pass the argv limit).
const argument = process.argv[2].startsWith('@') ? readFileSync(process.argv[2].slice(1), 'utf8') : process.argv[2];
const { url, paths, rate, seconds, maxInFlight = 1000, headers = {}, internalSecret, method = 'GET', bodies = null, commonHeaders = {}, okStatus = 200 } = JSON.parse(argument);
const { signInternalHeaders } = internalSecret ? await import('../libs/service-kit/dist/internal-auth.js') : { signInternalHeaders: null };
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
const statuses = {};
const errorSamples = [];
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
    const raw = bodies ? bodies[sent % bodies.length] : undefined;
    const body = raw === undefined ? undefined : typeof raw === 'string' ? raw : JSON.stringify(raw);
    sent++;
    if (inFlight >= maxInFlight) {
      errors++;
      continue;
    }
    inFlight++;
    pool
      .request({
        method,
        path,
        body,
        headers: {
          ...(body ? { 'content-type': 'application/json' } : {}),
          ...commonHeaders,
          ...(signInternalHeaders ? signInternalHeaders(internalSecret, { method, path, body: body ?? null }) : (headers[path] ?? {})),
        },
      })
      .then(async (res) => {
        statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
        if (res.statusCode !== okStatus) {
          const text = await res.body.text();
          if (errorSamples.length < 5) errorSamples.push(`${res.statusCode} ${text.slice(0, 300)}`);
          return void errors++;
        }
        const bytes = await drain(res.body);
        if (bytes < 2) return void errors++;
        const ms = performance.now() - dueAt;
        latencies.push(ms);
        const second = Math.min(worstBySecond.length - 1, Math.floor((dueAt - t0) / 1000));
        worstBySecond[second] = Math.max(worstBySecond[second], ms);
      })
      .catch((error) => {
        errors++;
        if (errorSamples.length < 5) errorSamples.push(String(error?.code ?? error?.message ?? error));
      })
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
process.stdout.write(JSON.stringify({ latencies, errors, seconds: (performance.now() - t0) / 1000, worstBySecond, lagMaxMs: lag.max / 1e6, statuses, errorSamples }));
