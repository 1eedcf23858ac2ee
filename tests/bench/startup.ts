/**
 * Start-up benchmark: how long after `node app/cli/server.js` starts do `/healthz`, the home page
 * and identification answer? Uses a copy of a seeded database; `--times N` multiplies its pins
 * (each copy with its own image ids and a copy of the stored features, so the identification
 * index loads N times as much: rows, not images, so matching a copied pin would not find its
 * picture). Prints the median of `--runs` starts.
 *
 *   npx tsx tests/bench/startup.ts --db tests/.tmp/seeded.db [--times 62] [--runs 3] [--keep big.db]
 * Needs `npm run build` first. `--keep FILE` keeps the made database there (and reuses it when it
 * exists: making 10,000 pins copies about 2.4 GB of features and pixels).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { SERVER_NODE_FLAGS } from '../../app/cli/server-flags.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const arg = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const SOURCE = arg('db') ?? path.join(root, 'tests/.tmp/seeded.db');
const TIMES = Math.max(1, Number(arg('times') ?? 1));
const RUNS = Math.max(1, Number(arg('runs') ?? 3));
const PORT = Number(arg('port') ?? 3491);
const KEEP = arg('keep');
const WAIT_MS = Number(arg('wait') ?? 600) * 1000;

/** A copy of the source database with its pins (and their images' features) copied `times` times. */
function makeDatabase(file: string): number {
  fs.copyFileSync(SOURCE, file);
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = OFF');
  const copy = db.transaction((k: number) => {
    db.prepare(
      `insert into image_features (image_id, engine, features, pixels, created_at)
       select image_id || '-c' || ?, engine, features, pixels, created_at from image_features where image_id not like '%-c%'`,
    ).run(k);
    db.prepare(
      `insert into pins (id, name, description, organization_id, team_id, created_by, total_quantity, available_quantity, images, year, event, rarity, rarity_score, estimated_value_cents, created_at, updated_at)
       select id || '-c' || @k, name || ' #' || @k, description, organization_id, team_id, created_by, total_quantity, available_quantity,
         (select json_group_array(value || '-c' || @k) from json_each(pins.images)), year, event, rarity, rarity_score, estimated_value_cents, created_at - @k, updated_at
       from pins where id not like '%-c%'`,
    ).run({ k });
  });
  for (let k = 1; k < TIMES; k++) copy(k);
  const count = (db.prepare('select count(*) as n from pins').get() as { n: number }).n;
  db.close();
  return count;
}

function countPins(file: string): number {
  const db = new Database(file, { readonly: true });
  const n = (db.prepare('select count(*) as n from pins').get() as { n: number }).n;
  db.close();
  return n;
}

async function firstOk(url: string, since: number, deadline: number, accept = (s: number) => s === 200): Promise<number | null> {
  while (performance.now() < deadline) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      if (accept(res.status)) return performance.now() - since;
    } catch {
      /* not listening yet, or busy */
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return null;
}

async function oneStart(file: string) {
  const base = `http://127.0.0.1:${PORT}`;
  const t0 = performance.now();
  const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, path.join(root, 'app/cli/server.js')], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_ENV: 'production', ENV_FILE: 'off', DATABASE_URL: `file:${file}`, PORT: String(PORT), HOST: '127.0.0.1', LOG_REQUESTS: '0', SESSION_SECRET: 'bench-secret' },
  });
  let log = '';
  server.stdout?.on('data', (d) => (log += d));
  server.stderr?.on('data', (d) => (log += d));
  const deadline = t0 + WAIT_MS;
  try {
    const healthz = await firstOk(`${base}/healthz`, t0, deadline);
    const home = await firstOk(`${base}/`, t0, deadline);
    // the index's state: /healthz says it (once it does), else identification stops answering 503
    let ready: number | null = null;
    while (performance.now() < deadline) {
      try {
        const res = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(2000) });
        const text = await res.text();
        if (!text.includes("identification") || text.includes(`"state":"ready"`)) {
          ready = performance.now() - t0;
          break;
        }
      } catch {
        /* busy */
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    return { healthz, home, ready };
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    if (process.env.BENCH_LOG) console.log(log);
  }
}

const median = (xs: (number | null)[]) => {
  const ok = xs.filter((x): x is number => x != null).sort((a, b) => a - b);
  return ok.length ? ok[Math.floor((ok.length - 1) / 2)] : null;
};
const s = (ms: number | null) => (ms == null ? 'n/a' : `${(ms / 1000).toFixed(2)} s`);

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pindex-start-'));
  const file = KEEP ?? path.join(dir, 'start.db');
  try {
    const t = performance.now();
    const pins = KEEP && fs.existsSync(KEEP) ? countPins(KEEP) : makeDatabase(file);
    console.log(`${pins.toLocaleString('en-US')} pins (${TIMES} x the source), made in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    const runs = [];
    for (let i = 0; i < RUNS; i++) {
      const r = await oneStart(file);
      console.log(`run ${i + 1}: /healthz ${s(r.healthz)}, home ${s(r.home)}, index ready ${s(r.ready)}`);
      runs.push(r);
    }
    console.log(
      `median of ${RUNS}: /healthz ${s(median(runs.map((r) => r.healthz)))}, home ${s(median(runs.map((r) => r.home)))}, index ready ${s(median(runs.map((r) => r.ready)))}; load ${os.loadavg().map((n) => n.toFixed(2)).join(' ')}`,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
