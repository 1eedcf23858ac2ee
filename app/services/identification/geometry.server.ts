// Geometry shared by the matcher (engine.server.ts) and the detail check, either of which may run in a
// worker thread with its own OpenCV (detail-worker.server.ts): helpers that take only plain arrays.
import type { CV } from "./opencv.server";
import { ransacFit } from "./ransac.server";
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
 * The corners of a W x Hh frame's pixels (their centres, from 0 to W - 1 and Hh - 1) taken back into
 * the source under H (source -> frame), or null when they do not all lie on one side of H's horizon.
 * When they do, every pixel of the frame comes from inside the convex quadrilateral of these four.
 */
export function frameCornersInSource(H: number[], W: number, Hh: number): [number, number][] | null {
  const [a, b, c, d, e, f, g, h, k] = invert3(H);
  const corners: [number, number][] = [];
  let sign = 0;
  for (const [x, y] of [[0, 0], [W - 1, 0], [0, Hh - 1], [W - 1, Hh - 1]]) {
    const w = g * x + h * y + k;
    if (!(Math.abs(w) > 1e-12) || (sign && Math.sign(w) !== sign)) return null;
    sign = Math.sign(w);
    corners.push([(a * x + b * y + c) / w, (d * x + e * y + f) / w]);
  }
  return corners;
}

/**
 * Whether every pixel of a W x H frame comes from inside a qW x qH photo under H (photo -> frame), a
 * pixel away from its edge: the frame's corners, taken back into the photo, lie inside it, and on one
 * side of the horizon (`frameCornersInSource`).
 * A nearest-neighbour warp of the photo's area onto the frame (OpenCV's warpPerspective of a plane of
 * 255s) is then 255 everywhere and need not be made.
 */
export function frameInsidePhoto(H: number[], W: number, Hh: number, qW: number, qH: number): boolean {
  const corners = frameCornersInSource(H, W, Hh);
  return !!corners && corners.every(([px, py]) => px >= 1 && py >= 1 && px <= qW - 2 && py <= qH - 2);
}

/** The point (x, y) under the homography H (3 x 3, row by row). */
export function projectPoint(H: number[], x: number, y: number): [number, number] {
  const w = H[6] * x + H[7] * y + H[8];
  return [(H[0] * x + H[1] * y + H[2]) / w, (H[3] * x + H[4] * y + H[5]) / w];
}

/** The product x y of two 3 x 3 matrices (row by row): y applied first. */
export function mul3(x: number[], y: number[]): number[] {
  const o = new Array<number>(9).fill(0);
  for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) for (let k = 0; k < 3; k++) o[r * 3 + c] += x[r * 3 + k] * y[k * 3 + c];
  return o;
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
 * public set, over four catalogue orders, top-1 rose 1.8 points in every order (the commit that made it).
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

/** A quick RANSAC fit: its inlier count and the homography of the sample that gathered them (null with none). */
export interface QuickFit {
  inliers: number;
  H: number[] | null;
}

/**
 * A quick RANSAC homography fit, following OpenCV's estimator: random 4-point samples whose triangles
 * keep their orientation, inliers within RANSAC_PX pixels, the iteration count adapted to the best
 * inlier ratio so far (at most maxIters). Deterministic (mulberry32, a fixed seed) so that a photo
 * always gets the same answer. In WebAssembly (ransac.server.ts).
 */
export function quickFit({ src, dst }: Correspondences, maxIters = 1000): QuickFit {
  if (src.length / 2 < 6) return { inliers: 0, H: null };
  const { count, H } = ransacFit(src, dst, RANSAC_PX, maxIters, 0.995);
  return { inliers: count, H };
}

/** Indices of the convex hull's corners of points (x, y after each other), counter-clockwise (monotone chain). */
export function convexHullOrder(pts: ArrayLike<number>): number[] {
  const n = pts.length / 2;
  const idx = Array.from({ length: n }, (_, k) => k).sort((a, b) => pts[a * 2] - pts[b * 2] || pts[a * 2 + 1] - pts[b * 2 + 1]);
  const cross = (o: number, a: number, b: number) =>
    (pts[a * 2] - pts[o * 2]) * (pts[b * 2 + 1] - pts[o * 2 + 1]) - (pts[a * 2 + 1] - pts[o * 2 + 1]) * (pts[b * 2] - pts[o * 2]);
  const chain = (order: number[]) => {
    const out: number[] = [];
    for (const k of order) {
      while (out.length >= 2 && cross(out[out.length - 2], out[out.length - 1], k) <= 0) out.pop();
      out.push(k);
    }
    return out.slice(0, -1);
  };
  return [...chain(idx), ...chain([...idx].reverse())];
}

/** Area of the convex hull of points (x, y after each other). */
export function hullArea(pts: ArrayLike<number>): number {
  if (pts.length / 2 < 3) return 0;
  const hull = convexHullOrder(pts);
  let area = 0;
  for (let k = 0; k < hull.length; k++) {
    const a = hull[k], b = hull[(k + 1) % hull.length];
    area += pts[a * 2] * pts[b * 2 + 1] - pts[b * 2] * pts[a * 2 + 1];
  }
  return Math.abs(area) / 2;
}

/** The reference points (dst) of the correspondences within RANSAC_PX of where H sends their photo points. */
export function inlierTargets({ src, dst }: Correspondences, H: number[]): number[] {
  const out: number[] = [];
  const thr = RANSAC_PX * RANSAC_PX;
  for (let k = 0; k < src.length; k += 2) {
    const x = src[k], y = src[k + 1];
    const w = 1 / (H[6] * x + H[7] * y + 1);
    const dx = (H[0] * x + H[1] * y + H[2]) * w - dst[k];
    const dy = (H[3] * x + H[4] * y + H[5]) * w - dst[k + 1];
    if (dx * dx + dy * dy <= thr) out.push(dst[k], dst[k + 1]);
  }
  return out;
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
