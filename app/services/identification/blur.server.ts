// The detail check's Gaussian blur (`blur.wat`): byte for byte OpenCV's GaussianBlur of an 8-bit
// grayscale image with a replicated border, in WebAssembly SIMD. OpenCV's build for WebAssembly has no
// SIMD, and its blur was about 40% of a detail check (4 ms at sigma 1, 15 ms at sigma 4 on a 512 px
// reference); the same integers eight lanes at a time take a fraction of that.
import { BLUR_WASM } from "./blur-wasm";
import type { CV } from "./opencv.server";

interface BlurExports {
  blur(src: number, dst: number, rows: number, line: number, taps: number, n: number, w: number, h: number): void;
}

const PAGE = 65536;
/** The most the kernel's memory may grow to (only reserved, not used). */
const MAX_PAGES = 65536;

let compiled: WebAssembly.Module | null = null;
let kernel: { memory: WebAssembly.Memory; blur: BlurExports["blur"] } | null = null;

/** The thread's instance, in a memory of its own (shared: growing it detaches no buffer). */
function blurKernel() {
  if (!kernel) {
    compiled ??= new WebAssembly.Module(Buffer.from(BLUR_WASM, "base64"));
    const memory = new WebAssembly.Memory({ initial: 16, maximum: MAX_PAGES, shared: true });
    const exports = new WebAssembly.Instance(compiled, { env: { memory } }).exports as unknown as BlurExports;
    kernel = { memory, blur: exports.blur };
  }
  return kernel;
}

/** OpenCV's kernel size for an 8-bit image and a sigma (`createGaussianKernels`). */
function kernelSize(sigma: number): number {
  return Math.round(sigma * 3 * 2 + 1) | 1;
}

const tapsBySigma = new Map<number, number[]>();

/**
 * OpenCV's fixed-point taps for a sigma (integers summing to 256), read from its own blur of a vertical
 * line of 255s: a tap t comes back as round(255 t / 256), which is t itself for t <= 128; the one tap
 * that can be larger, the centre, is what the others leave of 256. The taps that are 0 at the ends
 * are dropped.
 */
export function gaussianTaps(cv: CV, sigma: number): number[] {
  let taps = tapsBySigma.get(sigma);
  if (taps) return taps;
  const n = kernelSize(sigma), r = n >> 1;
  const W = 2 * n + 1, H = 3, centre = n;
  const src = new cv.Mat(H, W, cv.CV_8UC1, new cv.Scalar(0));
  const dst = new cv.Mat();
  try {
    for (let y = 0; y < H; y++) src.data[y * W + centre] = 255;
    cv.GaussianBlur(src, dst, new cv.Size(0, 0), sigma, sigma, cv.BORDER_REPLICATE);
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
  tapsBySigma.set(sigma, taps);
  return taps;
}

/** The W x H grayscale image blurred with a Gaussian of `sigma`: OpenCV's bytes (itself for 0). */
export function gaussianBlur(cv: CV, gray: Uint8Array, W: number, H: number, sigma: number): Uint8Array {
  if (sigma === 0) return gray;
  const taps = gaussianTaps(cv, sigma);
  const n = taps.length;
  const { memory, blur } = blurKernel();
  const align = (v: number) => (v + 15) & ~15;
  const tapsAt = 0;
  const srcAt = align(tapsAt + n * 16);
  const dstAt = align(srcAt + W * H + 16);
  const rowsAt = align(dstAt + W * H + 16);
  const lineAt = align(rowsAt + 2 * W * H + 32);
  const end = lineAt + W + n + 32;
  if (end > memory.buffer.byteLength) memory.grow(Math.ceil((end - memory.buffer.byteLength) / PAGE));
  const bytes = new Uint8Array(memory.buffer);
  const lanes = new Int16Array(memory.buffer, tapsAt, n * 8);
  for (let i = 0; i < n; i++) lanes.fill(taps[i], i * 8, i * 8 + 8);
  bytes.set(gray, srcAt);
  blur(srcAt, dstAt, rowsAt, lineAt, tapsAt, n, W, H);
  return bytes.slice(dstAt, dstAt + W * H);
}
