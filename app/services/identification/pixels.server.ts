// Pixel kernels of the engine (`pixels.wat`), in WebAssembly SIMD, byte for byte the code they replace:
// - the grayscale of an RGB image (`grayscale`): 2.5 ms in JavaScript for a 1024 x 768 photo, 1.0 ms
//   here, on the way from its decode to its features;
// - the Gaussian blurs (`gaussianBlur`), OpenCV's GaussianBlur of an 8-bit image. OpenCV's build for
//   WebAssembly has no SIMD: its blur was about 40% of a detail check (4 ms at sigma 1, 15 ms at sigma 4
//   on a 512 px reference) and a quarter of the colour check; the same integers eight lanes at a time
//   take a fifth to a seventh of that.
import { PIXELS_WASM } from "./pixels-wasm";
import type { CV } from "./opencv.server";
import { instantiate, kernelMemory, reserve } from "./wasm.server";

interface PixelExports {
  gray(src: number, dst: number, n: number): void;
  blur(src: number, dst: number, rows: number, line: number, taps: number, n: number, w: number, h: number, c: number, reflect: number): void;
}

let compiled: WebAssembly.Module | null = null;
let kernel: { memory: WebAssembly.Memory; exports: PixelExports } | null = null;

/**
 * The thread's instance, in a memory of its own (shared: growing it detaches no buffer), with at least
 * `bytes` of it: each call lays its data out from the first byte.
 */
function pixelKernel(bytes: number) {
  if (!kernel) {
    compiled ??= new WebAssembly.Module(Buffer.from(PIXELS_WASM, "base64"));
    const memory = kernelMemory(16);
    kernel = { memory, exports: instantiate<PixelExports>(compiled, memory) };
  }
  reserve(kernel.memory, bytes);
  return kernel;
}

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
