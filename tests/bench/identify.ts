/**
 * The full identification benchmark over HTTP (issues 5, 62): the real import command, the real
 * server, the real endpoint, on the public set (the one the engine is fitted on) and on the
 * validation set (the one it is judged on), side by side.
 *
 *   npm run build        # first: this script builds nothing
 *   npx tsx tests/bench/identify.ts [--set public|validation|both] [--limit N] [--distractors N]
 *                                   [--json out.json] [--min-top1 0.85] [--max-false 0.10]
 *                                   [--keep] [--from-db FILE] [--profile DIR]
 *
 * For each set (BENCH_DIR, default ../shared/bench/identify; VALIDATION_DIR, default
 * ../shared/bench/identify-validation), with its own database and server:
 * 1. imports its catalogue.csv into a fresh temporary database through
 *    `app/cli/catalogue-import.ts` (plus N generated distractor pins with --distractors, to measure
 *    a grown catalogue);
 * 2. starts `node app/cli/server.js` on a free port with that database;
 * 3. posts every query photo of truth.csv to POST /api/identify as a data URL, one at a time;
 * 4. reports top-1 on known pins (identified with the right pin), top-4 recall (the right pin
 *    among pin + similarPins), the false-match rate of unknown pins (identified: true) split
 *    novel / near-duplicate, family vs single pins, latency p50/p95/max, the server's CPU time a query
 *    and its memory.
 * --set runs one set only (default both). --limit N takes a deterministic stratified slice of each
 * set's queries (same share of every kind). --min-top1 / --max-false hold every set run to the floor.
 * --keep keeps the temporary directory and its database; --from-db FILE starts from a copy of such
 * a database instead of importing again (with one --set only; give --distractors as when it was
 * imported, for the report): the 4,700 distractors take about 15 minutes to import, the queries 3.
 * --profile DIR writes a V8 CPU profile of each server thread there (node --cpu-prof): where a
 * photo's time goes, thread by thread.
 * The exit code is non-zero only when --min-top1 / --max-false are given and missed.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import sharp from 'sharp';
import { SERVER_NODE_FLAGS } from '../../app/cli/server-flags.js';
import { cpuMsOf, memoryOf } from '../support/process-usage';
import { identificationReady } from '../support/server-ready';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SET_DIRS = {
  public: path.resolve(root, process.env.BENCH_DIR ?? '../shared/bench/identify'),
  validation: path.resolve(root, process.env.VALIDATION_DIR ?? '../shared/bench/identify-validation'),
};
type SetName = keyof typeof SET_DIRS;
const args = process.argv.slice(2);
const opt = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const num = (name: string): number | undefined => {
  const v = opt(name);
  return v != null && Number.isFinite(Number(v)) ? Number(v) : undefined;
};
const LIMIT = num('limit');
const DISTRACTORS = Math.max(0, Math.floor(num('distractors') ?? 0));
const JSON_OUT = opt('json');
const MIN_TOP1 = num('min-top1');
const MAX_FALSE = num('max-false');
const KEEP = args.includes('--keep');
const FROM_DB = opt('from-db');
const PROFILE = opt('profile');
const SET = opt('set') ?? 'both';
if (!['public', 'validation', 'both'].includes(SET)) throw new Error('--set: public, validation or both');
const SETS: SetName[] = SET === 'both' ? ['public', 'validation'] : [SET as SetName];
if (FROM_DB && SETS.length > 1) throw new Error('--from-db needs --set public or --set validation');
/**
 * A grown catalogue's server is started as the README ("Memory") advises for a large catalogue (and
 * as the Dockerfile does): glibc's memory pools limited to two, and buffers of 32 KB or more mapped
 * on their own, so that they go back to the system when freed; each unless the caller sets it. The
 * catalogue of the benchmark alone is served with glibc's defaults, which are faster (README, "Memory").
 */
const LARGE_CATALOGUE_MALLOC = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '32768' } as const;
type MallocSetting = keyof typeof LARGE_CATALOGUE_MALLOC;
const serverMemoryEnv: Partial<Record<MallocSetting, string>> = DISTRACTORS
  ? Object.fromEntries(Object.entries(LARGE_CATALOGUE_MALLOC).filter(([key]) => process.env[key] == null))
  : {};
