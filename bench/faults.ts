// `npm run bench -- faults` (issue 26): public checkouts at 20/s for 60 s through Tiendita started
// as `npm start` starts it (its own DATA_DIR and embedded PostgreSQL: the bench's DATABASE_URL is
// not used, since the database is restarted), while one service is killed (kill -9, at 15 s) and
// PostgreSQL is shut down at once (SIGQUIT to its postmaster, at 35 s; npm start starts it again).
// Shoppers retry a 5xx or a lost connection with the same Idempotency-Key, with backoff.
//
// Prints how many seconds each fault took until checkouts were accepted again, the 5xx answers and
// how many were the Spanish 503, and what was lost, duplicated or oversold. Targets: 0 lost, 0
// duplicated, 0 oversold, every service back within 10 s, every 5xx a Spanish 503.
//
// Knobs: BENCH_FAULT_SERVICE (default ordering), BENCH_FAULT_RATE (20), BENCH_FAULT_SECONDS (60),
// BENCH_ECHO=1 shows npm start's lines.
import { mkdtempSync, rmSync, chmodSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkoutStream, freePortBlock, killService, openShop, reconcile, startTiendita, stopPostgresNow } from './_faults';
import { cpuSeconds, machineBusySeconds } from './_proc';

const service = process.env.BENCH_FAULT_SERVICE || 'ordering';
const rate = Number(process.env.BENCH_FAULT_RATE || 20);
const seconds = Number(process.env.BENCH_FAULT_SECONDS || 60);
const killAt = Math.round(seconds * 0.25);
const pgAt = Math.round(seconds * 0.58);

const round1 = (x: number) => Math.round(x * 10) / 10;
const sleepUntil = (t: number) => new Promise((r) => setTimeout(r, Math.max(0, t - Date.now())));

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tiendita-bench-fallas-'));
  chmodSync(dataDir, 0o755);
  const t = await startTiendita({ port: await freePortBlock(), dataDir, echo: process.env.BENCH_ECHO === '1', readyMs: 300_000 });
  try {
    console.log(`bench faults: Tiendita arrancada con npm start en ${t.url} (PostgreSQL embebido propio en ${dataDir})`);
    // Three products with stock for the whole run, and one that sells out (the oversell check bites).
    const plenty = Math.ceil((rate * seconds) / 4) + 50;
    const shop = await openShop(t.url, [plenty, plenty, plenty, Math.ceil((rate * seconds) / 20)]);
    console.log(`  tienda ${shop.subdomain}: ${shop.products.length} productos; pedidos de 1 unidad a ${rate}/s durante ${seconds} s; ${service} muere a los ${killAt} s, PostgreSQL se reinicia a los ${pgAt} s`);

    const stream = checkoutStream(t.url, shop, rate);
    const t0 = Date.now();
    const busy0 = machineBusySeconds();
    const load0 = loadavg()[0];
    await sleepUntil(t0 + killAt * 1000);
    const killMark = t.lines.length;
    const killedAt = killService(t, service);
    console.log(`  ${round1((killedAt - t0) / 1000)} s: kill -9 de ${service}`);
    // The CPU its new process had used when it answered /health: what a restart costs, whatever the load.
    let bootCpu = NaN;
    void t.waitForLine(new RegExp(`^\\[${service}\\] de nuevo en servicio`), 120_000, killMark).then(
      () => (bootCpu = cpuSeconds(t.pidOf(service) ?? 0)),
      () => undefined,
    );
    await sleepUntil(t0 + pgAt * 1000);
    const pgMark = t.lines.length;
    const pgStoppedAt = stopPostgresNow(t);
    console.log(`  ${round1((pgStoppedAt - t0) / 1000)} s: PostgreSQL detenido de inmediato (SIGQUIT)`);
    await sleepUntil(t0 + seconds * 1000);
    const busy = machineBusySeconds() - busy0;
    const wall = (Date.now() - t0) / 1000;
    const load1 = loadavg()[0];
    const stats = await stream.stop();
    console.log(`  flujo detenido; ${stats.outcomes.length} pedidos intentados, esperando a que todos terminen`);
    console.log(
      `  máquina durante el flujo: ${Math.round((100 * busy) / wall / availableParallelism())} % de CPU ocupada (todos los procesos, también los ajenos), carga media ${load0.toFixed(1)} → ${load1.toFixed(1)}; ${service} reiniciado usó ${Number.isNaN(bootCpu) ? '—' : round1(bootCpu)} s de CPU hasta responder /health`,
    );

    const serviceBack = stream.acceptedAgainAfter(killedAt);
    const pgBack = stream.acceptedAgainAfter(pgStoppedAt);
    const supervisorLine = (pattern: RegExp, after: number) => t.lines.slice(after).find((l) => pattern.test(l)) ?? '(no apareció)';
    console.log(`  ${service}: pedidos aceptados de nuevo ${serviceBack === null ? '—' : round1(serviceBack)} s después del kill; ${supervisorLine(new RegExp(`^\\[${service}\\] de nuevo en servicio`), killMark)}`);
    console.log(`  PostgreSQL: pedidos aceptados de nuevo ${pgBack === null ? '—' : round1(pgBack)} s después de detenerlo; ${supervisorLine(/^\[postgres\] de nuevo en servicio/, pgMark)}`);

    const result = await reconcile(t.url, shop, stats);
    console.log(
      `  respuestas 5xx: ${stats.answers5xx} (503 en español: ${stats.answers5xx - stats.answers5xxNotSpanish503}, otras: ${stats.answers5xxNotSpanish503}); conexiones perdidas: ${stats.networkErrors}; 429: ${stats.throttled}`,
    );
    for (const body of stats.oddBodies) console.log(`    5xx que no es el 503 en español: ${body}`);
    console.log(
      `  aceptados ${result.accepted}, sin stock ${result.refused}, sin respuesta final tras 90 s ${result.givenUp}; en la lista del dueño ${result.ordersListed} (${result.unanswered} de pedidos sin respuesta final): perdidos ${result.lost}, duplicados ${result.duplicated}, productos sobrevendidos ${result.oversold}`,
    );
    // ordering gives back on its start the holds of checkouts its killed process never recorded; what
    // is left is held for a checkout whose shopper stopped retrying (released when its hold runs out).
    console.log(`  unidades retenidas sin pedido: ${result.stuckUnits}`);
    for (const line of result.detail) console.log(`    stock distinto de sus pedidos: ${line}`);
    const recoveries = [serviceBack, pgBack].map((x) => (x === null ? Infinity : x));
    const maxRecovery = Math.max(...recoveries);
    console.log(
      JSON.stringify({
        lost: result.lost,
        duplicated: result.duplicated,
        oversold: result.oversold,
        max_recovery_s: Number.isFinite(maxRecovery) ? round1(maxRecovery) : null,
        answers_5xx: stats.answers5xx,
        answers_5xx_not_spanish_503: stats.answers5xxNotSpanish503,
      }),
    );
  } finally {
    const code = await t.stop();
    if (code !== 0) console.log(`  npm start terminó con código ${code}`);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
