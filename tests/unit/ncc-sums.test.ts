/**
 * The detail check correlates boxes of the reference with the photo at each of a range of shifts; the
 * sums behind each correlation are counted in WebAssembly SIMD (ncc.wat, committed assembled in
 * ncc-wasm.ts), over copies of the images kept in the kernel's memory. They must be the plain sums
 * exactly, for boxes of any width (whole and partial chunks of 16 pixels), for boxes too large for
 * 32-bit sums (counted in bands), and after the copies have filled the kernel's arena and started over.
 */
import { describe, expect, it } from 'vitest';
import { assembleKernel, kernelModuleSource } from '~/cli/build-wasm';
import { NCC_WASM } from '~/services/identification/ncc-wasm';
import { shiftSums } from '~/services/identification/ncc.server';
import { mulberry32 } from '~/utils/random';

function plainSums(photo: Uint8Array, ref: Uint8Array, W: number, x0: number, y0: number, w: number, h: number, dx0: number, dx1: number, dy0: number, dy1: number): number[] {
  let rs = 0, rss = 0;
  for (let y = y0; y < y0 + h; y++)
    for (let x = x0; x < x0 + w; x++) {
      rs += ref[y * W + x];
      rss += ref[y * W + x] ** 2;
    }
  const out = [rs, rss];
  for (let dy = dy0; dy <= dy1; dy++)
    for (let dx = dx0; dx <= dx1; dx++) {
      let qs = 0, qss = 0, qr = 0;
      for (let y = y0; y < y0 + h; y++)
        for (let x = x0; x < x0 + w; x++) {
          const q = photo[(y + dy) * W + x + dx];
          qs += q;
          qss += q * q;
          qr += q * ref[y * W + x];
        }
      out.push(qs, qss, qr);
    }
  return out;
}

function noise(W: number, H: number, seed: number): Uint8Array {
  const rnd = mulberry32(seed);
  const out = new Uint8Array(W * H);
  // bright values too: the largest products and sums are exercised
  for (let i = 0; i < out.length; i++) out[i] = rnd() < 0.3 ? 255 : Math.floor(rnd() * 256);
  return out;
}

describe('correlation sums (WebAssembly)', () => {
  it('are the plain sums for boxes of every width and shift range', () => {
    const W = 200, H = 150;
    const photo = noise(W, H, 1), ref = noise(W, H, 2);
    const rnd = mulberry32(3);
    for (let t = 0; t < 400; t++) {
      const w = 1 + Math.floor(rnd() * 40), h = 1 + Math.floor(rnd() * 30), shift = Math.floor(rnd() * 6);
      const x0 = shift + Math.floor(rnd() * (W - w - 2 * shift)), y0 = shift + Math.floor(rnd() * (H - h - 2 * shift));
      const dx0 = -Math.floor(rnd() * (shift + 1)), dy0 = -Math.floor(rnd() * (shift + 1));
      const got = [...shiftSums(photo, ref, W, x0, y0, w, h, dx0, shift, dy0, shift).subarray(0, 2 + 3 * (shift - dx0 + 1) * (shift - dy0 + 1))];
      expect(got).toEqual(plainSums(photo, ref, W, x0, y0, w, h, dx0, shift, dy0, shift));
    }
  });

  it('counts a box too large for 32-bit sums in bands', () => {
    const W = 400, H = 300;
    const photo = new Uint8Array(W * H).fill(255), ref = new Uint8Array(W * H).fill(255);
    // 380 x 280 pixels of 255: the sums of squares and products are 6.9e9, past 32 bits
    const got = [...shiftSums(photo, ref, W, 10, 10, 380, 280, -1, 1, -1, 1).subarray(0, 2 + 27)];
    expect(got).toEqual(plainSums(photo, ref, W, 10, 10, 380, 280, -1, 1, -1, 1));
    expect(got[1]).toBe(255 * 255 * 380 * 280);
  });

  it('are still right after the copies have filled the arena and started over', () => {
    const W = 1024, H = 1024;
    const first = noise(W, H, 10), second = noise(W, H, 11);
    const expected = plainSums(first, second, W, 100, 100, 16, 16, -2, 2, -2, 2);
    expect([...shiftSums(first, second, W, 100, 100, 16, 16, -2, 2, -2, 2).subarray(0, expected.length)]).toEqual(expected);
    // 20 more images of 1 MB: more than the arena holds
    for (let i = 0; i < 10; i++) {
      const a = noise(W, H, 100 + i);
      const b = noise(W, H, 200 + i);
      if (i % 3 === 0) expect([...shiftSums(a, b, W, 500, 500, 16, 16, -2, 2, -2, 2).subarray(0, expected.length)]).toEqual(plainSums(a, b, W, 500, 500, 16, 16, -2, 2, -2, 2));
      else shiftSums(a, b, W, 500, 500, 16, 16, 0, 0, 0, 0);
    }
    expect([...shiftSums(first, second, W, 100, 100, 16, 16, -2, 2, -2, 2).subarray(0, expected.length)]).toEqual(expected);
  });

  it('runs the kernel assembled from its text', async () => {
    const bytes = await assembleKernel('ncc');
    expect(Buffer.from(NCC_WASM, 'base64').equals(Buffer.from(bytes)), 'run npm run wasm').toBe(true);
    expect(kernelModuleSource('ncc', bytes)).toContain(NCC_WASM);
  });
});
