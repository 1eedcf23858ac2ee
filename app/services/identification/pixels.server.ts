// Pixel kernels of the engine (`pixels.wat`), in WebAssembly SIMD, byte for byte the code they replace:
// - the grayscale of an RGB image (`grayscale`): 2.5 ms in JavaScript for a 1024 x 768 photo, 1.0 ms
//   here, on the way from its decode to its features;
// - the Gaussian blurs (`gaussianBlur`), OpenCV's GaussianBlur of an 8-bit image. OpenCV's build for
//   WebAssembly has no SIMD: its blur was about 40% of a detail check (4 ms at sigma 1, 15 ms at sigma 4
//   on a 512 px reference) and a quarter of the colour check; the same integers eight lanes at a time
//   take a fifth to a seventh of that;
// - the enlargement of a photo or reference smaller than the engine's frame (`enlargeRGB`), libvips'
//   bicubic enlargement as sharp makes it, in a few milliseconds of this thread where libvips took
//   about 22 ms of a photo's decode (on two threads) and 8 of a reference's 11.
import { PIXELS_WASM } from "./pixels-wasm";
import type { CV } from "./opencv.server";
import { threadKernel } from "./wasm.server";

interface PixelExports {
  gray(src: number, dst: number, n: number): void;
  blur(src: number, dst: number, rows: number, line: number, taps: number, n: number, w: number, h: number, c: number, reflect: number): void;
  enlarge(src: number, colOff: number, colTaps: number, rowFirst: number, rowTaps: number, rowMap: number, ring: number, dst: number, W: number, H: number): void;
}

/** The thread's instance, in a memory of its own (shared: growing it detaches no buffer). */
const pixelKernel = threadKernel<PixelExports>(PIXELS_WASM, 16);

/** Pixels converted to grayscale per call of the kernel: a 1024 x 768 photo in 12 parts, 256 KB of its memory. */
const GRAY_PART = 1 << 16;

/** The grayscale of `n` RGB pixels: (77 R + 150 G + 29 B) >> 8. */
export function grayscale(rgb: Uint8Array, n: number): Uint8Array {
  const out = new Uint8Array(n);
  const dstAt = GRAY_PART * 3 + 48;
  const { memory, exports } = pixelKernel(dstAt + GRAY_PART + 16);
  const heap = new Uint8Array(memory.buffer);
  for (let from = 0; from < n; from += GRAY_PART) {
    const count = Math.min(GRAY_PART, n - from);
    heap.set(rgb.subarray(from * 3, (from + count) * 3), 0);
    exports.gray(0, dstAt, count);
    out.set(heap.subarray(dstAt, dstAt + count), from);
  }
  return out;
}

/** OpenCV's kernel size for an 8-bit image and a sigma (`createGaussianKernels`). */
function kernelSize(sigma: number): number {
  return Math.round(sigma * 3 * 2 + 1) | 1;
}

const tapsBySize = new Map<string, number[]>();

/**
 * OpenCV's fixed-point taps for a sigma and kernel size (integers summing to 256), read from its own
 * blur of a vertical line of 255s: a tap t comes back as round(255 t / 256), which is t itself for
 * t <= 128; the one tap that can be larger, the centre, is what the others leave of 256. The taps that
 * are 0 at the ends are dropped.
 */
export function gaussianTaps(cv: CV, sigma: number, n = kernelSize(sigma)): number[] {
  const key = `${sigma}/${n}`;
  let taps = tapsBySize.get(key);
  if (taps) return taps;
  const r = n >> 1;
  const W = 2 * n + 1, H = 3, centre = n;
  const src = new cv.Mat(H, W, cv.CV_8UC1, new cv.Scalar(0));
  const dst = new cv.Mat();
  try {
    for (let y = 0; y < H; y++) src.data[y * W + centre] = 255;
    cv.GaussianBlur(src, dst, new cv.Size(n, n), sigma, sigma, cv.BORDER_REPLICATE);
    const read: number[] = [];
    for (let i = -r; i <= r; i++) read.push(dst.data[W + centre + i]);
    read[r] += 256 - read.reduce((a, b) => a + b, 0);
    let from = 0;
    while (from < r && read[from] === 0) from++;
    taps = read.slice(from, n - from);
  } finally {
    src.delete();
    dst.delete();
  }
  tapsBySize.set(key, taps);
  return taps;
}

