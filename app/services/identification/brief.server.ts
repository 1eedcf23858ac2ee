// ORB's pyramid levels and descriptors (`brief.wat`), byte for byte OpenCV's. Each level is the one
// before it resized by 1 / 1.2 (`orbShrink`: OpenCV's bit-exact linear resize, which took 11.6 ms of a
// 1024 px photo's seven smaller levels without SIMD, 2.8 here). OpenCV's ORB finds a level's keypoints,
// then smooths the whole level (7 x 7 Gaussian, sigma 2) and compares 256 pairs of pixels of a pattern
// turned by each keypoint's angle. Its build for WebAssembly has no SIMD, and the smoothing was about
// half of ORB's time on a photo (OpenCV's `detect` 16 ms, `detectAndCompute` 41 ms, for a 1024 px photo's
// four largest levels); here the keypoints still come from OpenCV's `detect` and the descriptors from
// the kernel.
//
// The pattern is OpenCV's own, read from it once a thread: `compute` describes keypoints of angle 0 on
// two probe images, each keypoint beside one bright (or dark) pixel at its own offset from it; a pair's
// bit is set where the bright pixel sits at or near its second point (the dark one at or near its first),
// and the pair is the one pair of points that explains every probe's bit. The pattern found is then
// checked against OpenCV on a noise image with keypoints at every angle; should it ever differ (another
// OpenCV build), `orbDescriptors` answers null and the caller keeps OpenCV's own descriptors.
import { mulberry32 } from "~/utils/random";
import { BRIEF_WASM } from "./brief-wasm";
import type { CV, Feature2DCalls } from "./opencv.server";
import { threadKernel } from "./wasm.server";

interface BriefExports {
  smooth(src: number, dst: number, ring: number, line: number, w: number, h: number, t0: number, t1: number, t2: number, t3: number): void;
  describe(img: number, w: number, kps: number, n: number, pattern: number, out: number): void;
  shrink(src: number, w: number, h: number, dst: number, W: number, H: number, xwin: number, xsel: number, xtaps: number, yofs: number, ytaps: number, rows: number): void;
}

const briefKernel = threadKernel<BriefExports>(BRIEF_WASM, 16);

/**
 * OpenCV's float taps of a 7-tap Gaussian of sigma 2 (`getGaussianKernel`): exp(-x^2 / 8) for
 * x = -3..3, divided by their sum, in doubles, then made single floats. The first four (the others mirror them).
 */
export const ORB_TAPS: readonly number[] = (() => {
  const side = [-6, -4, -2].map((x) => Math.exp(x * x * (-0.125 / 4))); // x = 2i - 6: OpenCV's loop
  const sum = 2 * (side[0] + side[1] + side[2]) + 1;
  return [side[0] / sum, side[1] / sum, side[2] / sum, 1 / sum].map(Math.fround);
})();

const align = (v: number) => (v + 15) & ~15;

interface Layout {
  srcAt: number;
  dstAt: number;
  ringAt: number;
  lineAt: number;
  end: number;
}

function layout(w: number, h: number): Layout {
  const w4 = (w + 3) & ~3;
  const srcAt = 0;
  const dstAt = align(srcAt + w * h + 16);
  const ringAt = align(dstAt + w * h + 16);
  const lineAt = align(ringAt + 8 * w4 * 4);
  return { srcAt, dstAt, ringAt, lineAt, end: align(lineAt + (w4 + 24) * 4) };
}

/** Smooths the image in the kernel's memory; returns where the smoothed image lies and where free memory starts. */
function smoothInKernel(gray: Uint8Array, w: number, h: number, extra: number) {
  const at = layout(w, h);
  const k = briefKernel(at.end + extra);
  new Uint8Array(k.memory.buffer).set(gray.subarray(0, w * h), at.srcAt);
  const [t0, t1, t2, t3] = ORB_TAPS;
  k.exports.smooth(at.srcAt, at.dstAt, at.ringAt, at.lineAt, w, h, t0, t1, t2, t3);
  return { k, at };
}

/** The w x h image (w, h >= 4) smoothed as ORB smooths a level before describing its keypoints. */
export function orbSmooth(gray: Uint8Array, w: number, h: number): Uint8Array {
  const { k, at } = smoothInKernel(gray, w, h, 0);
  return new Uint8Array(k.memory.buffer).slice(at.dstAt, at.dstAt + w * h);
}

export interface Keypoint {
  x: number;
  y: number;
  /** degrees, as OpenCV's KeyPoint holds it */
  angle: number;
}

