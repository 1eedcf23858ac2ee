/**
 * Fits the model behind a match's confidence (`app/services/identification/confidence.server.ts`).
 *
 *   npx tsx tests/bench/identify-engine.ts --worker --json public.json
 *   npx tsx tests/bench/identify-engine.ts --set validation --worker --json validation.json
 *   npx tsx tests/bench/fit-confidence.ts --public public.json --validation validation.json [--check]
 *
 * A logistic regression (L2, Newton's method: the same files give the same model) over the inputs of
 * `confidenceFeatures` is fitted on the public set's matches, each labelled right (the photo's own pin)
 * or wrong (another pin, or a pin not in the catalogue); its scale is then calibrated on the validation
 * set's matches (Platt: two numbers). Prints the reliability of the confidence on both sets, before (the
 * confidence the files were run with) and after, and writes `confidence-model.json` unless `--check`.
 * The answers themselves do not change: only the confidence of a match.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CONFIDENCE_FEATURES,
  confidenceFeatures,
  confidenceLogit,
  matchConfidence,
  type ConfidenceInputs,
  type ConfidenceModel,
} from '../../app/services/identification/confidence.server';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const publicFile = arg('--public');
const validationFile = arg('--validation');
if (!publicFile || !validationFile) {
  console.error('usage: fit-confidence.ts --public FILE --validation FILE [--check] [--lambda L]');
  process.exit(2);
}
const check = process.argv.includes('--check');
const LAMBDA = Number(arg('--lambda') ?? 2); // L2 penalty on the standardised weights
const out = resolve(repoRoot, 'app/services/identification/confidence-model.json');

interface Row {
  query: string;
  kind: string;
  expected: string;
  result: { reason: string; best: { pinId: string; confidence: number; evidence?: ConfidenceInputs } | null };
}
interface Example {
  x: ConfidenceInputs;
  f: number[];
  right: boolean;
  /** a photo of a pin that is not in the catalogue */
  unknown: boolean;
  shown: number;
}

/** The matches of a benchmark run, with their inputs and whether each named the photo's pin. */
function examples(file: string): { ex: Example[]; known: number; unknown: number } {
  const rows = JSON.parse(readFileSync(file, 'utf8')) as Row[];
  const ex: Example[] = [];
  for (const r of rows) {
    const best = r.result.best;
    if (r.result.reason !== 'match' || !best) continue;
    if (!best.evidence) throw new Error(`${file}: ${r.query} has no evidence: run identify-engine.ts with this version`);
    ex.push({ x: best.evidence, f: confidenceFeatures(best.evidence), right: r.kind === 'known' && best.pinId === r.expected, unknown: r.kind !== 'known', shown: best.confidence });
  }
  return { ex, known: rows.filter((r) => r.kind === 'known').length, unknown: rows.filter((r) => r.kind !== 'known').length };
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** Solves A x = b (A symmetric positive definite) by Gaussian elimination with partial pivoting. */
function solve(A: number[][], b: number[]): number[] {
  const n = b.length;
  const M = A.map((row, i) => [...row, b[i]]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r][c]) > Math.abs(M[p][c])) p = r;
    [M[c], M[p]] = [M[p], M[c]];
    for (let r = c + 1; r < n; r++) {
      const k = M[r][c] / M[c][c];
      for (let j = c; j <= n; j++) M[r][j] -= k * M[c][j];
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = M[r][n];
    for (let j = r + 1; j < n; j++) s -= M[r][j] * x[j];
    x[r] = s / M[r][r];
  }
  return x;
}

/**
 * Logistic regression by Newton's method: `X` rows with a leading 1 (the bias, not penalised), `y` 0/1,
 * `penalty` the L2 weight of every other coefficient.
 */
function logistic(X: number[][], y: number[], penalty: number): number[] {
  const k = X[0].length;
  let w = new Array<number>(k).fill(0);
  for (let it = 0; it < 50; it++) {
    const g = new Array<number>(k).fill(0);
    const Hm = Array.from({ length: k }, () => new Array<number>(k).fill(0));
    X.forEach((x, i) => {
      const p = sigmoid(x.reduce((s, v, j) => s + v * w[j], 0));
      const r = p * (1 - p);
      for (let a = 0; a < k; a++) {
        g[a] += (p - y[i]) * x[a];
        for (let b = 0; b < k; b++) Hm[a][b] += r * x[a] * x[b];
      }
    });
    for (let a = 1; a < k; a++) {
      g[a] += penalty * w[a];
      Hm[a][a] += penalty;
    }
    for (let a = 0; a < k; a++) Hm[a][a] += 1e-9;
    const step = solve(Hm, g);
    w = w.map((v, j) => v - step[j]);
    if (Math.max(...step.map(Math.abs)) < 1e-10) break;
  }
  return w;
}