export interface BlurOptions {
  /** interleaved channels (1: grayscale, 3: RGB) */
  channels?: number;
  /** the kernel's size (OpenCV's for the sigma when left out) */
  size?: number;
  /** OpenCV's BORDER_REPLICATE (the default here) or BORDER_REFLECT_101 (OpenCV's own default) */
  border?: "replicate" | "reflect101";
}

/**
 * The W x H image blurred with a Gaussian of `sigma`: OpenCV's bytes (the image itself for a sigma of 0).
 * An image no larger than the kernel's radius, mirrored at its border, is left to OpenCV: its border would
 * be a mirror of a mirror (the engine's images are far larger).
 */
export function gaussianBlur(cv: CV, pixels: Uint8Array, W: number, H: number, sigma: number, opts: BlurOptions = {}): Uint8Array {
  if (sigma === 0) return pixels;
  const { channels = 1, size, border = "replicate" } = opts;
  const taps = gaussianTaps(cv, sigma, size);
  const n = taps.length;
  const reflect = border === "reflect101";
  if (reflect && Math.min(W, H) <= n >> 1) return openCvBlur(cv, pixels, W, H, sigma, channels, size ?? kernelSize(sigma));
  const bytes = W * H * channels;
  const align = (v: number) => (v + 15) & ~15;
  const tapsAt = 0;
  const srcAt = align(tapsAt + n * 16);
  const dstAt = align(srcAt + bytes + 16);
  const rowsAt = align(dstAt + bytes + 16);
  const lineAt = align(rowsAt + 2 * bytes + 32);
  const { memory, exports } = pixelKernel(lineAt + (W + n + 16) * channels + 16);
  const heap = new Uint8Array(memory.buffer);
  const lanes = new Int16Array(memory.buffer, tapsAt, n * 8);
  for (let i = 0; i < n; i++) lanes.fill(taps[i], i * 8, i * 8 + 8);
  heap.set(pixels.subarray(0, bytes), srcAt);
  exports.blur(srcAt, dstAt, rowsAt, lineAt, tapsAt, n, W, H, channels, reflect ? 1 : 0);
  return heap.slice(dstAt, dstAt + bytes);
}

function openCvBlur(cv: CV, pixels: Uint8Array, W: number, H: number, sigma: number, channels: number, size: number): Uint8Array {
  const src = new cv.Mat(H, W, channels === 3 ? cv.CV_8UC3 : channels === 4 ? cv.CV_8UC4 : cv.CV_8UC1);
  const dst = new cv.Mat();
  try {
    src.data.set(pixels.subarray(0, W * H * channels));
    cv.GaussianBlur(src, dst, new cv.Size(size, size), sigma, sigma, cv.BORDER_REFLECT_101);
    return new Uint8Array(dst.data);
  } finally {
    src.delete();
    dst.delete();
  }
}

/** libvips' subpixel positions (VIPS_TRANSFORM_SCALE) and fixed-point taps (VIPS_INTERPOLATE_SCALE). */
const SUBPIXELS = 64;
const TAP_ONE = 4096;

/**
 * libvips' bicubic (Catmull-Rom) taps for each 1/64th of a pixel, as its interpolator tabulates them:
 * computed in doubles from the position as a float, then truncated to 1/4096ths.
 */
const BICUBIC_TAPS: number[][] = Array.from({ length: SUBPIXELS + 1 }, (_, i) => {
  const x = Math.fround(i / SUBPIXELS);
  const cr1 = 1 - x, cr2 = -0.5 * x, cr3 = cr1 * cr2, cone = cr1 * cr3, cfou = x * cr3, cr4 = cfou - cone;
  return [cone, cr1 - cone + cr4, x - cfou - cr4, cfou].map((c) => Math.trunc(c * TAP_ONE));
});

/**
 * Where each output pixel's 4-pixel window starts (in source pixels, before the border is replicated)
 * and which taps it uses, along one axis: libvips' affine transform for sharp's enlargement by
 * 1 / shrink (vips_resize's input offset of half a pixel, its embedding of the source two pixels in,
 * and the position carried along a row by adding the inverse scale, as vips_affine_gen does).
 */