/** The server's glibc settings (those not set: glibc's defaults), as reported. */
const MALLOC_SETTINGS = (Object.keys(LARGE_CATALOGUE_MALLOC) as MallocSetting[])
  .map((key) => [key, process.env[key] ?? serverMemoryEnv[key]] as const)
  .filter(([, value]) => value != null)
  .map(([key, value]) => `${key}=${value}`)
  .join(' ');

interface TruthRow {
  query: string;
  expected: string;
  kind: 'known' | 'unknown_novel' | 'unknown_near_duplicate';
  family: string;
  near_duplicate_of: string;
}

interface Answer {
  identified?: boolean;
  confidence?: number;
  pin?: { name: string } | null;
  similarPins?: { pin: { name: string }; matchScore: number }[];
  outcome?: string;
  error?: string;
}

/**
 * How far a match's confidence can be trusted: the answers that named a pin, by their confidence,
 * and how many of them named the right one (a match of a pin not in the catalogue is wrong).
 */
const CONFIDENCE_BINS: [number, number][] = [[50, 69], [70, 79], [80, 89], [90, 94], [95, 99]];
function reliabilityOf(results: { identified: boolean; confidence: number; name: string | null; expected: string }[]) {
  return CONFIDENCE_BINS.map(([lo, hi]) => {
    const inBin = results.filter((r) => r.identified && r.confidence >= lo && r.confidence <= hi);
    return { range: `${lo}-${hi}`, answers: inBin.length, right: inBin.filter((r) => !!r.expected && r.name === r.expected).length };
  });
}

const hash = (s: string) => createHash('sha256').update(s).digest('hex');

/** The same share of every stratum (known family / known single / novel / near-duplicate). */
function stratifiedSlice(rows: TruthRow[], limit: number): TruthRow[] {
  if (limit >= rows.length) return rows;
  const strata = new Map<string, TruthRow[]>();
  for (const r of rows) {
    const key = r.kind === 'known' ? (r.family ? 'known_family' : 'known_single') : r.kind;
    (strata.get(key) ?? strata.set(key, []).get(key)!).push(r);
  }
  const out: TruthRow[] = [];
  for (const list of strata.values()) {
    const take = Math.max(1, Math.round((list.length / rows.length) * limit));
    out.push(...[...list].sort((a, b) => hash(a.query).localeCompare(hash(b.query))).slice(0, take));
  }
  return out.sort((a, b) => a.query.localeCompare(b.query));
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

const csvField = (v: string | number) => {
  const s = String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/**
 * Distractor pins: composites of two catalogue pictures, mirrored and hue-shifted, so they look
 * like pins of the same style but are never the right answer to any query.
 */
async function writeDistractors(benchDir: string, dir: string, count: number): Promise<string> {
  const catalogue = parse(fs.readFileSync(path.join(benchDir, 'catalogue.csv'), 'utf8'), { columns: true, skip_empty_lines: true }) as Record<string, string>[];
  const sources = catalogue.map((r) => path.join(benchDir, r.images.split('|')[0]));
  const lines: string[] = [];
  fs.mkdirSync(path.join(dir, 'distractors'), { recursive: true });
  for (let i = 0; i < count; i++) {
    const a = sources[(i * 7) % sources.length];
    const b = sources[(i * 13 + 5) % sources.length];
    const half = await sharp(b).resize(512, 512).extract({ left: 256, top: 0, width: 256, height: 512 }).flip().toBuffer();
    const img = await sharp(a)
      .resize(512, 512)
      .flop()
      .modulate({ hue: 40 + ((i * 67) % 280) })
      .composite([{ input: half, left: 256, top: 0, blend: i % 2 ? 'over' : 'multiply' }])
      .jpeg({ quality: 88 })
      .toBuffer();
    const rel = `distractors/d${String(i).padStart(5, '0')}.jpg`;
    fs.writeFileSync(path.join(dir, rel), img);
    lines.push([`Distractor Pin ${i + 1}`, `Distractor League ${(i % 40) + 1}`, 'generated distractor', 'common', 2000 + (i % 25), 'Benchmark', '', 500, rel].map(csvField).join(','));
    if ((i + 1) % 500 === 0) console.log(`  generated ${i + 1}/${count} distractors`);
  }
  const file = path.join(dir, 'distractors.csv');
  fs.writeFileSync(file, `name,organization,description,rarity,year,event,estimated_value,total_quantity,images\n${lines.join('\n')}\n`);
  return file;
}

function runImport(csv: string, env: NodeJS.ProcessEnv) {
  const started = performance.now();
  const res = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'app/cli/catalogue-import.ts'), csv], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const lines = (res.stdout ?? '').trim().split('\n');
  const summary = lines.filter((l) => !/^\[\s*\d+\/\d+\]/.test(l) || /skipped/.test(l));
  for (const l of summary.slice(-12)) console.log(`  ${l}`);
  if (res.status !== 0) throw new Error(`catalogue import failed (exit ${res.status})`);
  return (performance.now() - started) / 1000;
}

