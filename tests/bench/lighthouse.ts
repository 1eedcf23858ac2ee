/**
 * Lighthouse mobile performance (simulated slow 4G and a 4x slower CPU, Lighthouse's defaults) of
 * the built server on a copy of the seeded database, offline (127.0.0.1 only), with Debian's
 * Chromium. The median of `--runs` (3) per page: home, browse, a pin's page, identify and the
 * demo player's collection, signed in (a session written into the copy, its cookie sent with every
 * request of that page). Fails (exit 1) when a median is under `--min` (90); with `--ci`, a page
 * under it is first measured 3 times more and judged on the median of its 6 runs.
 *
 *   npx tsx tests/bench/lighthouse.ts [--db tests/.tmp/seeded.db] [--runs 3] [--min 90] [--pages home,browse] [--port 3493]
 *   npx tsx tests/bench/lighthouse.ts --ci     (the five pages, 3 runs each, floor 90: what CI runs)
 * Needs `npm run build` first (and the seeded database: the end-to-end tests make it). CHROME_PATH
 * overrides /usr/bin/chromium.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { throttling } from 'lighthouse/core/config/constants.js';
import { SERVER_NODE_FLAGS } from '../../app/cli/server-flags.js';
import { createSession, ensureSeed, seededDb, SESSION_COOKIE, SESSION_SECRET } from '../e2e/servers';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const arg = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const SOURCE = arg('db') ?? seededDb;
/**
 * The score CI requires of every page's median (issue 59: the goal is 95; the floor allows for a
 * busy machine). Measured figures: docs/speed.md, "Lighthouse in CI".
 */
export const LIGHTHOUSE_FLOOR = 90;
const RUNS = Number(arg('runs') ?? 3);
const MIN = Number(arg('min') ?? LIGHTHOUSE_FLOOR);
const PORT = Number(arg('port') ?? 3493);
const ONLY = arg('pages')?.split(',');
const CI = args.includes('--ci');
if (CI && (arg('runs') || arg('min') || ONLY)) throw new Error(`--ci runs every page 3 times with a floor of ${LIGHTHOUSE_FLOOR}: give no --runs, --min or --pages with it`);
/**
 * Audits of no weight in the score that cost time: the back/forward cache test (it navigates away
 * and back), the screenshots and the treemap. Skipping them makes a run about a third shorter.
 */
const SKIPPED_AUDITS = ['bf-cache', 'screenshot-thumbnails', 'final-screenshot', 'script-treemap-data', 'valid-source-maps'];
/**
 * Lighthouse simulates a mid-tier phone by slowing the host's CPU 4 times, which assumes a fast
 * host; its documentation (docs/throttling.md, "CPU throttling") says to calibrate the multiplier
 * on a slower host from the benchmark index Lighthouse measures at the start of each run. This is
 * the calibration of Lighthouse's own calculator, never above Lighthouse's 4: on a quiet machine
 * as fast as Lighthouse assumes, the audit is the default one; on a slower or busy one the
 * simulated phone stays the same instead of becoming a slower one. `--fixed-cpu` keeps 4.
 */
export function cpuMultiplier(benchmarkIndex: number): number {
  if (!Number.isFinite(benchmarkIndex) || benchmarkIndex <= 0) return 4;
  const calibrated =
    benchmarkIndex >= 1300 ? 3 + (benchmarkIndex - 1300) / 233 : benchmarkIndex >= 800 ? 2 + (benchmarkIndex - 800) / 500 : 1 + Math.max(0, benchmarkIndex - 150) / 650;
  return Math.min(4, Math.round(calibrated * 10) / 10);
}
const FIXED_CPU = args.includes('--fixed-cpu');
const MOBILE_SLOW_4G = throttling.mobileSlow4G;
/** The signed-in page's user: the demo player, whose collection has pins in it. */
const COLLECTOR = 'player@pindex.test';
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu'];

