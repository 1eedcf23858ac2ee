/**
 * Load benchmark: the built server on a copy of the demo database, on loopback, with many
 * concurrent clients for a while. Readers (visitors and signed-in collectors) load home, browse
 * with a search and pin detail pages; writers (signed-in collectors, a fifth of the clients) add
 * pins to their collection and move them between owned, wanted and trading. Prints req/s,
 * p50/p95/p99 and errors for pages and writes apart, and where the server's time went (CPU per
 * request, event-loop delay, time inside SQLite) from the server's own counters (PINDEX_METRICS=1,
 * app/cli/load-metrics.js).
 *
 *   npx tsx tests/bench/load.ts                       200 clients for 60 s (the README's figures)
 *   npx tsx tests/bench/load.ts --clients 50 --seconds 10 --ci   a short run that fails on any
 *                                                     error or a page p95 over 1 s
 * Needs `npm run build` first.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { copySeed, createSession, ensureSeed, removeDb, root, SESSION_COOKIE, startServer, tmpDir } from '../e2e/servers';

const { values: args } = parseArgs({
  options: {
    clients: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '60' },
    port: { type: 'string', default: '3290' },
    ci: { type: 'boolean', default: false },
    'max-page-p95': { type: 'string', default: '1000' },
    writers: { type: 'string' },
  },
});
const CLIENTS = Number(args.clients);
const SECONDS = Number(args.seconds);
const WRITERS = args.writers !== undefined ? Number(args.writers) : Math.max(1, Math.round(CLIENTS / 5));
const READERS = CLIENTS - WRITERS;
const SEARCHES = ['sharks', 'baseball', 'tournament', 'all stars', 'cooperstown', 'thunder', '2024', 'pin'];

if (!fs.existsSync(path.join(root, 'build/index.js'))) {
  console.error('Build the server first: npm run build');
  process.exit(1);
}

// ---------------------------------------------------------------- the database and sessions
ensureSeed(false);
const dbFile = path.join(tmpDir, `load-${process.pid}.db`);
copySeed(dbFile);
const setup = new Database(dbFile);
const pinIds = (setup.prepare('SELECT id FROM pins ORDER BY created_at').all() as { id: string }[]).map((p) => p.id);
const collectors: { id: string; cookie: string }[] = [];
const addUser = setup.prepare(
  "INSERT INTO users (id, email, first_name, last_name, nickname, role, is_onboarding_complete) VALUES (?, ?, 'Load', 'Collector', ?, 'player', 1)",
);
for (let i = 0; i < CLIENTS; i++) {
  const id = `load${String(i).padStart(4, '0')}${randomBytes(6).toString('hex')}`;
  addUser.run(id, `load-${i}@pindex.test`, `Load Collector ${i}`);
  const { value } = await createSession(setup, id);
  collectors.push({ id, cookie: `${SESSION_COOKIE}=${value}` });
}
setup.close();

// ---------------------------------------------------------------- the run
process.env.PINDEX_METRICS = '1';
const server = await startServer({ port: Number(args.port), dbFile, label: 'load' });
const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)];
const STATUSES = ['owned', 'wanted', 'trading'];

type Request = { method: string; path: string; headers: Record<string, string>; body?: string };
// autocannon resets a connection's context when it starts its list of requests again
type Context = { who?: { id: string; cookie: string }; pinId?: string };

interface Outcome {
  label: string;
  result: autocannon.Result;
  times: number[];
  statuses: Map<number, number>;
}

/** Runs one autocannon instance, keeping every response's time and status (its table has no p95). */
function run(label: string, options: autocannon.Options): Promise<Outcome> {
  const times: number[] = [];
  const statuses = new Map<number, number>();
  const instance = autocannon(options);
  instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
    times.push(ms);
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
  });
  return Promise.resolve(instance).then((result) => ({ label, result, times: times.sort((a, b) => a - b), statuses }));
}

function readers(): Promise<Outcome> {
  let next = 0;
  return run('pages', {
    url: server.url,
    connections: READERS,
    duration: SECONDS,
    timeout: 30,
    requests: [
      {
        setupRequest: (req: Request) => {
          // half the page loads are signed in (their own collection marks show on the cards)
          const n = next++;
          const headers: Record<string, string> = n % 2 ? { cookie: collectors[n % READERS].cookie } : {};
          const r = Math.random();
          const url = r < 0.35 ? '/' : r < 0.65 ? `/browse?q=${encodeURIComponent(pick(SEARCHES))}` : `/pins/${pick(pinIds)}`;
          return { ...req, method: 'GET', path: url, headers };
        },
      },
    ],
  } as autocannon.Options);
}