function windowPositions(count: number, shrink: number, alongRow: boolean): { first: Int32Array; taps: Int32Array } {
  const scale = 1.0 / shrink;
  const inverse = (1.0 / (scale * scale)) * scale;
  const first = new Int32Array(count), taps = new Int32Array(count);
  let along = 1.5; // 0 - (0.5 - 1) + 1: the first output pixel's position in the embedded source
  for (let i = 0; i < count; i++) {
    const at = alongRow ? along : inverse * i + 0.5 + 1; // in libvips' order of additions
    const sub = Math.trunc(at * SUBPIXELS * 2) & (SUBPIXELS * 2 - 1);
    taps[i] = (sub + 1) >> 1;
    first[i] = Math.trunc(at) - 3;
    along += inverse;
  }
  return { first, taps };
}

/** Border pixels replicated on each side of a source row for the windows at its ends. */
const ENLARGE_PAD = 3;

/**
 * An RGB image whose longest side is under `side`, enlarged to it: byte for byte sharp's
 * `resize({ width: side, height: side, fit: "inside" })` of it (libvips 8.18's bicubic affine
 * enlargement; a unit test compares them on photos and references).
 */
export function enlargeRGB(rgb: Uint8Array, w: number, h: number, side: number): { data: Uint8Array; width: number; height: number } {
  const shrink = Math.max(w, h) / side;
  // the output's size as vips_affine makes it: each side times the scale, rounded half up
  const scale = 1.0 / shrink;
  const W = Math.max(1, Math.trunc(scale * w + 0.5));
  const H = Math.max(1, Math.trunc(scale * h + 0.5));
  const cols = windowPositions(W, shrink, true);
  const rows = windowPositions(H, shrink, false);
  const rowBytes = (w + 2 * ENLARGE_PAD) * 3;
  const align = (v: number) => (v + 15) & ~15;
  const srcAt = 0;
  const colOffAt = align(srcAt + rowBytes * h + 16);
  const colTapsAt = align(colOffAt + W * 4);
  const rowFirstAt = align(colTapsAt + W * 16);
  const rowTapsAt = align(rowFirstAt + H * 4);
  const rowMapAt = align(rowTapsAt + H * 16);
  const ringAt = align(rowMapAt + (h + 2 * ENLARGE_PAD + 2) * 4);
  const dstAt = align(ringAt + 8 * W * 16 + 64);
  const { memory, exports } = pixelKernel(dstAt + W * H * 3 + 16);
  const heap = new Uint8Array(memory.buffer);
  // each source row between copies of its end pixels
  for (let y = 0; y < h; y++) {
    const from = y * w * 3, to = srcAt + y * rowBytes;
    heap.set(rgb.subarray(from, from + w * 3), to + ENLARGE_PAD * 3);
    for (let k = 0; k < ENLARGE_PAD; k++)
      for (let c = 0; c < 3; c++) {
        heap[to + k * 3 + c] = rgb[from + c];
        heap[to + (ENLARGE_PAD + w + k) * 3 + c] = rgb[from + (w - 1) * 3 + c];
      }
  }
  const colOff = new Int32Array(memory.buffer, colOffAt, W);
  const colTaps = new Int16Array(memory.buffer, colTapsAt, W * 8);
  for (let x = 0; x < W; x++) {
    colOff[x] = (cols.first[x] + ENLARGE_PAD) * 3;
    const t = BICUBIC_TAPS[cols.taps[x]];
    for (let j = 0; j < 8; j++) colTaps[x * 8 + j] = t[j & 3];
  }
  const rowFirst = new Int32Array(memory.buffer, rowFirstAt, H);
  const rowTaps = new Int32Array(memory.buffer, rowTapsAt, H * 4);
  for (let y = 0; y < H; y++) {
    rowFirst[y] = rows.first[y] + ENLARGE_PAD;
    rowTaps.set(BICUBIC_TAPS[rows.taps[y]], y * 4);
  }
  const rowMap = new Int32Array(memory.buffer, rowMapAt, h + 2 * ENLARGE_PAD + 2);
  for (let p = 0; p < rowMap.length; p++) rowMap[p] = srcAt + Math.min(Math.max(p - ENLARGE_PAD, 0), h - 1) * rowBytes;
  exports.enlarge(srcAt, colOffAt, colTapsAt, rowFirstAt, rowTapsAt, rowMapAt, ringAt, dstAt, W, H);
  return { data: heap.slice(dstAt, dstAt + W * H * 3), width: W, height: H };
}
