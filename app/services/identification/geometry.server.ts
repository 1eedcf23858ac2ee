// Geometry shared by the matcher (engine.server.ts) and the detail check, either of which may run in a
// worker thread with its own OpenCV (detail-worker.server.ts): helpers that take only plain arrays.
import { mulberry32Step, mulberry32Value } from "~/utils/random";
import type { CV } from "./opencv.server";
import { ratioMatches } from "./vocab.server";

/** RANSAC reprojection threshold of the pin's homography (query pixels at QUERY_SIDE). */
export const RANSAC_PX = 8;
const SECONDARY_MIN_INLIERS = 10;

/** A 2x3 affine matrix from OpenCV as a 3x3 homography (last row 0 0 1). */
export function affineAsHomography(A: InstanceType<CV["Mat"]>): number[] {
  const a = Array.from(A.data64F as Float64Array);
  return [a[0], a[1], a[2], a[3], a[4], a[5], 0, 0, 1];
}

/** Not mirrored, not collapsed, not wildly foreshortened. */
export function plausibleHomography(h: number[]): boolean {
  const det = h[0] * h[4] - h[1] * h[3];
  return det > 1e-4 && det < 1e4 && Math.abs(h[6]) <= 0.01 && Math.abs(h[7]) <= 0.01;
}

/**
 * Whether every pixel of a W x H frame comes from inside a qW x qH photo under H (photo -> frame), a
 * pixel away from its edge: the frame's corners, taken back into the photo, lie inside it, and on one
 * side of the horizon (the image of a rectangle is then the convex quadrilateral of its corners').
 * A nearest-neighbour warp of the photo's area onto the frame (OpenCV's warpPerspective of a plane of
 * 255s) is then 255 everywhere and need not be made.
 */
export function frameInsidePhoto(H: number[], W: number, Hh: number, qW: number, qH: number): boolean {
  const [a, b, c, d, e, f, g, h, k] = invert3(H);
  let sign = 0;
  for (const [x, y] of [[0, 0], [W - 1, 0], [0, Hh - 1], [W - 1, Hh - 1]]) {
    const w = g * x + h * y + k;
    if (!(Math.abs(w) > 1e-12) || (sign && Math.sign(w) !== sign)) return false;
    sign = Math.sign(w);
    const px = (a * x + b * y + c) / w, py = (d * x + e * y + f) / w;
    if (!(px >= 1 && py >= 1 && px <= qW - 2 && py <= qH - 2)) return false;
  }
  return true;
}

/** The inverse of a 3 x 3 matrix (row by row); not finite when it is singular. */
export function invert3(m: number[]): number[] {
  const [a, b, c, d, e, f, g, h, i] = m;
  const A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g;
  const det = a * A + b * B + c * C;
  const k = 1 / det;
  return [A * k, -(b * i - c * h) * k, (b * f - c * e) * k, B * k, (a * i - c * g) * k, -(a * f - c * d) * k, C * k, -(a * h - b * g) * k, (a * e - b * d) * k];
}

/** Tentative correspondences of a candidate (photo point -> reference point, x and y after each other). */
export interface Correspondences {
  src: number[];
  dst: number[];
}

/**
 * The correspondences of `pairs` (photo index, reference index) that do not fit H: where a part that
 * has moved since the reference was taken (a spinner's disc, a swung dangler) may show a motion of its own.
 */
export function leftoverPairs(pairs: number[], qPts: Float32Array, refPts: Float32Array, H: number[]): Correspondences {
  const src: number[] = [];
  const dst: number[] = [];
  for (let k = 0; k < pairs.length; k += 2) {
    const j = pairs[k], i = pairs[k + 1];
    const x = qPts[j * 2], y = qPts[j * 2 + 1];
    const w = H[6] * x + H[7] * y + H[8];
    const px = (H[0] * x + H[1] * y + H[2]) / w, py = (H[3] * x + H[4] * y + H[5]) / w;
    const rx = refPts[i * 2], ry = refPts[i * 2 + 1];
    if ((px - rx) ** 2 + (py - ry) ** 2 <= RANSAC_PX * RANSAC_PX) continue;
    src.push(x, y);
    dst.push(rx, ry);
  }
  return { src, dst };
}

