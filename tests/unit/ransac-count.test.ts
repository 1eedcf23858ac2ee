/**
 * The quick RANSAC inlier count that ranks a photo's most-voted images runs in WebAssembly (ransac.wat,
 * committed assembled in ransac-wasm.ts). The answers were fitted with the plain JavaScript it replaced:
 * on the same correspondences it must find the same count, to the last inlier, whether the sample's
 * homography fits, is degenerate or flips a triangle, for counts of correspondences odd and even (the
 * kernel scores two at a time), and with the iteration count cut short by the adaptive stop or not.
 */
import { describe, expect, it } from 'vitest';
import { assembleKernel, kernelModuleSource } from '~/cli/build-wasm';
import { inlierTargets, quickFit, RANSAC_PX } from '~/services/identification/geometry.server';
import { RANSAC_WASM } from '~/services/identification/ransac-wasm';
import { ransacCount } from '~/services/identification/ransac.server';
import { mulberry32, mulberry32Step, mulberry32Value } from '~/utils/random';

/** Homography (h33 = 1) through 4 point pairs: 8x8 linear system, Gaussian elimination. False if degenerate. */
function homography4(src: number[], dst: number[], idx: Int32Array, out: Float64Array, a: Float64Array): boolean {
  for (let r = 0; r < 4; r++) {
    const x = src[idx[r] * 2], y = src[idx[r] * 2 + 1], u = dst[idx[r] * 2], v = dst[idx[r] * 2 + 1];
    const o = r * 18; // rows 2r and 2r+1 of the augmented matrix [A | b]
    a[o] = x; a[o + 1] = y; a[o + 2] = 1; a[o + 3] = 0; a[o + 4] = 0; a[o + 5] = 0; a[o + 6] = -x * u; a[o + 7] = -y * u; a[o + 8] = u;
    a[o + 9] = 0; a[o + 10] = 0; a[o + 11] = 0; a[o + 12] = x; a[o + 13] = y; a[o + 14] = 1; a[o + 15] = -x * v; a[o + 16] = -y * v; a[o + 17] = v;
  }
  for (let c = 0; c < 8; c++) {
    let piv = c;
    for (let r = c + 1; r < 8; r++) if (Math.abs(a[r * 9 + c]) > Math.abs(a[piv * 9 + c])) piv = r;
    if (Math.abs(a[piv * 9 + c]) < 1e-10) return false;
    if (piv !== c)
      for (let k = c; k < 9; k++) {
        const t = a[c * 9 + k];
        a[c * 9 + k] = a[piv * 9 + k];
        a[piv * 9 + k] = t;
      }
    for (let r = 0; r < 8; r++) {
      if (r === c) continue;
      const f = a[r * 9 + c] / a[c * 9 + c];
      if (f === 0) continue;
      for (let k = c; k < 9; k++) a[r * 9 + k] -= f * a[c * 9 + k];
    }
  }
  for (let c = 0; c < 8; c++) out[c] = a[c * 9 + 8] / a[c * 9 + c];
  out[8] = 1;
  return true;
}

/** Signed area of a triangle (orientation). */
function orient(p: number[], i: number, j: number, k: number): number {
  return (p[j * 2] - p[i * 2]) * (p[k * 2 + 1] - p[i * 2 + 1]) - (p[j * 2 + 1] - p[i * 2 + 1]) * (p[k * 2] - p[i * 2]);
}

// the four triangles of a 4-point sample (a sample whose triangles flip orientation cannot be a homography)
const SUBSET_TRIANGLES = [0, 1, 2, 1, 2, 3, 0, 2, 3, 0, 1, 3];

