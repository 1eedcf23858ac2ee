/**
 * Server CPU per request: starts the built server on a copy of a database and reads its CPU time
 * (/proc/<pid>/stat, user + system) around N sequential requests of each URL, after a warm-up.
 * Prints the CPU milliseconds per request, and each page's multiple of /healthz's. With --rounds R
 * every URL is measured R times in turn and the median is printed (the machine may be shared).
 * --only home,browse measures those rows only; --profile DIR also writes a V8 CPU profile of the
 * server (node --cpu-prof) there and prints the functions that took the most time (and the
 * measured stretch beside it, `<profile>.window.json`). --signed-in asks for the pages as a
 * signed-in collector (the seed's player@pindex.test, a session made in the copy of the database):
 * rendered every time, as the page cache keeps only visitors' pages. PAGE_CACHE=0 in the
 * environment renders visitors' pages every time too.
 *
 *   npx tsx tests/bench/page-cpu.ts --db tests/.tmp/seeded.db [--n 200] [--rounds 5] [--warm-up 500] [--port 3492]
 *     [--only home,'pin detail'] [--url 'browse data=/browse?_data=routes/browse'] [--signed-in] [--profile tests/.tmp/prof]
 * Linux only (reads /proc); needs `npm run build` first.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCookie } from '@remix-run/node';
import Database from 'better-sqlite3';
import { SERVER_NODE_FLAGS } from '../../app/cli/server-flags.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const arg = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const SOURCE = arg('db') ?? path.join(root, 'tests/.tmp/seeded.db');
const N = Number(arg('n') ?? 200);
const PORT = Number(arg('port') ?? 3492);
const ROUNDS = Number(arg('rounds') ?? 1);
// V8 is still optimising the render for the first several hundred requests of a page (rounds of 200
// after 30 of warm-up: home 8.2 ms, then 5.8-6.3 from the fourth round on): measure a running server
const WARM_UP = Number(arg('warm-up') ?? 500);
const ONLY = arg('only')?.split(',');
/** --url name=/path (repeatable; `:pin` is the newest pin's id): more URLs, measured like the pages. */
const EXTRA = args.flatMap((a, i) => (args[i - 1] === '--url' ? [a.split(/=(.*)/s).slice(0, 2) as [string, string]] : []));
const PROFILE = arg('profile');
const SIGNED_IN = args.includes('--signed-in');
const SESSION_SECRET = 'bench-secret';
const TICK_MS = 1000 / 100; // USER_HZ

function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS; // utime, stime
}