/** OpenCV's cvRound (of a float, or of a softdouble): to the nearest integer, halves to even. */
export function cvRound(v: number): number {
  return v - Math.floor(v) === 0.5 ? 2 * Math.round(v / 2) : Math.round(v);
}

const DEGREE = Math.fround(Math.PI / 180);
const PATTERN_BYTES = 128 * 32;

/** The pattern as the kernel reads it: 128 groups of four x then four y (floats), pairs in lanes 0-1 and 2-3. */
function patternLanes(pattern: Int8Array): Float32Array {
  const lanes = new Float32Array(PATTERN_BYTES / 4);
  for (let g = 0; g < 128; g++)
    for (let l = 0; l < 4; l++) {
      const point = g * 4 + l; // bit 2g + (l >> 1), first (l even) or second point of its pair
      lanes[g * 8 + l] = pattern[point * 2];
      lanes[g * 8 + 4 + l] = pattern[point * 2 + 1];
    }
  return lanes;
}

/**
 * The 32-byte descriptors of the keypoints on the w x h image as OpenCV's ORB computes them on a level,
 * with the 256 pairs of `pattern` (x1, y1, x2, y2 each). Keypoints lie at least 31 pixels inside the
 * image, as ORB finds them.
 */
export function describeWith(pattern: Int8Array, gray: Uint8Array, w: number, h: number, kps: readonly Keypoint[]): Uint8Array {
  const n = kps.length;
  const base = layout(w, h).end;
  const kpsAt = base, patternAt = align(kpsAt + n * 16), outAt = patternAt + PATTERN_BYTES;
  const { k, at } = smoothInKernel(gray, w, h, outAt - base + n * 32);
  const ints = new Int32Array(k.memory.buffer, kpsAt, n * 4);
  const floats = new Float32Array(k.memory.buffer, kpsAt, n * 4);
  for (let i = 0; i < n; i++) {
    const angle = Math.fround(kps[i].angle * DEGREE);
    ints[i * 4] = cvRound(kps[i].y) * w + cvRound(kps[i].x);
    floats[i * 4 + 1] = Math.cos(angle);
    floats[i * 4 + 2] = Math.sin(angle);
  }
  new Float32Array(k.memory.buffer, patternAt, PATTERN_BYTES / 4).set(lanesOf(pattern));
  k.exports.describe(at.dstAt, w, kpsAt, n, patternAt, outAt);
  return new Uint8Array(k.memory.buffer).slice(outAt, outAt + n * 32);
}

const lanesCache = new WeakMap<Int8Array, Float32Array>();
function lanesOf(pattern: Int8Array): Float32Array {
  let lanes = lanesCache.get(pattern);
  if (!lanes) lanesCache.set(pattern, (lanes = patternLanes(pattern)));
  return lanes;
}

/**
 * OpenCV's bit-exact linear taps from `size` pixels to `to` (`interpolationLinear`): output pixel d
 * lies at f = (d + 0.5) size / to - 0.5, between pixels o = floor(f) and o + 1, the second weighted
 * round((f - o) 256) / 256. Outside the source it is the end pixel: here the pair at that end with the
 * whole weight on it.
 */
function linearTaps(size: number, to: number): { ofs: Int32Array; m0: Int32Array; m1: Int32Array } {
  const scale = 1 / (to / size);
  const ofs = new Int32Array(to), m0 = new Int32Array(to), m1 = new Int32Array(to);
  let tail = to; // from here on, the last pixel
  for (let d = 0; d < to; d++) {
    const f = scale * (d + 0.5) - 0.5;
    const o = Math.floor(f);
    if (o < 0) [ofs[d], m0[d], m1[d]] = [0, 256, 0];
    else if (o >= size - 1) tail = Math.min(tail, d);
    else {
      const t = Math.max(0, cvRound((f - o) * 256));
      [ofs[d], m0[d], m1[d]] = [o, 256 - t, t];
    }
  }
  for (let d = tail; d < to; d++) [ofs[d], m0[d], m1[d]] = [size - 2, 0, 256];
  return { ofs, m0, m1 };
}

/**
 * The w x h image resized to W x H, byte for byte OpenCV's `resize` with INTER_LINEAR_EXACT, or null
 * when a group of eight output pixels would read beyond a 16-byte window (images shrunk by 16 / 9 or
 * more, or smaller than 2 x 2): ORB's pyramid shrinks by 1.2 a level.
 */
