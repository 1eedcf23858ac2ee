/**
 * The engine's pixel kernels run in WebAssembly SIMD (pixels.wat, committed assembled in
 * pixels-wasm.ts). The grayscale must be the integer formula it replaced, for any number of pixels
 * (whole and partial sixteens). The Gaussian blurs replace OpenCV's, which has no SIMD in its
 * WebAssembly build; they must give OpenCV's bytes exactly, so that no answer of the engine changes: at every sigma the detail check uses (full and half
 * size, grayscale, replicated border) and at the colour check's (5 x 5, sigma 1.2, three channels, the
 * border mirrored as OpenCV's default does), on image sizes that are and are not a multiple of its eight
 * lanes, down to one pixel.
 */
import { describe, expect, it } from 'vitest';
import { assembleKernel, kernelModuleSource } from '~/cli/build-wasm';
import { PIXELS_WASM } from '~/services/identification/pixels-wasm';
import { gaussianBlur, gaussianTaps, grayscale } from '~/services/identification/pixels.server';
import { getCV, type CV } from '~/services/identification/opencv.server';
import { mulberry32 } from '~/utils/random';

function openCvBlur(cv: CV, pixels: Uint8Array, W: number, H: number, sigma: number, channels = 1, size = 0, reflect = false): Uint8Array {
  const src = new cv.Mat(H, W, channels === 3 ? cv.CV_8UC3 : cv.CV_8UC1);
  const dst = new cv.Mat();
  try {
    src.data.set(pixels);
    cv.GaussianBlur(src, dst, new cv.Size(size, size), sigma, sigma, reflect ? cv.BORDER_REFLECT_101 : cv.BORDER_REPLICATE);
    return new Uint8Array(dst.data);
  } finally {
    src.delete();
    dst.delete();
  }
}

/** Noise, flat runs and hard edges: every tap and the rounding are exercised. */
function testImage(W: number, H: number, seed: number, channels = 1): Uint8Array {
  const rnd = mulberry32(seed);
  const out = new Uint8Array(W * H * channels);
  for (let i = 0; i < out.length; i++) {
    const x = Math.floor(i / channels) % W, y = Math.floor(i / channels / W);
    out[i] = rnd() < 0.4 ? Math.floor(rnd() * 256) : (x >> 3) % 2 === (y >> 3) % 2 ? 255 : 0;
  }
  return out;
}

describe('grayscale (WebAssembly)', () => {
  it('is (77 R + 150 G + 29 B) >> 8 for every pixel, whatever their number', () => {
    for (const n of [0, 1, 15, 16, 17, 48, 1000, 1024 * 768 + 5]) {
      const rgb = testImage(n, 1, n + 1, 3);
      const gray = grayscale(rgb, n);
      expect(gray.length).toBe(n);
      let differ = 0;
      for (let i = 0; i < n; i++) if (gray[i] !== (rgb[i * 3] * 77 + rgb[i * 3 + 1] * 150 + rgb[i * 3 + 2] * 29) >> 8) differ++;
      expect(differ, `${n} pixels`).toBe(0);
    }
    // white stays white, black black
    expect([...grayscale(new Uint8Array([255, 255, 255, 0, 0, 0]), 2)]).toEqual([255, 0]);
  });
});

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

  it("gives OpenCV's bytes for the colour check's three channels, with either border", async () => {
    const cv = await getCV();
    let seed = 500;
    for (const reflect of [true, false])
      for (const [W, H] of sizes) {
        const rgb = testImage(W, H, seed++, 3);
        const ours = gaussianBlur(cv, rgb, W, H, 1.2, { channels: 3, size: 5, border: reflect ? 'reflect101' : 'replicate' });
        const theirs = openCvBlur(cv, rgb, W, H, 1.2, 3, 5, reflect);
        let differ = 0;
        for (let i = 0; i < theirs.length; i++) if (ours[i] !== theirs[i]) differ++;
        expect(differ, `${W} x ${H}, ${reflect ? 'mirrored' : 'replicated'}`).toBe(0);
        expect(ours.length).toBe(W * H * 3);
      }
    // and a grayscale image mirrored at its border
    for (const sigma of [1, 4]) {
      const gray = testImage(300, 200, seed++);
      expect(gaussianBlur(cv, gray, 300, 200, sigma, { border: 'reflect101' })).toEqual(openCvBlur(cv, gray, 300, 200, sigma, 1, 0, true));
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
    const bytes = await assembleKernel('pixels');
    expect(Buffer.from(PIXELS_WASM, 'base64').equals(Buffer.from(bytes)), 'run npm run wasm').toBe(true);
    expect(kernelModuleSource('pixels', bytes)).toContain(PIXELS_WASM);
  });
});