const BANDS: [number, number][] = [[50, 69], [70, 79], [80, 89], [90, 94], [95, 99]];

/** How often the matches of each confidence band were right, and the Brier score of the confidence. */
function reliability(ex: Example[], conf: (e: Example) => number): string {
  const cells = BANDS.map(([lo, hi]) => {
    const inBand = ex.filter((e) => conf(e) >= lo && conf(e) <= hi);
    const right = inBand.filter((e) => e.right).length;
    return `${lo}-${hi}% ${right}/${inBand.length}`;
  });
  const brier = ex.reduce((s, e) => s + (conf(e) / 100 - (e.right ? 1 : 0)) ** 2, 0) / ex.length;
  return `${cells.join(', ')}; Brier ${brier.toFixed(4)}`;
}

const pub = examples(publicFile);
const val = examples(validationFile);

// standardise on the public set; an input that does not vary there gets scale 1
const k = CONFIDENCE_FEATURES.length;
const mean = Array.from({ length: k }, (_, j) => pub.ex.reduce((s, e) => s + e.f[j], 0) / pub.ex.length);
const scale = Array.from({ length: k }, (_, j) => {
  const v = pub.ex.reduce((s, e) => s + (e.f[j] - mean[j]) ** 2, 0) / pub.ex.length;
  return v > 1e-12 ? Math.sqrt(v) : 1;
});
const design = (e: Example) => [1, ...e.f.map((v, j) => (v - mean[j]) / scale[j])];
const w = logistic(pub.ex.map(design), pub.ex.map((e) => (e.right ? 1 : 0)), LAMBDA);
const fitted: ConfidenceModel = {
  features: [...CONFIDENCE_FEATURES],
  mean: mean.map((v) => +v.toFixed(6)),
  scale: scale.map((v) => +v.toFixed(6)),
  weights: w.slice(1).map((v) => +v.toFixed(6)),
  bias: +w[0].toFixed(6),
  calibration: { a: 1, b: 0 },
};
// Platt scaling on the validation set: the model's logit -> calibrated logit
const platt = logistic(val.ex.map((e) => [1, confidenceLogit(fitted, e.f)]), val.ex.map((e) => (e.right ? 1 : 0)), 0);
fitted.calibration = { a: +platt[1].toFixed(6), b: +platt[0].toFixed(6) };

const shown = (e: Example) => matchConfidence(e.x, fitted);
const wrong = (ex: Example[]) => ex.filter((e) => !e.right).length;
console.log(`matches: public ${pub.ex.length} (${wrong(pub.ex)} wrong), validation ${val.ex.length} (${wrong(val.ex)} wrong); L2 ${LAMBDA}`);
console.log('weights of the standardised inputs (public set):');
CONFIDENCE_FEATURES.forEach((name, j) => console.log(`  ${name.padEnd(22)} ${fitted.weights[j].toFixed(3)}`));
console.log(`  bias ${fitted.bias.toFixed(3)}; calibration on the validation set: a ${fitted.calibration.a.toFixed(3)}, b ${fitted.calibration.b.toFixed(3)}`);
console.log('matches right by confidence:');
console.log(`  public, as run:        ${reliability(pub.ex, (e) => e.shown)}`);
console.log(`  public, fitted:        ${reliability(pub.ex, shown)}`);
console.log(`  validation, as run:    ${reliability(val.ex, (e) => e.shown)}`);
console.log(`  validation, fitted:    ${reliability(val.ex, shown)}`);
// what a floor on the confidence would trade: matches below it answered "no match" instead
console.log('a floor on the confidence (matches below it not named), validation set:');
for (const floor of [50, 70, 80, 85, 90, 95]) {
  const kept = val.ex.filter((e) => shown(e) >= floor);
  const right = kept.filter((e) => e.right).length;
  const named = kept.filter((e) => e.unknown).length;
  console.log(`  ${floor}%: top-1 ${((100 * right) / val.known).toFixed(1)}%, false matches ${((100 * named) / val.unknown).toFixed(0)}%`);
}
if (!check) {
  writeFileSync(out, `${JSON.stringify(fitted, null, 2)}\n`);
  console.log(`written: ${out.slice(repoRoot.length + 1)}`);
}
