/**
 * Two (or more) builds of the server compared photo by photo, in the same run: a change's effect on
 * latency measured where the machine's phase cannot tell them apart. On a shared 2-core machine two
 * runs of the same version ten minutes apart differed by more (156 and 164 ms at the median) than
 * most changes do.
 *
 *   npx tsx tests/bench/identify-ab.ts --db FILE --build before=DIR --build after=DIR [--env after:KEY=VALUE] [--db-of after=FILE]
 *                                      [--every N] [--json out.json]
 *
 * Each DIR is a checkout of the project with its `npm run build` done (a `git worktree` of the
 * version before, beside this one). Every build's server is started, with the Node flags that build's
 * server runs with, on its own copy of the database FILE kept by `identify.ts --keep`; each query photo
 * (every Nth with --every) is posted to each server in turn, the first server changing from photo to
 * photo, one request at a time. Reports each build's p50 / p95, and against the first build the
 * median of the photo-by-photo differences and how many answers (identified, pin, similar pins)
 * are the same, each server's CPU time a photo (all its threads; unlike latency, the work of the
 * other server meanwhile does not count) and its memory (RSS at the end and its peak). Give
 * MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=32768 for a 5,000-pin database, as identify.ts does.
 * --env name:KEY=VALUE sets a variable for one build's server only (a build may be named twice, with
 * different settings: --build a=. --build b=.). --db-of name=FILE starts one build from a database
 * of its own (the same catalogue, with what that build stores and the others do not read).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { SERVER_NODE_FLAGS } from '../../app/cli/server-flags.js';
import { cpuMsOf, memoryOf } from '../support/process-usage';
import { identificationReady } from '../support/server-ready';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const benchDir = path.resolve(root, process.env.BENCH_DIR ?? '../shared/bench/identify');

function args(name: string): string[] {
  const out: string[] = [];
  process.argv.forEach((a, i) => a === name && process.argv[i + 1] && out.push(process.argv[i + 1]));
  return out;
}
const dbFile = args('--db')[0];
/** A build's own database (`--db-of name=FILE`), for a change that stores something the other builds do not read. */
const dbOf = (name: string): string =>
  args('--db-of')
    .find((d) => d.startsWith(`${name}=`))
    ?.slice(name.length + 1) ?? dbFile;
const builds = args('--build').map((b) => {
  const at = b.indexOf('=');
  return { name: b.slice(0, at), dir: path.resolve(b.slice(at + 1)) };
});
const envOf = (name: string): Record<string, string> =>
  Object.fromEntries(
    args('--env')
      .filter((e) => e.startsWith(`${name}:`))
      .map((e) => {
        const setting = e.slice(name.length + 1);
        const at = setting.indexOf('=');
        return [setting.slice(0, at), setting.slice(at + 1)];
      }),
  );
const every = Math.max(1, Number(args('--every')[0] ?? 1) || 1);
const jsonOut = args('--json')[0];

interface Server {
  name: string;
  base: string;
  child: ChildProcess;
  ms: number[];
  answers: string[];
  /** the server's CPU time (ms) when the measured photos began */
  cpuAtStart: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];
const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))];

async function waitFor(base: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode != null) throw new Error(`the server of ${base} exited (${child.exitCode})`);
    if (await identificationReady(base)) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`the server of ${base} did not start`);
}

