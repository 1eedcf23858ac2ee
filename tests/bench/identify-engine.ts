/**
 * Standalone benchmark of the visual identification engine (no server).
 *
 *   npx tsx tests/bench/identify-engine.ts [--set validation] [--limit N] [--every K] [--distractors N] [--json out.json] [--trace] [--worker] [--as-stored]
 *                                           [--order-seed N] [--only q0001,q0002] [--from-db FILE]
 *
 * BENCH_DIR defaults to ../shared/bench/identify relative to the repo root; with --set validation,
 * VALIDATION_DIR (default ../shared/bench/identify-validation) is read instead.
 * Builds a VisualIndex from catalogue.csv, runs every query of truth.csv one at a time and prints
 * top-1 / top-4 (the pins the API's answer shows: the pin and up to 4 similar pins) accuracy, false-match rates (novel vs near-duplicate), per-family top-1,
 * latency p50/p95/max and RSS. --distractors N adds N synthetic reference images (mirrored, hue-shifted
 * composites of catalogue references, which can never be a correct answer) to measure scaling.
 * --from-db FILE takes the catalogue from a database kept by identify.ts --keep instead (its stored
 * features, with the distractors it was grown with), loaded as the server loads it (in its order, so
 * with its vocabulary: the answers are those of identify.ts on that database), so that a change of the
 * matcher alone is measured at 5,000 pins in minutes.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { mulberry32 } from "../../app/utils/random";
import { DETAIL_WORKER_FILE, DetailWorker } from "../../app/services/identification/detail-worker.server";
import { normaliseImage } from "../../app/services/images.server";
import { extractFeatures, VisualIndex, type MatchResult, type MatchTrace } from "../../app/services/identification/engine.server";
import { shownSimilar } from "../../app/services/identification/identify.server";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
/** A candidate's diagnostics in the --json rows with --trace: what each stage found on it. */
interface CandidateDebug {
  imageId: string;
  pinId: string;
  bow: number;
  bowRank: number;
  matches: number;
  inliers: number;
  resid?: number;
  tileP90?: number;
  tileMax?: number;
  localMax?: number;
  wins?: number;
  margin?: number;
  duelErr?: number;
  losses?: number; // duels lost
  winner?: boolean;
  holes?: number;
  residTrim?: number;
  dTiles?: number;
  dMismatch?: number;
  dCluster?: number;
  dMedian?: number;
  dSigma?: number;
  dNotClose?: number;
  dNotCloseCluster?: number;
  dLetters?: number;
  dLineEnd?: number;
  dRead?: number;
  dHighlights?: number;
}

/** Every verified candidate of a match with its evidence, its duels and its detail check (when one was made). */
function candidateDebug({ verified, tally, winner, detail }: MatchTrace): CandidateDebug[] {
  return verified.map((v) => {
    const dv = detail(v);
    return {
      imageId: v.e.imageId,
      pinId: v.pinId,
      bow: v.votes,
      bowRank: v.voteRank,
      matches: v.matches,
      inliers: v.inliers,
      resid: v.resid,
      tileP90: v.tileP90,
      tileMax: v.tileMax,
      localMax: v.localMax,
      wins: tally.wins.get(v),
      margin: tally.margin.get(v),
      duelErr: tally.duelErr.get(v),
      losses: tally.losses.get(v),
      winner: v === winner,
      holes: v.holes,
      residTrim: v.residTrim,
      ...(dv
        ? { dTiles: dv.tiles, dMismatch: dv.mismatch, dCluster: dv.cluster, dMedian: dv.median, dSigma: dv.sigma, dNotClose: dv.notClose, dNotCloseCluster: dv.notCloseCluster, dLetters: dv.wrongLetters, dLineEnd: dv.lineEndLetters, dRead: dv.lettersRead, dHighlights: dv.highlights }
        : {}),
    };
  });
}