export function orbShrink(gray: Uint8Array, w: number, h: number, W: number, H: number): Uint8Array | null {
  if (w < 2 || h < 2 || W < 1 || H < 1) return null;
  const W8 = (W + 7) & ~7, groups = W8 >> 3;
  const x = linearTaps(w, W), y = linearTaps(h, H);
  const srcAt = 0;
  const dstAt = align(srcAt + w * h + 16);
  const xwinAt = align(dstAt + W * H + 16);
  const xselAt = align(xwinAt + groups * 4);
  const xtapsAt = xselAt + groups * 32;
  const yofsAt = xtapsAt + groups * 32;
  const ytapsAt = align(yofsAt + H * 4);
  const rowsAt = align(ytapsAt + H * 8);
  const k = briefKernel(rowsAt + h * W8 * 2 + 16);
  const win = new Int32Array(k.memory.buffer, xwinAt, groups);
  const sel = new Uint8Array(k.memory.buffer, xselAt, groups * 32);
  const taps = new Uint16Array(k.memory.buffer, xtapsAt, groups * 16);
  for (let g = 0; g < groups; g++) {
    const first = x.ofs[Math.min(g * 8, W - 1)];
    win[g] = Math.min(first, Math.max(0, w - 16)); // a window inside the row when the row allows it
    for (let l = 0; l < 8; l++) {
      const d = Math.min(g * 8 + l, W - 1); // lanes past the last pixel repeat it
      const a = x.ofs[d] - win[g];
      if (a < 0 || a + 1 > 15) return null;
      sel[g * 32 + l] = a;
      sel[g * 32 + 16 + l] = a + 1;
      taps[g * 16 + l] = x.m0[d];
      taps[g * 16 + 8 + l] = x.m1[d];
    }
    for (let l = 8; l < 16; l++) sel[g * 32 + l] = sel[g * 32 + 16 + l] = 0x80; // unused lanes: 0
  }
  new Int32Array(k.memory.buffer, yofsAt, H).set(y.ofs);
  const ytaps = new Int32Array(k.memory.buffer, ytapsAt, H * 2);
  for (let d = 0; d < H; d++) [ytaps[d * 2], ytaps[d * 2 + 1]] = [y.m0[d], y.m1[d]];
  new Uint8Array(k.memory.buffer).set(gray.subarray(0, w * h), srcAt);
  k.exports.shrink(srcAt, w, h, dstAt, W, H, xwinAt, xselAt, xtapsAt, yofsAt, ytapsAt, rowsAt);
  return new Uint8Array(k.memory.buffer).slice(dstAt, dstAt + W * H);
}

/** ORB's parameters for a one-level ORB as the engine makes it (edge and patch 31, two points a bit). */
function probeOrb(cv: CV) {
  return new cv.ORB(10, 1.2, 1, 31, 0, 2, cv.ORB_HARRIS_SCORE, 31, 10);
}

/** OpenCV's own descriptors of the given keypoints on a one-level image (ORB's `compute`); throws if it drops one. */
export function openCvDescriptors(cv: CV, gray: Uint8Array, w: number, h: number, kps: readonly Keypoint[]): Uint8Array {
  const mat = new cv.Mat(h, w, cv.CV_8UC1);
  const vec = new cv.KeyPointVector();
  const desc = new cv.Mat();
  const orb = probeOrb(cv);
  try {
    mat.data.set(gray);
    for (const kp of kps) vec.push_back({ pt: { x: kp.x, y: kp.y }, size: 31, angle: kp.angle, response: 0, octave: 0, class_id: -1 });
    (orb as unknown as Feature2DCalls).compute(mat, vec, desc);
    if (desc.rows !== kps.length) throw new Error("ORB dropped a probe keypoint");
    return new Uint8Array(desc.data);
  } finally {
    mat.delete();
    vec.delete();
    desc.delete();
    orb.delete();
  }
}

/** The pattern's reach: its points lie within 13 pixels of the keypoint on each axis. */
const REACH = 13;
/** How far a single pixel's smoothing reaches (the kernel's radius). */
const SPREAD = 3;

