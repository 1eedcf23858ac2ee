// The quick RANSAC inlier count (`ransac.wat`): the count the plain JavaScript RANSAC it replaced found,
// to the last inlier (a unit test holds the two together). It counts the 32 most-voted images of every
// photo, half on each thread, on the path of every answer: 14.4 ms of a photo's match at the median on
// the public set in JavaScript, 5.8 ms in WebAssembly (engine alone, with the worker).
import { RANSAC_WASM } from "./ransac-wasm";
import { threadKernel } from "./wasm.server";

interface RansacExports {
  count(x: number, y: number, u: number, v: number, m: number, work: number, maxIters: number, thr: number, logMiss: number): number;
}

/**
 * Scratch of the kernel: a sample's 4 indices, the 8 x 9 system, the homography and the best one
 * (16 + 576 + 72 + 72 bytes), rounded up to 16 for the coordinates after it.
 */
const WORK_BYTES = 752;
const BEST_AT = 672;

/** The thread's instance, given JavaScript's own pow and log, for the adaptive stop's iteration count. */
const ransacKernel = threadKernel<RansacExports>(RANSAC_WASM, 1, { pow: Math.pow, log: Math.log });

/**
 * The most inliers (within `px` pixels) of the homographies through samples of 4 of the correspondences
 * src[k] -> dst[k] (x, y after each other), drawn by mulberry32 seeded 0x5eed, at most `maxIters` of them,
 * fewer once one has enough inliers to have been drawn with `confidence`.
 */
export function ransacCount(src: ArrayLike<number>, dst: ArrayLike<number>, px: number, maxIters: number, confidence: number): number {
  return ransacFit(src, dst, px, maxIters, confidence).count;
}

/** `ransacCount`'s count with the homography of the sample that gathered it (row-major, h33 = 1; null when none did). */
export function ransacFit(src: ArrayLike<number>, dst: ArrayLike<number>, px: number, maxIters: number, confidence: number): { count: number; H: number[] | null } {
  const m = src.length / 2;
  if (m < 4) return { count: 0, H: null }; // no sample of 4 distinct correspondences to draw
  // four arrays of m + 1 doubles (the kernel reads two at a time), each 16 bytes aligned
  const stride = ((m + 1) * 8 + 15) & ~15;
  const { memory, exports } = ransacKernel(WORK_BYTES + 4 * stride);
  const heap = new Float64Array(memory.buffer, WORK_BYTES, (4 * stride) / 8);
  const s = stride / 8;
  for (let k = 0; k < m; k++) {
    heap[k] = src[k * 2];
    heap[s + k] = src[k * 2 + 1];
    heap[2 * s + k] = dst[k * 2];
    heap[3 * s + k] = dst[k * 2 + 1];
  }
  const at = WORK_BYTES;
  const count = exports.count(at, at + stride, at + 2 * stride, at + 3 * stride, m, 0, maxIters, px * px, Math.log(1 - confidence));
  return { count, H: count > 0 ? Array.from(new Float64Array(memory.buffer, BEST_AT, 9)) : null };
}
