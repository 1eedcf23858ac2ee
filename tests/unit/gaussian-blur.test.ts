/**
 * The detail check's Gaussian blur runs in WebAssembly SIMD (blur.wat, committed assembled in
 * blur-wasm.ts) in place of OpenCV's, which has no SIMD in its WebAssembly build. It must give OpenCV's
 * bytes exactly, so that no answer of the engine changes: at every sigma the detail check uses (full
 * and half size), on image sizes that are and are not a multiple of its eight lanes, down to one pixel.
 */
import { describe, expect, it } from 'vitest';
import { assembleKernel, kernelModuleSource } from '~/cli/build-wasm';
import { BLUR_WASM } from '~/services/identification/blur-wasm';
import { gaussianBlur, gaussianTaps } from '~/services/identification/blur.server';
import { getCV, type CV } from '~/services/identification/opencv.server';
import { mulberry32 } from '~/utils/random';

function openCvBlur(cv: CV, gray: Uint8Array, W: number, H: number, sigma: number): Uint8Array {
  const src = new cv.Mat(H, W, cv.CV_8UC1);
  const dst = new cv.Mat();
  try {
    src.data.set(gray);
    cv.GaussianBlur(src, dst, new cv.Size(0, 0), sigma, sigma, cv.BORDER_REPLICATE);
    return new Uint8Array(dst.data);
  } finally {
    src.delete();
    dst.delete();
  }
}

/** Noise, flat runs and hard edges: every tap and the rounding are exercised. */
function testImage(W: number, H: number, seed: number): Uint8Array {
  const rnd = mulberry32(seed);
  const out = new Uint8Array(W * H);
  for (let i = 0; i < out.length; i++) {
    const x = i % W, y = Math.floor(i / W);
    out[i] = rnd() < 0.4 ? Math.floor(rnd() * 256) : (x >> 3) % 2 === (y >> 3) % 2 ? 255 : 0;
  }
  return out;
}

describe('Gaussian blur (WebAssembly)', () => {
  // BLUR_SIGMAS and their half-size counterparts (HALF_SIGMA) in detail.server.ts
  const sigmas = [1, 1.8, 2.8, 4].flatMap((s) => [s, s * 0.53]);
  const sizes: [number, number][] = [[512, 512], [511, 439], [256, 255], [37, 23], [8, 8], [5, 3], [1, 1], [3, 40], [700, 2]];

  it("gives OpenCV's bytes at every sigma and size", async () => {
    const cv = await getCV();
    let seed = 1;
    for (const sigma of sigmas)
      for (const [W, H] of sizes) {
        const gray = testImage(W, H, seed++);
        const ours = gaussianBlur(cv, gray, W, H, sigma);
        const theirs = openCvBlur(cv, gray, W, H, sigma);
        let differ = 0;
        for (let i = 0; i < theirs.length; i++) if (ours[i] !== theirs[i]) differ++;
        expect(differ, `sigma ${sigma}, ${W} x ${H}`).toBe(0);
        expect(ours.length).toBe(W * H);
      }
  });

  it('reads taps that sum to 256 and leaves a sigma of 0 alone', async () => {
    const cv = await getCV();
    for (const sigma of sigmas) expect(gaussianTaps(cv, sigma).reduce((a, b) => a + b, 0)).toBe(256);
    expect(gaussianTaps(cv, 1)).toEqual([1, 14, 62, 102, 62, 14, 1]);
    const gray = testImage(20, 20, 99);
    expect(gaussianBlur(cv, gray, 20, 20, 0)).toBe(gray);
  });

  it('runs the kernel assembled from its text', async () => {
    const bytes = await assembleKernel('blur');
    expect(Buffer.from(BLUR_WASM, 'base64').equals(Buffer.from(bytes)), 'run npm run wasm').toBe(true);
    expect(kernelModuleSource('blur', bytes)).toContain(BLUR_WASM);
  });
});