/** Reads OpenCV's pattern with two probe images; null when no single pattern explains them. */
function readPattern(cv: CV): Int8Array | null {
  const N = 2 * REACH + 1, cell = 2 * (REACH + SPREAD) + 2, margin = 40;
  const side = N * cell + 2 * margin;
  const kps: Keypoint[] = [];
  for (let j = 0; j < N; j++) for (let i = 0; i < N; i++) kps.push({ x: margin + i * cell + cell / 2, y: margin + j * cell + cell / 2, angle: 0 });
  // bit b of offset q's keypoint, on the bright (0) and dark (1) probe
  const bits: Uint8Array[] = [0, 255].map((ground) => {
    const img = new Uint8Array(side * side).fill(ground);
    kps.forEach((kp, q) => (img[(kp.y + Math.floor(q / N) - REACH) * side + kp.x + (q % N) - REACH] = 255 - ground));
    return openCvDescriptors(cv, img, side, side, kps);
  });
  // a bright (dark) pixel smoothed: its value at each offset from it, by the kernel itself
  // (on an image wide enough that no mirrored copy of the pixel reaches its middle)
  const S = 4 * SPREAD + 1, mid = 2 * SPREAD;
  const spot = (ground: number) => {
    const img = new Uint8Array(S * S).fill(ground);
    img[mid * S + mid] = 255 - ground;
    return orbSmooth(img, S, S);
  };
  const bright = spot(0), dark = spot(255);
  const near = (dx: number, dy: number) => Math.abs(dx) <= SPREAD && Math.abs(dy) <= SPREAD;
  const at = (img: Uint8Array, ground: number, dx: number, dy: number) => (near(dx, dy) ? img[(dy + mid) * S + dx + mid] : ground);
  const pattern = new Int8Array(1024);
  for (let b = 0; b < 256; b++) {
    const set = (probe: number) => {
      const out: number[] = [];
      for (let q = 0; q < N * N; q++) if ((bits[probe][q * 32 + (b >> 3)] >> (b & 7)) & 1) out.push(q);
      return out;
    };
    const onBright = set(0), onDark = set(1);
    const hitB = new Set(onBright), hitD = new Set(onDark);
    const xy = (q: number) => [(q % N) - REACH, Math.floor(q / N) - REACH];
    // a point is within the smoothing's reach of every offset that set the bit
    const around = (hits: number[]) =>
      hits.filter((p) => hits.every((q) => near(xy(p)[0] - xy(q)[0], xy(p)[1] - xy(q)[1])));
    const explains = (p1: number, p2: number) => {
      const [x1, y1] = xy(p1), [x2, y2] = xy(p2);
      for (let q = 0; q < N * N; q++) {
        const [qx, qy] = xy(q);
        if (at(bright, 0, x1 - qx, y1 - qy) < at(bright, 0, x2 - qx, y2 - qy) !== hitB.has(q)) return false;
        if (at(dark, 255, x1 - qx, y1 - qy) < at(dark, 255, x2 - qx, y2 - qy) !== hitD.has(q)) return false;
      }
      return true;
    };
    const found: number[][] = [];
    if (onBright.length === 0 && onDark.length === 0) found.push([0, 0, 0, 0]); // a pair of one point: never set
    else for (const p2 of around(onBright)) for (const p1 of around(onDark)) if (explains(p1, p2)) found.push([...xy(p1), ...xy(p2)]);
    if (found.length !== 1) return null;
    pattern.set(found[0], b * 4);
  }
  return pattern;
}

/** A check of a pattern against OpenCV: keypoints at every angle on a noise image. */
function agreesWithOpenCv(cv: CV, pattern: Int8Array): boolean {
  const w = 160, h = 120;
  const next = mulberry32(0x9e3779b9);
  const img = new Uint8Array(w * h);
  for (let i = 0; i < img.length; i++) img[i] = Math.floor(next() * 256);
  const kps: Keypoint[] = [];
  for (let i = 0; i < 96; i++) kps.push({ x: 31 + next() * (w - 63), y: 31 + next() * (h - 63), angle: Math.fround(next() * 360) });
  const ours = describeWith(pattern, img, w, h, kps);
  const theirs = openCvDescriptors(cv, img, w, h, kps);
  return ours.every((v, i) => v === theirs[i]);
}

let pattern: Int8Array | null | undefined;

/** OpenCV's pattern, read once a thread (null: it could not be read, or the descriptors would differ). */
export function orbPattern(cv: CV): Int8Array | null {
  if (pattern === undefined) {
    const read = readPattern(cv);
    pattern = read && agreesWithOpenCv(cv, read) ? read : null;
  }
  return pattern;
}

/**
 * OpenCV ORB's descriptors of keypoints found by ORB (`detect`, one level) on the w x h image, or null
 * when the pattern could not be read (then OpenCV's own are to be used).
 */
export function orbDescriptors(cv: CV, gray: Uint8Array, w: number, h: number, kps: readonly Keypoint[]): Uint8Array | null {
  const p = orbPattern(cv);
  return p ? describeWith(p, gray, w, h, kps) : null;
}