async function main() {
  if (SOURCE === seededDb) ensureSeed(false);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pindex-lh-'));
  const file = path.join(dir, 'lh.db');
  fs.copyFileSync(SOURCE, file);
  const db = new Database(file);
  const pin = db.prepare('select id from pins order by created_at desc limit 1').get() as { id: string };
  const collector = db.prepare('select id from users where email = ?').get(COLLECTOR) as { id: string } | undefined;
  if (!collector) throw new Error(`no ${COLLECTOR} in ${SOURCE}`);
  const session = await createSession(db, collector.id);
  db.close();
  const signedIn = { Cookie: `${SESSION_COOKIE}=${session.value}` };
  const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, path.join(root, 'app/cli/server.js')], {
    cwd: root,
    stdio: 'ignore',
    env: { ...process.env, NODE_ENV: 'production', ENV_FILE: 'off', DATABASE_URL: `file:${file}`, PORT: String(PORT), HOST: '127.0.0.1', LOG_REQUESTS: '0', SESSION_SECRET, FORCE_HTTPS: '0' },
  });
  const base = `http://127.0.0.1:${PORT}`;
  const started = Date.now();
  let chrome: chromeLauncher.LaunchedChrome | null = null;
  let failed = 0;
  try {
    for (let i = 0; ; i++) {
      const ok = await fetch(`${base}/healthz`).then((r) => r.ok, () => false);
      if (ok) break;
      if (i > 1200) throw new Error('the server did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
    const pages: Record<string, { url: string; headers?: Record<string, string> }> = {
      home: { url: '/' },
      browse: { url: '/browse' },
      pin: { url: `/pins/${pin.id}` },
      identify: { url: '/identify' },
      collection: { url: '/collection', headers: signedIn },
    };
    // the signed-in page must be the collection itself, not the sign-in screen a visitor gets
    const check = await fetch(`${base}/collection`, { headers: signedIn, redirect: 'manual' });
    const html = await check.text();
    if (check.status !== 200 || !html.includes('>My Collection</h1>')) throw new Error(`/collection with the session: ${check.status}, not the collection page`);
    chrome = await chromeLauncher.launch({ chromePath: CHROME, chromeFlags: CHROME_FLAGS });
    // the first run's multiplier: a run on a page with no JavaScript measures the host first
    let benchmarkIndex = NaN;
    if (!FIXED_CPU) {
      const probe = await lighthouse(`${base}/healthz`, { port: chrome.port, output: 'json', logLevel: 'error', onlyAudits: ['first-contentful-paint'] });
      benchmarkIndex = probe?.lhr.environment.benchmarkIndex ?? NaN;
    }
    for (const [name, { url, headers }] of Object.entries(pages)) {
      if (ONLY && !ONLY.includes(name)) continue;
      const scores: number[] = [];
      const details: string[] = [];
      const measure = async (runs: number) => {
        for (let run = 0; run < runs; run++) {
          const multiplier = FIXED_CPU ? 4 : cpuMultiplier(benchmarkIndex);
          // a signed-in page gets a browser of its own for each run: in one browser, every run after
          // the first was sent without the session (answered by the sign-in prompt, now a 401)
          const own = headers ? await chromeLauncher.launch({ chromePath: CHROME, chromeFlags: CHROME_FLAGS }) : null;
          const result = await lighthouse(base + url, {
            port: (own ?? chrome)?.port,
            throttling: { ...MOBILE_SLOW_4G, cpuSlowdownMultiplier: multiplier },
            output: 'json',
            logLevel: 'error',
            onlyCategories: ['performance'],
            skipAudits: SKIPPED_AUDITS,
            disableFullPageScreenshot: true,
            extraHeaders: headers,
          });
          await own?.kill();
          const lhr = result?.lhr;
          if (!lhr) throw new Error(`no Lighthouse result for ${url}`);
          if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
          scores.push(Math.round((lhr.categories.performance.score ?? 0) * 100));
          const audit = (id: string) => lhr.audits[id]?.displayValue ?? '-';
          details.push(`FCP ${audit('first-contentful-paint')}, LCP ${audit('largest-contentful-paint')}, TBT ${audit('total-blocking-time')}, CLS ${audit('cumulative-layout-shift')}; CPU ${multiplier}x (host index ${Math.round(benchmarkIndex)})`);
          // the next run's multiplier: this run's measure of the host
          benchmarkIndex = lhr.environment.benchmarkIndex;
        }
      };
      const medianOf = () => {
        const order = scores.map((s, i) => [s, i]).sort((a, b) => a[0] - b[0]);
        return order[Math.floor((order.length - 1) / 2)];
      };
      await measure(RUNS);
      // In CI, a page under the floor is measured as many times again and judged on the median of
      // all its runs: one slow run on a shared machine (a neighbour's burst) moves a median of
      // three, rarely one of six.
      if (CI && medianOf()[0] < MIN) await measure(RUNS);
      const [median, at] = medianOf();
      if (median < MIN) failed++;
      console.log(`${name.padEnd(10)} ${String(median).padStart(3)} (runs ${scores.join(', ')}; median run: ${details[at]})${median < MIN ? `  << under ${MIN}` : ''}`);
    }
    console.log(`${((Date.now() - started) / 1000).toFixed(0)} s; load average ${os.loadavg().map((n) => n.toFixed(2)).join(' ')}`);
  } finally {
    await chrome?.kill();
    server.kill('SIGTERM');
    fs.rmSync(dir, { recursive: true, force: true });
  }
  if (failed) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