function writers(): Promise<Outcome> {
  if (WRITERS === 0) return Promise.resolve({ label: 'writes', result: { errors: 0, timeouts: 0, non2xx: 0 }, times: [], statuses: new Map() });
  let next = 0;
  const json = (who: { cookie: string }) => ({ 'content-type': 'application/json', origin: server.url, cookie: who.cookie });
  return run('writes', {
    url: server.url,
    connections: WRITERS,
    duration: SECONDS,
    timeout: 30,
    requests: [
      {
        // add a pin to the collection...
        setupRequest: (req: Request, context: Context) => {
          const who = collectors[READERS + (next++ % WRITERS)];
          context.who = who;
          context.pinId = pick(pinIds);
          return { ...req, method: 'POST', path: '/api/collections', headers: json(who), body: JSON.stringify({ pinId: context.pinId, status: 'wanted' }) };
        },
      },
      {
        // ...and move it
        setupRequest: (req: Request, context: Context) => {
          const who = context.who!;
          return { ...req, method: 'PUT', path: `/api/users/${who.id}/collection/${context.pinId}`, headers: json(who), body: JSON.stringify({ status: pick(STATUSES) }) };
        },
      },
    ],
  } as autocannon.Options);
}

// a warm-up, as a restarted server gets before traffic peaks
for (const url of ['/', '/browse?q=sharks', `/pins/${pinIds[0]}`]) await fetch(`${server.url}${url}`).then((r) => r.text());
await fetch(`${server.url}/__metrics`, { method: 'POST' });
console.log(`Load: ${READERS} readers and ${WRITERS} writers for ${SECONDS} s against ${server.url} (${pinIds.length} pins)`);
const stopServer = () => server.stop().finally(() => removeDb(dbFile));
for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
  process.once(event, (error) => {
    console.error(error);
    void stopServer().finally(() => process.exit(1));
  });
}
const outcomes = await Promise.all([readers(), writers()]);
const metrics = (await (await fetch(`${server.url}/__metrics`)).json()) as {
  seconds: number;
  requests: number;
  cpuMs: number;
  cpuMsPerRequest: number;
  dbMs: number;
  dbMsPerRequest: number;
  commits: number;
  eventLoopDelayMs: { p50: number; p99: number; max: number };
  rssMb: number;
};
await stopServer();

// ---------------------------------------------------------------- the report
const at = (sorted: number[], p: number) => (sorted.length ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]) : 0);
const rows = outcomes.map(({ label, result, times, statuses }) => ({
  label,
  requests: times.length,
  reqPerSec: times.length / SECONDS,
  p50: at(times, 50),
  p95: at(times, 95),
  p99: at(times, 99),
  errors: result.errors + result.timeouts + result.non2xx,
  detail: `${result.errors} errors, ${result.timeouts} timeouts; statuses ${[...statuses].map(([k, v]) => `${k}: ${v}`).join(', ')}`,
}));

console.log('\n| calls | requests | req/s | p50 ms | p95 ms | p99 ms | errors |');
console.log('|---|---|---|---|---|---|---|');
for (const r of rows) console.log(`| ${r.label} | ${r.requests} | ${Math.round(r.reqPerSec)} | ${r.p50} | ${r.p95} | ${r.p99} | ${r.errors} (${r.detail}) |`);
console.log('\nServer, over the run:');
console.log(`  CPU ${(metrics.cpuMs / 1000).toFixed(1)} s in ${metrics.seconds.toFixed(1)} s (${((metrics.cpuMs / 1000 / metrics.seconds) * 100).toFixed(0)}% of one core), ${metrics.cpuMsPerRequest.toFixed(2)} ms a request`);
console.log(`  inside SQLite ${(metrics.dbMs / 1000).toFixed(1)} s, ${metrics.dbMsPerRequest.toFixed(2)} ms a request; ${metrics.commits} commits (${(metrics.commits / Math.max(1, rows[1].requests)).toFixed(2)} a write)`);
console.log(`  event-loop delay p50 ${metrics.eventLoopDelayMs.p50.toFixed(1)} ms, p99 ${metrics.eventLoopDelayMs.p99.toFixed(1)} ms, max ${metrics.eventLoopDelayMs.max.toFixed(0)} ms; RSS ${metrics.rssMb.toFixed(0)} MB`);

const pages = rows.find((r) => r.label === 'pages')!;
const failures = [
  ...rows.filter((r) => r.errors > 0).map((r) => `${r.label}: ${r.detail}`),
  ...(pages.p95 > Number(args['max-page-p95']) ? [`pages p95 ${pages.p95} ms is over ${args['max-page-p95']} ms`] : []),
];
if (failures.length) {
  console.error(`\nFAILED: ${failures.join('; ')}`);
  process.exit(1);
}
console.log(args.ci ? '\nOK: no errors, pages p95 within the ceiling' : '');
