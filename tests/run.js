/**
 * `npm test`: everything, in order, with one closing line `N passed, N failed`.
 * 1. Chromium for Playwright (Debian's; installed with apt-get when missing and we are root).
 * 2. typecheck and lint (side by side), 3. Vitest on better-sqlite3, 4. the integration tests again on libSQL,
 * 5. the server build, 6. Playwright with JavaScript on and off, 7. Lighthouse mobile performance of
 * the five main pages (median of 3, floor LIGHTHOUSE_FLOOR in tests/bench/lighthouse.ts), 8. a small
 * slice of the benchmarks.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
// a developer's own settings file (.env) reaches none of the servers and commands the tests start
process.env.ENV_FILE = 'off';
fs.mkdirSync('test-results', { recursive: true });
const totals = { passed: 0, failed: 0, skipped: 0 };
const failures = [];

function run(label, cmd, args, env = {}) {
  console.log(`\n=== ${label}: ${cmd} ${args.join(' ')}`);
  const started = Date.now();
  const res = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  console.log(`=== ${label}: exit ${res.status} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (res.status !== 0) failures.push(label);
  return res.status === 0;
}

/** Runs commands at the same time, each one's output kept and printed whole when it ends. */
function runSideBySide(steps) {
  return Promise.all(
    steps.map(
      ([label, cmd, args]) =>
        new Promise((resolve) => {
          const started = Date.now();
          const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
          const output = [];
          child.stdout.on('data', (chunk) => output.push(chunk));
          child.stderr.on('data', (chunk) => output.push(chunk));
          child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`))); // 'close' follows
          child.on('close', (status) => {
            console.log(`\n=== ${label}: ${cmd} ${args.join(' ')}`);
            process.stdout.write(Buffer.concat(output));
            console.log(`=== ${label}: exit ${status} in ${((Date.now() - started) / 1000).toFixed(1)} s (beside the others)`);
            if (status !== 0) failures.push(label);
            resolve(status === 0);
          });
        }),
    ),
  );
}

function countVitest(file) {
  try {
    const report = JSON.parse(fs.readFileSync(file, 'utf8'));
    totals.passed += report.numPassedTests ?? 0;
    totals.failed += report.numFailedTests ?? 0;
    totals.skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  } catch {
    totals.failed += 1;
  }
}

function countPlaywright(file) {
  try {
    const report = JSON.parse(fs.readFileSync(file, 'utf8'));
    const s = report.stats ?? {};
    totals.passed += (s.expected ?? 0) + (s.flaky ?? 0);
    totals.failed += s.unexpected ?? 0;
    totals.skipped += s.skipped ?? 0;
  } catch {
    totals.failed += 1;
  }
}

function ensureChromium() {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean);
  let found = candidates.find((p) => fs.existsSync(p));
  if (!found && process.getuid?.() === 0 && fs.existsSync('/usr/bin/apt-get')) {
    console.log('Chromium not found: installing Debian\'s chromium with apt-get ...');
    spawnSync('apt-get', ['update'], { stdio: 'inherit' });
    spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium', 'fonts-dejavu-core'], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    found = candidates.find((p) => fs.existsSync(p));
  }
  if (!found) {
    console.error('Chromium is needed for the end-to-end tests. Install it (Debian: apt-get install chromium) or set CHROMIUM_PATH.');
    failures.push('chromium');
    totals.failed += 1;
    return null;
  }
  return found;
}

const tsx = [path.join(root, 'node_modules/tsx/dist/cli.mjs')];
const bin = (name) => path.join(root, 'node_modules/.bin', name);
const chromium = ensureChromium();

// typecheck and lint are one thread each: side by side on two cores (each one's output printed whole)
await runSideBySide([
  ['typecheck', bin('tsc'), ['--noEmit']],
  ['lint', bin('eslint'), ['--max-warnings', '0', '.']],
]);

run('vitest (better-sqlite3)', bin('vitest'), ['run', '--reporter=default', '--reporter=json', '--outputFile=test-results/vitest-sqlite.json'], { DB_DRIVER: 'better-sqlite3' });
countVitest('test-results/vitest-sqlite.json');
run('vitest integration (libSQL)', bin('vitest'), ['run', 'tests/integration', '--reporter=default', '--reporter=json', '--outputFile=test-results/vitest-libsql.json'], { DB_DRIVER: 'libsql' });
countVitest('test-results/vitest-libsql.json');

// Floors of the identification slice (100 stratified queries of the validation set, the one the
// engine is judged on: measured 80% top-1, 15% false matches, i.e. 3 of its 20 unknown photos).
const IDENTIFY_FLOORS = { top1: '0.72', falseMatches: '0.25' };

// `remix build` as `npm run build` runs it (app/cli/remix-build.js: no empty server modules in the browser)
let built = run('build', process.execPath, ['app/cli/remix-build.js']);
if (!built) built = run('build (retry)', process.execPath, ['app/cli/remix-build.js']); // esbuild sometimes panics at exit
// as `npm run build` does: the identification's detail worker, beside the server build
if (built) built = run('build (detail worker)', process.execPath, ['app/cli/build-worker.js']);
if (built && chromium) {
  fs.rmSync('test-results/e2e.json', { force: true });
  run('playwright', bin('playwright'), ['test'], { CHROMIUM_PATH: chromium, E2E_RESEED: '1' });
  countPlaywright('test-results/e2e.json');
  // Lighthouse after Playwright: the same build and the seeded database it left (issue 59, budgets
  // in CI). About 2-3 min on a quiet 2-core machine; see docs/speed.md, "Lighthouse in CI".
  const lighthouse = run('lighthouse (5 pages, median of 3)', process.execPath, [...tsx, 'tests/bench/lighthouse.ts', '--ci'], { CHROME_PATH: chromium });
  if (lighthouse) totals.passed += 1;
  else totals.failed += 1;
}

// Benchmark slices with floors a little under the measured figures (README, Benchmarks), so a
// regression fails the run. The identification slice needs the server build above.
const slices = [
  ['tests/bench/browse.ts', '--ci'],
  ['tests/bench/admin-tables.ts', '--ci'],
  ['tests/bench/trade-matches.ts', '--ci'],
  ['tests/bench/identify.ts', '--set', 'validation', '--limit', '100', '--min-top1', IDENTIFY_FLOORS.top1, '--max-false', IDENTIFY_FLOORS.falseMatches],
  // 20 clients for 10 s on the built server: no error, pages p95 under 1 s
  ['tests/bench/load.ts', '--clients', '20', '--seconds', '10', '--ci'],
];
for (const [bench, ...benchArgs] of slices) {
  if (!fs.existsSync(bench)) continue;
  if ((bench.includes('identify') || bench.includes('load')) && !built) continue;
  const ok = run(`benchmark slice ${bench}`, process.execPath, [...tsx, bench, ...benchArgs]);
  if (ok) totals.passed += 1;
  else totals.failed += 1;
}

console.log(`\nSuites that failed: ${failures.length ? failures.join(', ') : 'none'}`);
console.log(`${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exit(failures.length || totals.failed ? 1 : 0);