async function waitForServer(base: string, child: ChildProcess) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode != null) throw new Error(`server exited with ${child.exitCode}`);
    if (await identificationReady(base)) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('server did not start within 120 s');
}

const pct = (n: number, d: number) => (d ? Math.round((n / d) * 1000) / 10 : 0);
const quantile = (sorted: number[], q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : 0);

type Report = Awaited<ReturnType<typeof runSet>>;

async function runSet(setName: SetName) {
  const benchDir = SET_DIRS[setName];
  console.log(`\n== ${setName} set (${path.relative(root, benchDir)})`);
  const truthAll = parse(fs.readFileSync(path.join(benchDir, 'truth.csv'), 'utf8'), { columns: true, skip_empty_lines: true }) as TruthRow[];
  const truth = LIMIT ? stratifiedSlice(truthAll, LIMIT) : truthAll;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pindex-identify-bench-'));
  const dbUrl = `file:${path.join(tmp, 'bench.db')}`;
  const env: NodeJS.ProcessEnv = { ...process.env, ENV_FILE: 'off', DATABASE_URL: dbUrl };
  let server: ChildProcess | null = null;
  try {
    let importSeconds = 0;
    if (FROM_DB) {
      if (!fs.existsSync(FROM_DB)) throw new Error(`--from-db: ${FROM_DB} does not exist`);
      // a database the benchmark imported before (--keep), copied so that this run's identifications stay out of it
      for (const suffix of ['', '-wal', '-shm']) {
        if (fs.existsSync(FROM_DB + suffix)) fs.copyFileSync(FROM_DB + suffix, path.join(tmp, `bench.db${suffix}`));
      }
      console.log(`Catalogue copied from ${FROM_DB} (imported earlier: no import)`);
    } else {
      console.log(`Importing ${path.relative(root, path.join(benchDir, 'catalogue.csv'))} into ${dbUrl}`);
      importSeconds = runImport(path.join(benchDir, 'catalogue.csv'), env);
    }
    if (DISTRACTORS && !FROM_DB) {
      console.log(`Generating ${DISTRACTORS} distractor pins`);
      const csv = await writeDistractors(benchDir, tmp, DISTRACTORS);
      importSeconds += runImport(csv, env);
    }

    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const serverStarted = performance.now();
    const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...(PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(PROFILE)}`] : []), path.join(root, 'app/cli/server.js')], {
      cwd: root,
      env: { ...env, ...serverMemoryEnv, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', LOG_REQUESTS: '0', IDENTIFY_RATE_LIMIT: 'off', SESSION_SECRET: process.env.SESSION_SECRET ?? 'bench-secret-bench-secret-bench-secret' },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    server = child;
    await waitForServer(base, child);

    const post = async (file: string) => {
      const bytes = fs.readFileSync(file);
      const body = JSON.stringify({ imageData: `data:image/jpeg;base64,${bytes.toString('base64')}` });
      const t0 = performance.now();
      const res = await fetch(`${base}/api/identify`, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: base }, body });
      const answer = (await res.json().catch(() => ({ error: 'not JSON' }))) as Answer;
      return { status: res.status, answer, ms: performance.now() - t0 };
    };
    // the first request waits for the index to load: not counted
    await post(path.join(benchDir, truth[0].query));
    const readySeconds = (performance.now() - serverStarted) / 1000;
    const memAfterLoad = memoryOf(child.pid!);
    const cpuAtStart = cpuMsOf(child.pid!);

    const latencies: number[] = [];
    const results: { query: string; kind: string; family: boolean; expected: string; status: number; identified: boolean; name: string | null; confidence: number; top4: boolean; ms: number }[] = [];
    let i = 0;
    for (const row of truth) {
      const { status, answer, ms } = await post(path.join(benchDir, row.query));
      latencies.push(ms);
      const names = [answer.pin?.name, ...(answer.similarPins ?? []).map((s) => s.pin.name)].filter(Boolean);
      results.push({
        query: row.query,
        kind: row.kind,
        family: !!row.family,
        expected: row.expected,
        status,
        identified: !!answer.identified,
        name: answer.pin?.name ?? null,
        confidence: Number(answer.confidence ?? 0),
        top4: !!row.expected && names.slice(0, 5).includes(row.expected),
        ms: Math.round(ms),
      });
      if (++i % 50 === 0) console.log(`  ${i}/${truth.length} queries`);
    }
    const mem = memoryOf(child.pid!);
    const cpuAtEnd = cpuMsOf(child.pid!);

    const known = results.filter((r) => r.kind === 'known');
    const top1 = (list: typeof results) => list.filter((r) => r.identified && r.name === r.expected).length;
    const wrong = known.filter((r) => r.identified && r.name !== r.expected).length;
    const novel = results.filter((r) => r.kind === 'unknown_novel');
    const near = results.filter((r) => r.kind === 'unknown_near_duplicate');
    const unknown = [...novel, ...near];
    const falseOf = (list: typeof results) => list.filter((r) => r.identified).length;
    const fam = known.filter((r) => r.family);
    const single = known.filter((r) => !r.family);
    const sorted = [...latencies].sort((a, b) => a - b);
    const report = {
      queries: results.length,
      catalogue: { distractors: DISTRACTORS, importSeconds: Math.round(importSeconds), readySeconds: Math.round(readySeconds * 10) / 10 },
      top1: pct(top1(known), known.length),
      top4: pct(known.filter((r) => r.top4).length, known.length),
      wrongMatchOnKnown: pct(wrong, known.length),
      rejectedKnown: pct(known.filter((r) => !r.identified).length, known.length),
      falseMatch: pct(falseOf(unknown), unknown.length),
      falseMatchNovel: pct(falseOf(novel), novel.length),
      falseMatchNearDuplicate: pct(falseOf(near), near.length),
      top1Family: pct(top1(fam), fam.length),
      top1Single: pct(top1(single), single.length),
      top4Family: pct(fam.filter((r) => r.top4).length, fam.length),
      errors: results.filter((r) => r.status !== 200).length,
      latencyMs: { p50: Math.round(quantile(sorted, 0.5)), p95: Math.round(quantile(sorted, 0.95)), max: Math.round(sorted[sorted.length - 1] ?? 0) },
      serverCpuMsPerQuery: cpuAtStart != null && cpuAtEnd != null ? Math.round(((cpuAtEnd - cpuAtStart) / results.length) * 10) / 10 : null,
      serverMemoryMb: { afterLoad: memAfterLoad?.rssMb ?? null, end: mem?.rssMb ?? null, peak: mem?.peakMb ?? null, malloc: MALLOC_SETTINGS || null },
      counts: { known: known.length, family: fam.length, single: single.length, novel: novel.length, nearDuplicate: near.length },
      reliability: reliabilityOf(results),
    };

    console.log(`\nIdentification benchmark, ${setName} set (HTTP, one request at a time)`);
    console.log(`  queries              ${report.queries} (${known.length} known: ${fam.length} family, ${single.length} single; ${novel.length} novel, ${near.length} near-duplicate unknown)`);
    console.log(`  catalogue            ${truthAll.length ? 'bench catalogue' : ''}${DISTRACTORS ? ` + ${DISTRACTORS} distractors` : ''}; ${FROM_DB ? 'imported earlier' : `import ${report.catalogue.importSeconds}s`}, server ready ${report.catalogue.readySeconds}s`);
    console.log(`  top-1 (known)        ${report.top1}%   family ${report.top1Family}%   single ${report.top1Single}%`);
    console.log(`  top-4 (known)        ${report.top4}%   family ${report.top4Family}%`);
    console.log(`  wrong pin (known)    ${report.wrongMatchOnKnown}%   rejected ${report.rejectedKnown}%`);
    console.log(`  false matches        ${report.falseMatch}%   novel ${report.falseMatchNovel}%   near-duplicate ${report.falseMatchNearDuplicate}%`);
    console.log(`  errors               ${report.errors}`);
    console.log(`  confidence of a match: ${report.reliability.map((b) => `${b.range}% ${b.right}/${b.answers} right`).join(', ')}`);
    console.log(`  latency              p50 ${report.latencyMs.p50} ms   p95 ${report.latencyMs.p95} ms   max ${report.latencyMs.max} ms`);
    console.log(`  server CPU           ${report.serverCpuMsPerQuery ?? '?'} ms a query (all its threads)`);
    console.log(`  server memory        ${report.serverMemoryMb.afterLoad} MB after load, ${report.serverMemoryMb.end} MB at end, peak ${report.serverMemoryMb.peak} MB (${MALLOC_SETTINGS || "glibc's defaults"})`);
    return { ...report, results };
  } finally {
    server?.kill('SIGTERM');
    if (!KEEP) fs.rmSync(tmp, { recursive: true, force: true });
    else console.log(`kept ${tmp}`);
  }
}

/** The sets' figures side by side. */
function printSideBySide(reports: Partial<Record<SetName, Report>>) {
  const names = SETS.filter((n) => reports[n]);
  const row = (label: string, f: (r: Report) => string) => console.log(`  ${label.padEnd(24)}${names.map((n) => f(reports[n]!).padStart(22)).join('')}`);
  console.log('\nSide by side (HTTP, one request at a time; latency depends on the machine\'s load)');
  row('', (r) => (r === reports.public ? 'public' : 'validation'));
  row('queries', (r) => `${r.queries}`);
  row('top-1 (known)', (r) => `${r.top1}%`);
  row('top-4 (known)', (r) => `${r.top4}%`);
  row('wrong pin / rejected', (r) => `${r.wrongMatchOnKnown}% / ${r.rejectedKnown}%`);
  row('false matches', (r) => `${r.falseMatch}%`);
  row('  novel / near-duplicate', (r) => `${r.falseMatchNovel}% / ${r.falseMatchNearDuplicate}%`);
  row('p50 / p95', (r) => `${r.latencyMs.p50} / ${r.latencyMs.p95} ms`);
  row('CPU a query', (r) => `${r.serverCpuMsPerQuery ?? '?'} ms`);
  row('peak memory', (r) => `${r.serverMemoryMb.peak} MB`);
}

async function main() {
  if (!fs.existsSync(path.join(root, 'build/index.js'))) throw new Error('build/index.js not found: run `npm run build` first');
  const reports: Partial<Record<SetName, Report>> = {};
  for (const name of SETS) reports[name] = await runSet(name);
  if (SETS.length > 1) printSideBySide(reports);
  if (JSON_OUT) fs.writeFileSync(JSON_OUT, JSON.stringify(reports, null, 2));
  const failures: string[] = [];
  for (const [name, report] of Object.entries(reports)) {
    if (MIN_TOP1 != null && report.top1 / 100 < MIN_TOP1) failures.push(`${name}: top-1 ${report.top1}% < ${MIN_TOP1 * 100}%`);
    if (MAX_FALSE != null && report.falseMatch / 100 > MAX_FALSE) failures.push(`${name}: false matches ${report.falseMatch}% > ${MAX_FALSE * 100}%`);
  }
  if (failures.length) {
    console.error(`\nFloors missed: ${failures.join('; ')}`);
    process.exitCode = 1;
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