/**
 * A second motion (affine) among the correspondences that do not fit the pin's homography H: the part
 * of a spinner or dangler that has moved since the reference was taken. It must keep about the pin's
 * own scale (a moving part turns and shifts, it does not grow).
 */
export function secondaryMotion(
  cv: CV,
  { src, dst }: Correspondences,
  H: number[],
): { H: number[]; region: [number, number, number, number] } | null {
  const m = src.length / 2;
  if (m < SECONDARY_MIN_INLIERS) return null;
  const srcMat = cv.matFromArray(m, 1, cv.CV_32FC2, src);
  const dstMat = cv.matFromArray(m, 1, cv.CV_32FC2, dst);
  const mask = new cv.Mat();
  let A: InstanceType<CV["Mat"]> | null = null;
  try {
    A = cv.estimateAffine2D(srcMat, dstMat, mask, cv.RANSAC, RANSAC_PX / 2, 2000, 0.995, 10);
    if (!A || A.rows !== 2) return null;
    // the moving part is where its correspondences are (in the reference frame)
    let inl = 0, x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (let i = 0; i < m; i++)
      if (mask.data[i]) {
        inl++;
        x0 = Math.min(x0, dst[i * 2]);
        y0 = Math.min(y0, dst[i * 2 + 1]);
        x1 = Math.max(x1, dst[i * 2]);
        y1 = Math.max(y1, dst[i * 2 + 1]);
      }
    if (inl < SECONDARY_MIN_INLIERS) return null;
    const h = affineAsHomography(A);
    const scale = Math.abs(h[0] * h[4] - h[1] * h[3]) / Math.abs(H[0] * H[4] - H[1] * H[3]);
    return plausibleHomography(h) && scale > 0.6 && scale < 1.6 ? { H: h, region: [x0, y0, x1, y1] } : null;
  } finally {
    srcMat.delete();
    dstMat.delete();
    mask.delete();
    A?.delete();
  }
}

/** The pin's homography photo -> reference (null when none is plausible) and which correspondences fit it. */
export interface PinFit {
  H: number[] | null;
  mask: Uint8Array;
}

/**
 * OpenCV's USAC_ACCURATE estimator: its RANSAC draws with graph-cut local optimisation of the best
 * model (GC-RANSAC). Plain RANSAC stops as soon as a model explains a high share of the points and
 * refines it on all of them, 8 px apart: with many inliers its homography could be a few pixels off
 * at one side of the pin, which the colour, detail and letter checks then saw as a difference. On the
 * public set, over four catalogue orders, top-1 rose 1.8 points in every order ("Figures").
 * (The opencv.js typings predate the USAC constants, which the build has.)
 */
const usacAccurate = (cv: CV): number => (cv as unknown as { USAC_ACCURATE: number }).USAC_ACCURATE;

/**
 * OpenCV's homography through tentative correspondences (photo point -> reference point), by USAC.
 * A degenerate or mirrored homography (RANSAC latched onto points along an arc of lettering, a
 * spinner's ring...) is replaced by an affine fit: phone photos of a flat pin are close to affine, and
 * the affine model cannot fold the pin over. OpenCV's estimators seed their own random numbers at each
 * call, so a fit is the same on any thread.
 */