// --set validation: the validation set (VALIDATION_DIR) instead of the public one (BENCH_DIR)
const validation = process.argv[process.argv.indexOf("--set") + 1] === "validation" && process.argv.includes("--set");
const benchDir = validation
  ? resolve(repoRoot, process.env.VALIDATION_DIR ?? "../shared/bench/identify-validation")
  : resolve(repoRoot, process.env.BENCH_DIR ?? "../shared/bench/identify");

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const limit = Number(arg("--limit") ?? 0) || 0;
const every = Number(arg("--every") ?? 1) || 1;
const distractors = Number(arg("--distractors") ?? 0) || 0;
const jsonOut = arg("--json");
// --only: these queries alone (names without folder and extension), to look at a few photos again
const only = arg("--only")?.split(",");
const fromDb = arg("--from-db"); // a database kept by identify.ts --keep, instead of extracting the catalogue
const trace = process.argv.includes("--trace"); // keep each candidate's diagnostics in the --json rows
// --as-stored: each reference passes through the image store's normalisation first, as an import does
const asStored = process.argv.includes("--as-stored");
// --order-seed N: the references added in an order shuffled with seed N instead of the CSV's (the
// vocabulary is built from the catalogue in the order it was added, and the answers move with it)
const orderSeed = arg("--order-seed") != null ? Number(arg("--order-seed")) : null;
// --worker: detail checks on the second core, as the server does (the worker bundled by `npm run build`)
const worker = process.argv.includes("--worker") ? DetailWorker.at(new URL(`../../build/${DETAIL_WORKER_FILE}`, import.meta.url)) : null;
if (process.argv.includes("--worker") && !worker) throw new Error("build/detail-worker.js is missing: run npm run build first");

function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let f = "";
  let q = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (q) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          f += '"';
          i++;
        } else q = false;
      } else f += c;
    } else if (c === '"') q = true;
    else if (c === ",") {
      row.push(f);
      f = "";
    } else if (c === "\n") {
      row.push(f);
      rows.push(row);
      row = [];
      f = "";
    } else if (c !== "\r") f += c;
  }
  if (f || row.length) {
    row.push(f);
    rows.push(row);
  }
  return rows.filter((r) => r.length > 1);
}

function pct(a: number, b: number): string {
  return b ? `${((100 * a) / b).toFixed(1)}%` : "n/a";
}
function quantile(sorted: number[], q: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] : 0;
}