/** The JavaScript the kernel replaced (`ransacHomography`, geometry.server.ts), returning its best count. */
function plainCount(src: number[], dst: number[], px: number, maxIters: number, confidence: number): number {
  const m = src.length / 2;
  // mulberry32(0x5eed)'s draws, its state kept in a local variable: a closure's (mulberry32's own, or
  // one here) is stored boxed, an allocation at each of the ~60,000 draws of a photo
  let state = 0x5eed;
  const idx = new Int32Array(4);
  const h = new Float64Array(9), a = new Float64Array(72);
  const thr = px * px;
  let best = new Uint8Array(m), cur = new Uint8Array(m);
  let bestCount = 0;
  let iters = maxIters;
  for (let it = 0; it < iters; it++) {
    let ok = false;
    for (let attempt = 0; attempt < 100 && !ok; attempt++) {
      for (let k = 0; k < 4; k++) {
        let r: number;
        do {
          state = mulberry32Step(state);
          r = Math.floor(mulberry32Value(state) * m);
        } while ((k > 0 && r === idx[0]) || (k > 1 && r === idx[1]) || (k > 2 && r === idx[2]));
        idx[k] = r;
      }
      let negative = 0;
      for (let t = 0; t < 4; t++) {
        const i = idx[SUBSET_TRIANGLES[t * 3]], j = idx[SUBSET_TRIANGLES[t * 3 + 1]], k = idx[SUBSET_TRIANGLES[t * 3 + 2]];
        if (orient(src, i, j, k) * orient(dst, i, j, k) < 0) negative++;
      }
      ok = negative === 0 || negative === 4;
    }
    if (!ok || !homography4(src, dst, idx, h, a)) continue;
    let count = 0;
    for (let i = 0; i < m; i++) {
      const x = src[i * 2], y = src[i * 2 + 1];
      const w = 1 / (h[6] * x + h[7] * y + 1);
      const dx = (h[0] * x + h[1] * y + h[2]) * w - dst[i * 2];
      const dy = (h[3] * x + h[4] * y + h[5]) * w - dst[i * 2 + 1];
      const inl = dx * dx + dy * dy <= thr;
      cur[i] = inl ? 1 : 0;
      if (inl) count++;
    }
    if (count > bestCount) {
      [best, cur] = [cur, best];
      bestCount = count;
      // iterations needed to draw one all-inlier sample with the given confidence
      const p = Math.pow(count / m, 4);
      if (p >= 1) break;
      const need = Math.log(1 - confidence) / Math.log(1 - p);
      if (Number.isFinite(need)) iters = Math.min(iters, Math.ceil(need));
    }
  }
  return bestCount;
}


/**
 * `inliers` correspondences of a random homography (photo -> reference, as a pin seen at a slant),
 * moved by up to `noise` pixels, then `outliers` anywhere; with `line`, every source point on one line
 * (every sample degenerate).
 */
function correspondences(seed: number, inliers: number, outliers: number, noise: number, line = false): { src: number[]; dst: number[] } {
  const rnd = mulberry32(seed);
  const H = [0.6 + rnd() * 0.8, (rnd() - 0.5) * 0.4, rnd() * 200, (rnd() - 0.5) * 0.4, 0.6 + rnd() * 0.8, rnd() * 200, (rnd() - 0.5) * 4e-4, (rnd() - 0.5) * 4e-4];
  const src: number[] = [], dst: number[] = [];
  for (let k = 0; k < inliers; k++) {
    const x = rnd() * 1024, y = line ? 0.5 * x + 10 : rnd() * 768;
    const w = H[6] * x + H[7] * y + 1;
    src.push(x, y);
    dst.push((H[0] * x + H[1] * y + H[2]) / w + (rnd() - 0.5) * 2 * noise, (H[3] * x + H[4] * y + H[5]) / w + (rnd() - 0.5) * 2 * noise);
  }
  for (let k = 0; k < outliers; k++) {
    const x = rnd() * 1024;
    src.push(x, line ? 0.5 * x + 10 : rnd() * 768);
    dst.push(rnd() * 512, rnd() * 512);
  }
  return { src, dst };
}