export function fitPinHomography(cv: CV, { src, dst }: Correspondences): PinFit {
  const m = src.length / 2;
  if (m < 6) return { H: null, mask: new Uint8Array(m) };
  const srcMat = cv.matFromArray(m, 1, cv.CV_32FC2, src);
  const dstMat = cv.matFromArray(m, 1, cv.CV_32FC2, dst);
  const mask = new cv.Mat();
  let H: InstanceType<CV["Mat"]> | null = null;
  try {
    H = cv.findHomography(srcMat, dstMat, usacAccurate(cv), RANSAC_PX, mask, 1000, 0.995);
    let h = H && H.rows === 3 ? Array.from(H.data64F as Float64Array) : null;
    if (!h || !plausibleHomography(h)) {
      h = null;
      const A = cv.estimateAffine2D(srcMat, dstMat, mask, cv.RANSAC, RANSAC_PX, 2000, 0.995, 10);
      try {
        if (A && A.rows === 2 && A.cols === 3) {
          const affine = affineAsHomography(A);
          if (plausibleHomography(affine)) h = affine;
        }
      } finally {
        A?.delete();
      }
    }
    return { H: h, mask: h ? new Uint8Array(mask.data.subarray(0, m)) : new Uint8Array(m) };
  } finally {
    srcMat.delete();
    dstMat.delete();
    mask.delete();
    H?.delete();
  }
}

/** Inlier count of a quick RANSAC homography fit in plain JS (no model is kept). */
export function quickInliers({ src, dst }: Correspondences, maxIters = 1000): number {
  if (src.length / 2 < 6) return 0;
  const mask = ransacHomography(src, dst, RANSAC_PX, maxIters, 0.995);
  let n = 0;
  for (let i = 0; i < mask.length; i++) n += mask[i];
  return n;
}

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

/**
 * RANSAC for a homography src -> dst, following OpenCV's estimator: random 4-point samples whose triangles
 * keep their orientation, inliers within `px` pixels, iteration count adapted to the best inlier ratio so
 * far (at most maxIters). Deterministic (fixed seed) so that a photo always gets the same answer.
 * Returns the inlier mask of the best model.
 */
function ransacHomography(src: number[], dst: number[], px: number, maxIters: number, confidence: number): Uint8Array {
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
  return best;
}

/** Two references' own ORB features (points x, y after each other; descriptors 8 words each). */
export interface ReferencePair {
  pointsA: Float32Array;
  descA: Uint32Array;
  pointsB: Float32Array;
  descB: Uint32Array;
  /** the descriptor matching's thresholds (absolute Hamming distance, nearest / second-nearest ratio) */
  acceptHamming: number;
  ratio: number;
}

/** Inliers of the homography between two references that share a template. */
const PAIR_MIN_INLIERS = 20;

/**
 * The homography reference B -> reference A (reference pixels) from their own features, when the two
 * share a template (look-alikes: another team name, year or colour of one design), else null.
 * OpenCV's RANSAC seeds its random numbers at each call: the same result on either thread.
 */
export function referencePairHomography(cv: CV, p: ReferencePair): number[] | null {
  const pairs = ratioMatches(p.descB, p.descA, p.acceptHamming, p.ratio);
  // fewer correspondences than the inliers asked for below cannot make a look-alike: RANSAC's 1,000
  // iterations (about 16 ms when the two do not share a template) are spared
  if (pairs.length / 2 < PAIR_MIN_INLIERS) return null;
  const src: number[] = [], dst: number[] = [];
  for (let k = 0; k < pairs.length; k += 2) {
    src.push(p.pointsB[pairs[k] * 2], p.pointsB[pairs[k] * 2 + 1]);
    dst.push(p.pointsA[pairs[k + 1] * 2], p.pointsA[pairs[k + 1] * 2 + 1]);
  }
  const m = src.length / 2;
  const sm = cv.matFromArray(m, 1, cv.CV_32FC2, src);
  const dm = cv.matFromArray(m, 1, cv.CV_32FC2, dst);
  const mask = new cv.Mat();
  let H: InstanceType<CV["Mat"]> | null = null;
  try {
    H = cv.findHomography(sm, dm, cv.RANSAC, 3, mask, 1000, 0.995);
    if (!H || H.rows !== 3) return null;
    let inl = 0;
    for (let i = 0; i < m; i++) if (mask.data[i]) inl++;
    if (inl < PAIR_MIN_INLIERS) return null;
    return Array.from(H.data64F as Float64Array);
  } finally {
    sm.delete();
    dm.delete();
    mask.delete();
    H?.delete();
  }
}