async function makeDistractor(src: Buffer, other: Buffer, k: number): Promise<Buffer> {
  const meta = await sharp(src).metadata();
  const w = meta.width ?? 512;
  const h = meta.height ?? 512;
  const inset = await sharp(other)
    .flop()
    .resize(Math.round(w * 0.45), Math.round(h * 0.45), { fit: "inside" })
    .modulate({ hue: (k * 53) % 360 })
    .toBuffer();
  return sharp(src)
    .flop()
    .modulate({ hue: (k * 37 + 90) % 360, saturation: 0.8 + ((k * 13) % 5) * 0.1 })
    .composite([{ input: inset, gravity: k % 2 ? "center" : "north" }])
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** The index of the public set's catalogue (and `--distractors` generated pins), extracted here. */
async function indexFromCatalogue(): Promise<VisualIndex> {
  const cat = parseCsv(readFileSync(join(benchDir, "catalogue.csv"), "utf8"));
  const header = cat[0];
  const nameCol = header.indexOf("name");
  const imagesCol = header.indexOf("images");
  const distractorImages = new Map<string, Buffer>();
  const stored = new Map<string, Buffer>();
  const reference = async (p: string): Promise<Buffer> => {
    if (!asStored) return readFileSync(join(benchDir, p));
    let master = stored.get(p);
    if (!master) stored.set(p, (master = (await normaliseImage(readFileSync(join(benchDir, p)))).master));
    return master;
  };
  const index = new VisualIndex(
    async (id) => (id.startsWith("distractor-") ? distractorImages.get(id) ?? null : reference(id)),
    undefined,
    worker,
  );
  const refPaths: string[] = [];
  let t0 = performance.now();
  const extractTimes: number[] = [];
  const refs = cat.slice(1).flatMap((r) => r[imagesCol].split("|").map((p) => ({ p, pinId: r[nameCol] })));
  if (orderSeed != null) {
    // another order of the catalogue (as a server loads it: by image id), so another vocabulary
    const random = mulberry32(orderSeed);
    for (let i = refs.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [refs[i], refs[j]] = [refs[j], refs[i]];
    }
  }
  for (const { p, pinId } of refs) {
    const t = performance.now();
    const features = await extractFeatures(await reference(p));
    extractTimes.push(performance.now() - t);
    index.add({ imageId: p, pinId, features });
    refPaths.push(p);
  }
  extractTimes.sort((a, b) => a - b);
  console.log(
    `catalogue: ${cat.length - 1} pins, ${index.size} images indexed in ${((performance.now() - t0) / 1000).toFixed(1)} s ` +
      `(extract p50 ${quantile(extractTimes, 0.5).toFixed(0)} ms)`,
  );
  if (distractors > 0) {
    t0 = performance.now();
    const bufs = refPaths.map((p) => readFileSync(join(benchDir, p)));
    for (let k = 0; k < distractors; k++) {
      const img = await makeDistractor(bufs[k % bufs.length], bufs[(k * 7 + 3) % bufs.length], k);
      distractorImages.set(`distractor-${k}`, img);
      index.add({ imageId: `distractor-${k}`, pinId: `distractor-${k}`, features: await extractFeatures(img) });
    }
    console.log(`distractors: ${distractors} added in ${((performance.now() - t0) / 1000).toFixed(1)} s, index size ${index.size}`);
  }
  return index;
}

/**
 * The catalogue of a database kept by identify.ts --keep, loaded as the server loads it
 * (`loadStoredFeatures`, in its order, so with its vocabulary), from a copy (the loader may migrate
 * it). The index knows pins by id; `pinName` turns them into the names the truth file uses.
 */
const pinNames = new Map<string, string>();
const pinName = (id: string) => pinNames.get(id) ?? id;

async function indexFromDb(file: string): Promise<VisualIndex> {
  const tmp = mkdtempSync(join(tmpdir(), "pindex-engine-bench-"));
  process.on("exit", () => rmSync(tmp, { recursive: true, force: true })); // a copy of a 5,000-pin database is about 900 MB
  for (const suffix of ["", "-wal", "-shm"]) if (existsSync(file + suffix)) copyFileSync(file + suffix, join(tmp, `bench.db${suffix}`));
  process.env.DATABASE_URL = `file:${join(tmp, "bench.db")}`;
  const { loadStoredFeatures, storeBackedIndex, storeMissingPixels } = await import("../../app/services/identification/index.server");
  const { db } = await import("../../app/db/index.server");
  const { pins } = await import("../../app/db/schema");
  for (const pin of await db().select({ id: pins.id, name: pins.name }).from(pins)) pinNames.set(pin.id, pin.name);
  const index = storeBackedIndex(worker);
  const missing = await loadStoredFeatures(index);
  await storeMissingPixels(); // as the server's background work after the load (a database kept by an earlier version)
  console.log(`catalogue: ${index.size} images of ${pinNames.size} pins indexed as the server loads them (${missing.length} without stored features), from ${file}`);
  return index;
}

/**
 * The pins an answer shows, as `POST /api/identify` does: the pin when it is named, and the other
 * candidates it shows as similarPins (`shownSimilar`: up to SIMILAR_PINS_LIMIT, those scoring too
 * little left out, the family of an ambiguous answer always shown).
 */
function shownPins(res: MatchResult): string[] {
  const best = res.best?.pinId ?? null;
  const outcome = best ? "match" : res.reason === "ambiguous" ? "ambiguous" : "no_match";
  const scores = new Map(res.candidates.map((c) => [c.pinId, c.score]));
  const family = new Set(res.family ?? res.candidates.map((c) => c.pinId));
  const similar = shownSimilar(outcome, res.candidates.map((c) => c.pinId), (id) => scores.get(id) ?? 0, { bestId: best, family });
  return best ? [best, ...similar] : similar;
}

/** The result with its pins named (the truth file's names) rather than known by id. */
function named(res: MatchResult): MatchResult {
  if (!pinNames.size) return res;
  return { ...res, best: res.best && { ...res.best, pinId: pinName(res.best.pinId) }, candidates: res.candidates.map((c) => ({ ...c, pinId: pinName(c.pinId) })) };
}

async function main(): Promise<void> {
  const index = fromDb ? await indexFromDb(fromDb) : await indexFromCatalogue();
  let t0 = performance.now();
  const families = JSON.parse(readFileSync(join(benchDir, "families.json"), "utf8")) as Record<
    string,
    { kind: string; members: string[] }
  >;
  let truth = parseCsv(readFileSync(join(benchDir, "truth.csv"), "utf8")).slice(1);
  truth = truth.filter((_, i) => i % every === 0);
  if (only) truth = truth.filter((row) => only.some((q) => row[0].endsWith(`/${q}.jpg`)));
  if (limit) truth = truth.slice(0, limit);

  // warm-up (lazy WASM init and vocabulary build are not part of per-query latency)
  t0 = performance.now();
  await index.match(readFileSync(join(benchDir, truth[0][0])));
  console.log(`warm-up (lazy init + vocabulary): ${(performance.now() - t0).toFixed(0)} ms`);

  const lat: number[] = [];
  const stats = {
    known: 0, top1: 0, top4: 0, knownRejected: 0, knownWrong: 0,
    famKnown: 0, famTop1: 0, singleKnown: 0, singleTop1: 0,
    novel: 0, novelFM: 0, nearDup: 0, nearDupFM: 0, errors: 0,
  };
  const reasons: Record<string, number> = {};
  const perFamily: Record<string, { n: number; ok: number }> = {};
  const rows: { query: string; kind: string; expected: string; result: MatchResult | null; ms: number; debug?: CandidateDebug[] }[] = [];
  for (const [query, expected, kind, family] of truth) {
    const buf = readFileSync(join(benchDir, query));
    const t = performance.now();
    let res: MatchResult | null = null;
    let debug: CandidateDebug[] | undefined;
    try {
      if (trace) {
        const traced = await index.inspect(buf);
        res = named(traced.result);
        debug = candidateDebug(traced).map((d) => ({ ...d, pinId: pinName(d.pinId) }));
      } else res = named(await index.match(buf));
    } catch (e) {
      stats.errors++;
      console.error(query, e);
    }
    const ms = performance.now() - t;
    lat.push(ms);
    rows.push({ query, kind, expected, result: res, ms, debug });
    if (!res) continue;
    reasons[`${kind}:${res.reason}`] = (reasons[`${kind}:${res.reason}`] ?? 0) + 1;
    if (kind === "known") {
      stats.known++;
      const ok = res.best?.pinId === expected;
      if (ok) stats.top1++;
      else if (res.best) stats.knownWrong++;
      else stats.knownRejected++;
      if (shownPins(res).includes(expected)) stats.top4++;
      if (family) {
        stats.famKnown++;
        if (ok) stats.famTop1++;
        const f = (perFamily[family] ??= { n: 0, ok: 0 });
        f.n++;
        if (ok) f.ok++;
      } else {
        stats.singleKnown++;
        if (ok) stats.singleTop1++;
      }
    } else if (kind === "unknown_near_duplicate") {
      stats.nearDup++;
      if (res.best) stats.nearDupFM++;
    } else {
      stats.novel++;
      if (res.best) stats.novelFM++;
    }
  }
  lat.sort((a, b) => a - b);
  const unknown = stats.novel + stats.nearDup;
  console.log(`\nqueries: ${truth.length} (known ${stats.known}, unknown ${unknown}), errors ${stats.errors}`);
  console.log(`top-1 accuracy (known):        ${pct(stats.top1, stats.known)}  (wrong ${stats.knownWrong}, rejected ${stats.knownRejected})`);
  console.log(`top-4 recall (as the API shows): ${pct(stats.top4, stats.known)}`);
  console.log(`  family members top-1:        ${pct(stats.famTop1, stats.famKnown)} of ${stats.famKnown}`);
  console.log(`  single pins top-1:           ${pct(stats.singleTop1, stats.singleKnown)} of ${stats.singleKnown}`);
  console.log(`false-match rate (unknown):    ${pct(stats.novelFM + stats.nearDupFM, unknown)}`);
  console.log(`  novel:                       ${pct(stats.novelFM, stats.novel)} of ${stats.novel}`);
  console.log(`  near-duplicate:              ${pct(stats.nearDupFM, stats.nearDup)} of ${stats.nearDup}`);
  console.log(`latency ms: p50 ${quantile(lat, 0.5).toFixed(0)}  p95 ${quantile(lat, 0.95).toFixed(0)}  max ${lat[lat.length - 1]?.toFixed(0)}`);
  console.log(`RSS: ${(process.memoryUsage().rss / 1048576).toFixed(0)} MB, heap used ${(process.memoryUsage().heapUsed / 1048576).toFixed(0)} MB`);
  console.log(`reasons: ${JSON.stringify(reasons)}`);
  console.log("per-family top-1:");
  for (const [id, f] of Object.entries(perFamily).sort()) {
    console.log(`  ${id} (${families[id]?.kind ?? "?"}): ${f.ok}/${f.n}`);
  }
  if (worker) console.log(`detail checks answered by the worker: ${worker.completed}`);
  if (jsonOut) writeFileSync(jsonOut, JSON.stringify(rows, null, 1));
  await worker?.close();
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
