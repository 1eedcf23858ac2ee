/**
 * Pins added from a phone photo: a pin whose only reference is a photo (as when a vendor adds it from
 * a no-match result) should be named on its next photo, and should not take other pins' photos.
 *
 *   npx tsx tests/bench/identify-photo-ref.ts [--pins N]
 *
 * Of the benchmark's single (non-family) pins with two photos, every fifth (at most N, default 60) gets
 * its first photo as its only reference, stored as the image store keeps an identification photo
 * (`photoMaster`: as it came when it needs no normalising, else re-encoded); every other pin keeps its catalogue shot. Reports how many of
 * those pins are named on their second photo, how many other pins' photos (every fourth) are still
 * named right or are taken by a photo reference, and the false matches on the 100 photos of pins not
 * in the catalogue.
 */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "csv-parse/sync";
import { photoMaster } from "../../app/services/images.server";
import { extractFeatures, VisualIndex } from "../../app/services/identification/engine.server";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const benchDir = resolve(repoRoot, process.env.BENCH_DIR ?? "../shared/bench/identify");
const at = process.argv.indexOf("--pins");
const maxPins = at >= 0 ? Number(process.argv[at + 1]) || 60 : 60;

const read = (file: string) => parse(readFileSync(join(benchDir, file), "utf8"), { columns: true, skip_empty_lines: true }) as Record<string, string>[];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function main(): Promise<void> {
  const catalogue = read("catalogue.csv");
  const truth = read("truth.csv");
  const photosOf = new Map<string, string[]>();
  for (const t of truth) if (t.kind === "known" && !t.family) photosOf.set(t.expected, [...(photosOf.get(t.expected) ?? []), t.query]);
  const chosen = new Map([...photosOf].filter(([, q]) => q.length >= 2).filter((_, i) => i % 5 === 0).slice(0, maxPins));

  const stored = new Map<string, Buffer>();
  const index = new VisualIndex(async (id) => stored.get(id) ?? null);
  const extractMs: number[] = [];
  for (const row of catalogue) {
    const photos = chosen.get(row.name);
    const refs = photos
      ? [[`photo:${row.name}`, (await photoMaster(readFileSync(join(benchDir, photos[0])))).master] as const]
      : row.images.split("|").map((p) => [p, readFileSync(join(benchDir, p))] as const);
    for (const [id, bytes] of refs) {
      stored.set(id, bytes);
      const t = performance.now();
      const features = await extractFeatures(bytes);
      if (photos) extractMs.push(performance.now() - t);
      index.add({ imageId: id, pinId: row.name, features });
    }
  }

  let named = 0, wrong = 0, listed = 0;
  const ms: number[] = [];
  for (const [pin, photos] of chosen) {
    const t = performance.now();
    const res = await index.match(readFileSync(join(benchDir, photos[1])));
    ms.push(performance.now() - t);
    if (res.best?.pinId === pin) named++;
    else if (res.best) wrong++;
    if (res.candidates.some((c) => c.pinId === pin)) listed++;
  }
  let others = 0, othersRight = 0, taken = 0, unknown = 0, falseMatches = 0, toPhoto = 0, k = 0;
  for (const t of truth) {
    if (t.kind === "known") {
      if (chosen.has(t.expected) || k++ % 4 !== 0) continue;
      others++;
      const res = await index.match(readFileSync(join(benchDir, t.query)));
      if (res.best?.pinId === t.expected) othersRight++;
      else if (res.best && chosen.has(res.best.pinId)) taken++;
    } else {
      unknown++;
      const best = (await index.match(readFileSync(join(benchDir, t.query)))).best;
      if (best) falseMatches++;
      if (best && chosen.has(best.pinId)) toPhoto++;
    }
  }
  console.log(`pins whose only reference is a phone photo: ${chosen.size} (extraction p50 ${median(extractMs).toFixed(0)} ms)`);
  console.log(`  named on their next photo:   ${named} (${((100 * named) / chosen.size).toFixed(1)}%), wrong pin ${wrong}, among the candidates ${listed}; match p50 ${median(ms).toFixed(0)} ms`);
  console.log(`other pins' photos (every 4th): ${othersRight} of ${others} named right, ${taken} taken by a photo reference`);
  console.log(`false matches (not in catalogue): ${falseMatches} of ${unknown}, ${toPhoto} of them to a pin referenced by a photo`);
}

void main();