async function main() {
  if (!dbFile || !fs.existsSync(dbFile) || builds.length < 2) {
    throw new Error('give --db FILE (a database kept by identify.ts --keep) and at least two --build name=DIR');
  }
  for (const b of builds) if (!fs.existsSync(path.join(b.dir, 'build/index.js'))) throw new Error(`${b.dir} has no build: run npm run build there`);
  const truth = parse(fs.readFileSync(path.join(benchDir, 'truth.csv'), 'utf8'), { columns: true, skip_empty_lines: true }) as { query: string }[];
  const photos = truth.filter((_, i) => i % every === 0).map((t) => path.join(benchDir, t.query));
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pindex-identify-ab-'));
  const servers: Server[] = [];
  try {
    for (const [k, b] of builds.entries()) {
      const dir = path.join(tmp, `db-${k}`);
      fs.mkdirSync(dir);
      const from = dbOf(b.name);
      for (const suffix of ['', '-wal', '-shm']) if (fs.existsSync(from + suffix)) fs.copyFileSync(from + suffix, path.join(dir, `bench.db${suffix}`));
      const port = 3900 + k + Math.floor(Math.random() * 1000);
      // each build with the Node flags it runs with (its own app/cli/server-flags.js)
      const own = path.join(b.dir, 'app/cli/server-flags.js');
      const flags = fs.existsSync(own) ? ((await import(own)) as { SERVER_NODE_FLAGS: string[] }).SERVER_NODE_FLAGS : SERVER_NODE_FLAGS;
      const child = spawn(process.execPath, [...flags, path.join(b.dir, 'app/cli/server.js')], {
        cwd: b.dir,
        env: { ...process.env, DATABASE_URL: `file:${path.join(dir, 'bench.db')}`, NODE_ENV: 'production', ENV_FILE: 'off', PORT: String(port), HOST: '127.0.0.1', LOG_REQUESTS: '0', IDENTIFY_RATE_LIMIT: 'off', SESSION_SECRET: process.env.SESSION_SECRET ?? 'bench-secret-bench-secret-bench-secret', ...envOf(b.name) },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      servers.push({ name: b.name, base: `http://127.0.0.1:${port}`, child, ms: [], answers: [], cpuAtStart: 0 });
    }
    for (const s of servers) await waitFor(s.base, s.child);
    const post = async (s: Server, file: string) => {
      const body = JSON.stringify({ imageData: `data:image/jpeg;base64,${fs.readFileSync(file).toString('base64')}` });
      const t0 = performance.now();
      const res = await fetch(`${s.base}/api/identify`, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: s.base }, body });
      const a = (await res.json()) as { identified?: boolean; pin?: { id: string } | null; similarPins?: { pin: { id: string } }[] };
      return { ms: performance.now() - t0, answer: JSON.stringify([res.status, a.identified, a.pin?.id ?? null, (a.similarPins ?? []).map((p) => p.pin.id)]) };
    };
    for (const s of servers) for (const file of photos.slice(0, 3)) await post(s, file); // warm-up
    for (const s of servers) s.cpuAtStart = cpuMsOf(s.child.pid as number) ?? 0;
    for (const [k, file] of photos.entries()) {
      for (let j = 0; j < servers.length; j++) {
        const s = servers[(j + k) % servers.length];
        const r = await post(s, file);
        s.ms.push(r.ms);
        s.answers.push(r.answer);
      }
      if ((k + 1) % 50 === 0) console.log(`  ${k + 1}/${photos.length} photos`);
    }
    const [first] = servers;
    const report = servers.map((s) => ({
      build: s.name,
      p50: Math.round(median(s.ms) * 10) / 10,
      p95: Math.round(quantile(s.ms, 0.95) * 10) / 10,
      pairedMedianMs: s === first ? 0 : Math.round(median(s.ms.map((m, i) => m - first.ms[i])) * 10) / 10,
      sameAnswers: s.answers.filter((a, i) => a === first.answers[i]).length,
      cpuMsPerPhoto: Math.round((((cpuMsOf(s.child.pid as number) ?? NaN) - s.cpuAtStart) / photos.length) * 10) / 10,
      memory: memoryOf(s.child.pid as number),
    }));
    console.log(`\nPhoto by photo (${photos.length} photos, against ${first.name})`);
    for (const r of report) console.log(`  ${r.build.padEnd(12)} p50 ${r.p50} ms   p95 ${r.p95} ms   paired ${r.pairedMedianMs} ms   CPU ${r.cpuMsPerPhoto} ms a photo   same answers ${r.sameAnswers}/${photos.length}   memory ${r.memory?.rssMb ?? '?'} MB, peak ${r.memory?.peakMb ?? '?'} MB`);
    if (jsonOut) fs.writeFileSync(jsonOut, JSON.stringify({ photos: photos.length, report, ms: Object.fromEntries(servers.map((s) => [s.name, s.ms])) }, null, 2));
  } finally {
    for (const s of servers) s.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