describe('the quick RANSAC count', () => {
  it('finds the count the plain JavaScript found, whatever the share of inliers', () => {
    const rnd = mulberry32(7);
    let cut = 0, full = 0;
    for (let k = 0; k < 300; k++) {
      const inliers = Math.floor(rnd() * 120), outliers = Math.floor(rnd() * 150) + (inliers < 6 ? 6 : 0);
      const { src, dst } = correspondences(1000 + k, inliers, outliers, rnd() * 12);
      const iters = k % 3 === 0 ? 250 : 1000;
      const expected = plainCount(src, dst, RANSAC_PX, iters, 0.995);
      expect(ransacCount(src, dst, RANSAC_PX, iters, 0.995), `case ${k}: ${inliers} inliers, ${outliers} outliers`).toBe(expected);
      expect(quickFit({ src, dst }, iters).inliers).toBe(expected);
      if (expected >= inliers * 0.8 && inliers > outliers) cut++;
      else full++;
    }
    // both ways out of the loop were taken: a model good enough to stop early, and all iterations
    expect(cut).toBeGreaterThan(20);
    expect(full).toBeGreaterThan(20);
  });

  it('counts the correspondences of an exact homography among outliers', () => {
    for (const m of [6, 7, 40, 41]) {
      const { src, dst } = correspondences(m, m, 0, 0);
      expect(ransacCount(src, dst, RANSAC_PX, 1000, 0.995)).toBe(m);
    }
    const { src, dst } = correspondences(3, 80, 40, 1);
    const count = ransacCount(src, dst, RANSAC_PX, 1000, 0.995);
    expect(count).toBeGreaterThanOrEqual(80);
    expect(count).toBe(plainCount(src, dst, RANSAC_PX, 1000, 0.995));
  });

  it('finds the same count when the samples are degenerate or flip a triangle', () => {
    // a line of sources: every sample's system is singular
    const line = correspondences(11, 30, 20, 0, true);
    expect(ransacCount(line.src, line.dst, RANSAC_PX, 1000, 0.995)).toBe(plainCount(line.src, line.dst, RANSAC_PX, 1000, 0.995));
    // the same point repeated, and a mirrored copy (its triangles flip)
    const repeated = { src: Array.from({ length: 40 }, (_, k) => (k % 2 ? 300 : 200)), dst: Array.from({ length: 40 }, (_, k) => (k % 2 ? 30 : 20)) };
    expect(ransacCount(repeated.src, repeated.dst, RANSAC_PX, 1000, 0.995)).toBe(plainCount(repeated.src, repeated.dst, RANSAC_PX, 1000, 0.995));
    const base = correspondences(12, 50, 10, 2);
    const mirrored = { src: base.src, dst: base.dst.map((v, k) => (k % 2 === 0 ? 1000 - v : v)) };
    expect(ransacCount(mirrored.src, mirrored.dst, RANSAC_PX, 1000, 0.995)).toBe(plainCount(mirrored.src, mirrored.dst, RANSAC_PX, 1000, 0.995));
  });

  it('keeps the homography that gathered the count', () => {
    const rnd = mulberry32(11);
    for (let k = 0; k < 60; k++) {
      const { src, dst } = correspondences(2000 + k, 6 + Math.floor(rnd() * 80), Math.floor(rnd() * 80), rnd() * 6);
      const fit = quickFit({ src, dst });
      expect(fit.inliers).toBe(plainCount(src, dst, RANSAC_PX, 1000, 0.995));
      expect(fit.H).not.toBeNull();
      expect(inlierTargets({ src, dst }, fit.H as number[]).length / 2, `case ${k}`).toBe(fit.inliers);
    }
    expect(quickFit(correspondences(5, 5, 0, 0)).H).toBeNull();
  });

  it('keeps fewer than six correspondences out, and answers at once for fewer than four', () => {
    const { src, dst } = correspondences(5, 5, 0, 0);
    expect(quickFit({ src, dst }).inliers).toBe(0);
    // four distinct correspondences cannot be drawn from three: the count is 0, not a loop without end
    const three = correspondences(6, 3, 0, 0);
    expect(ransacCount(three.src, three.dst, RANSAC_PX, 1000, 0.995)).toBe(0);
  });

  it('runs the kernel assembled from its text', async () => {
    const bytes = await assembleKernel('ransac');
    expect(Buffer.from(RANSAC_WASM, 'base64').equals(Buffer.from(bytes)), 'run npm run wasm').toBe(true);
    expect(kernelModuleSource('ransac', bytes)).toContain(RANSAC_WASM);
  });
});