/** The measured stretch (monotonic microseconds): the profile's summary leaves out the start. */
const window: [number, number] = [0, Infinity];

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pindex-cpu-'));
  const file = path.join(dir, 'cpu.db');
  fs.copyFileSync(SOURCE, file);
  const db = new Database(file);
  const pin = db.prepare('select id from pins order by created_at desc limit 1').get() as { id: string };
  // a signed-in collector's session, signed as the server signs it (app/auth/session.server.ts)
  let cookie: Record<string, string> = {};
  if (SIGNED_IN) {
    const user = db.prepare("select id from users where email = 'player@pindex.test'").get() as { id: string } | undefined;
    if (!user) throw new Error('--signed-in needs the seed\'s player@pindex.test');
    const sid = 'bench-session';
    const sess = JSON.stringify({ userId: user.id, refreshedAt: Date.now() });
    db.prepare('insert into sessions (sid, sess, expire, user_id) values (?, ?, ?, ?)').run(sid, sess, Date.now() + 86_400_000, user.id);
    const value = await createCookie('__pindex_session', { secrets: [SESSION_SECRET] }).serialize(sid);
    cookie = { Cookie: value.split(';')[0] };
  }
  db.close();
  const profiling = PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(PROFILE)}`] : [];
  const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...profiling, path.join(root, 'app/cli/server.js')], {
    cwd: root,
    stdio: 'ignore',
    env: { ...process.env, NODE_ENV: 'production', ENV_FILE: 'off', DATABASE_URL: `file:${file}`, PORT: String(PORT), HOST: '127.0.0.1', LOG_REQUESTS: '0', SESSION_SECRET, IDENTIFY_WORKER: 'off' },
  });
  const base = `http://127.0.0.1:${PORT}`;
  try {
    for (let i = 0; ; i++) {
      const text = await fetch(`${base}/healthz`).then((r) => r.text(), () => '');
      if (text && (!text.includes('identification') || text.includes('"state":"ready"'))) break;
      if (i > 1200) throw new Error('the server did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
    const html = await fetch(`${base}/`).then((r) => r.text());
    const chunk = [...html.matchAll(/\/build\/_shared\/[\w-]+\.js/g)].map((m) => m[0])[0];
    const urls: [string, string, Record<string, string>][] = [
      ['/healthz', '/healthz', {}],
      ['home', '/', { 'Accept-Encoding': 'gzip, br', ...cookie }],
      ['browse', '/browse', { 'Accept-Encoding': 'gzip, br', ...cookie }],
      ['pin detail', `/pins/${pin.id}`, { 'Accept-Encoding': 'gzip, br', ...cookie }],
      ['a framework chunk (gzip)', chunk, { 'Accept-Encoding': 'gzip' }],
      ...EXTRA.map(([name, url]): [string, string, Record<string, string>] => [name, url.replace(':pin', pin.id), { 'Accept-Encoding': 'gzip, br', ...cookie }]),
    ];
    const chosen = urls.filter(([name], i) => i === 0 || !ONLY || ONLY.includes(name) || EXTRA.some(([extra]) => extra === name));
    for (const [, url, headers] of chosen) for (let i = 0; i < WARM_UP; i++) await fetch(base + url, { headers }).then((r) => r.arrayBuffer());
    if (SIGNED_IN) {
      const html = await fetch(`${base}/`, { headers: cookie }).then((r) => r.text());
      if (!html.includes('PinHunter')) throw new Error('the session did not sign the collector in');
    }
    const samples = chosen.map(() => [] as number[]);
    // V8's profile clock is the system's monotonic clock in microseconds, as process.hrtime
    window[0] = Number(process.hrtime.bigint() / 1000n);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [k, [, url, headers]] of chosen.entries()) {
        const before = cpuMs(server.pid!);
        for (let i = 0; i < N; i++) await fetch(base + url, { headers }).then((r) => r.arrayBuffer());
        samples[k].push((cpuMs(server.pid!) - before) / N);
      }
    }
    window[1] = Number(process.hrtime.bigint() / 1000n);
    const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
    const rows = chosen.map(([name], k) => ({ name, ms: median(samples[k]), all: samples[k] }));
    const health = rows[0].ms;
    for (const r of rows) {
      const spread = ROUNDS > 1 ? `  [${r.all.map((n) => n.toFixed(1)).join(' ')}]` : '';
      console.log(`${r.name.padEnd(26)} ${r.ms.toFixed(2).padStart(6)} ms CPU per request  (${(r.ms / health).toFixed(1)}x /healthz)${spread}`);
    }
    console.log(`load average ${os.loadavg().map((n) => n.toFixed(2)).join(' ')}`);
  } finally {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
    fs.rmSync(dir, { recursive: true, force: true });
  }
  if (PROFILE) printProfile(path.resolve(PROFILE));
}

/** The functions with the most self time in the newest profile of `dir`, and the share of the total. */
function printProfile(dir: string) {
  const file = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => path.join(dir, f))
    .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs)[0];
  if (!file) return console.log(`no profile in ${dir}`);
  type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number } };
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[]; startTime: number };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  const byPackage = new Map<string, number>();
  let total = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (at < window[0] || at > window[1]) return;
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName === '(idle)') return;
    const where = frame.url ? `${frame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/build\//, 'build/')}:${frame.lineNumber + 1}` : '';
    const key = `${frame.functionName || '(anonymous)'} ${where}`;
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    self.set(key, (self.get(key) ?? 0) + ms);
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(frame.url)?.[1] ?? (frame.url.includes('/build/') ? 'the app (build)' : frame.url.startsWith('node:') ? 'node' : frame.url ? frame.url : frame.functionName);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + ms);
    total += ms;
  });
  // the measured stretch, for other readings of the same profile
  fs.writeFileSync(`${file}.window.json`, JSON.stringify({ from: window[0], to: window[1] }));
  console.log(`\n${file}: ${total.toFixed(0)} ms of samples while measuring, the top 40 by self time`);
  for (const [key, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 40)) {
    console.log(`${((ms / total) * 100).toFixed(1).padStart(5)}%  ${key}`);
  }
  console.log('\nby package');
  for (const [key, ms] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 15)) {
    console.log(`${((ms / total) * 100).toFixed(1).padStart(5)}%  ${key}`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
