// Geometry shared by the matcher (engine.server.ts) and the detail check, which may run in a worker
// thread with its own OpenCV (detail-worker.server.ts): helpers that take only plain arrays.
import type { CV } from "./opencv.server";

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

/** Tentative correspondences (photo point -> reference point) that the pin's homography H leaves out. */
export interface Leftover {
  src: number[];
  dst: number[];
}

/**
 * The correspondences of `pairs` (photo index, reference index) that do not fit H: where a part that
 * has moved since the reference was taken (a spinner's disc, a swung dangler) may show a motion of its own.
 */
export function leftoverPairs(pairs: number[], qPts: Float32Array, refPts: Float32Array, H: number[]): Leftover {
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
  { src, dst }: Leftover,
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
