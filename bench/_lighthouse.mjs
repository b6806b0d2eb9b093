// One Lighthouse run (the `lighthouse` package, mobile settings: its default config, a Moto G
// Power on slow 4G with a 4× slower CPU, simulated) of one URL on Debian's chromium, in its own
// process so Lighthouse's memory never weighs on the bench. Input: one JSON object on argv[2]:
//   { url, chromePath?, categories?: ['performance', 'accessibility'], blockScripts?: boolean,
//     extraHeaders?: { Cookie: '…' } (a signed-in owner's session, for the owner screens) }
// Prints one JSON object: { performance, accessibility (0–100), metrics: { lcp, fcp, tbt, cls, si,
// ttfb (ms) }, lcpElement, failedA11y: [audit ids] , mainThread: { [group]: ms }, benchmarkIndex }.
// benchmarkIndex is Lighthouse's measure of the machine's speed at the run (a quiet desktop ~1,000–2,000;
// a loaded VM a few hundred): the simulation multiplies the main-thread time it observed by 4.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';

const { url, chromePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', categories = ['performance', 'accessibility'], blockScripts = false, extraHeaders } = JSON.parse(process.argv[2]);

const chrome = await chromeLauncher.launch({
  chromePath,
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking'],
});
try {
  // blockScripts: the page without any JavaScript (the gateway's first screen alone), for the part
  // of the figures that is the browser's own work on the HTML, CSS and pictures.
  const blockedUrlPatterns = blockScripts ? ['*.js'] : [];
  const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: categories, blockedUrlPatterns, ...(extraHeaders ? { extraHeaders } : {}) });
  const lhr = result.lhr;
  // BENCH_LIGHTHOUSE_DIR=/tmp/lh keeps every run's whole report (long tasks, main-thread work by
  // script) for looking into a figure.
  if (process.env.BENCH_LIGHTHOUSE_DIR) {
    mkdirSync(process.env.BENCH_LIGHTHOUSE_DIR, { recursive: true });
    const name = `${new URL(url).pathname.replace(/[^a-z0-9]+/gi, '_')}-${Date.now()}.json`;
    writeFileSync(join(process.env.BENCH_LIGHTHOUSE_DIR, name), JSON.stringify(lhr));
  }
  if (lhr.runtimeError) throw new Error(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
  const score = (id) => (lhr.categories[id]?.score == null ? null : Math.round(lhr.categories[id].score * 100));
  const num = (id) => Math.round(lhr.audits[id]?.numericValue ?? NaN);
  const failedA11y = Object.values(lhr.categories.accessibility?.auditRefs ?? [])
    .filter((ref) => ref.weight > 0 && lhr.audits[ref.id]?.score !== null && lhr.audits[ref.id]?.score < 1)
    .map((ref) => ref.id);
  const lcpItems = lhr.audits['largest-contentful-paint-element']?.details?.items ?? [];
  const lcpNode = lcpItems[0]?.items?.[0]?.node ?? lcpItems[0]?.node;
  const mainThread = Object.fromEntries((lhr.audits['mainthread-work-breakdown']?.details?.items ?? []).map((i) => [i.group, Math.round(i.duration)]));
  const bootup = (lhr.audits['bootup-time']?.details?.items ?? []).slice(0, 5).map((i) => ({ url: String(i.url).replace(/^https?:\/\/[^/]+/, ''), total: Math.round(i.total), scripting: Math.round(i.scripting) }));
  process.stdout.write(
    JSON.stringify({
      performance: score('performance'),
      accessibility: score('accessibility'),
      metrics: { fcp: num('first-contentful-paint'), lcp: num('largest-contentful-paint'), tbt: num('total-blocking-time'), cls: Math.round((lhr.audits['cumulative-layout-shift']?.numericValue ?? 0) * 1000) / 1000, si: num('speed-index'), ttfb: num('server-response-time') },
      lcpElement: lcpNode?.snippet ?? null,
      failedA11y,
      mainThread,
      bootup,
      benchmarkIndex: Math.round(lhr.environment?.benchmarkIndex ?? NaN),
    }),
  );
} finally {
  await chrome.kill();
}
