/**
 * The detail and colour checks warp the photo onto a reference with `warpPerspective` (warp.server.ts):
 * OpenCV's bilinear warp, and alongside it OpenCV's nearest-neighbour warp of a mask or of where the
 * photo covers the frame, for one channel and for three, kept only on a region when asked.
 */
import { describe, expect, it } from 'vitest';
import { getCV } from '~/services/identification/opencv.server';
import { warpPerspective } from '~/services/identification/warp.server';
import { dilated } from '~/services/identification/detail.server';
import { mulberry32 } from '~/utils/random';
import { homographyOnto, openCvWarp } from '../support/warp';

function differing(a: Uint8Array, b: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) n++;
  return n;
}

describe('the perspective warp', () => {
  it("gives OpenCV's bytes for one channel and three, with the mask and the cover warped alongside", async () => {
    const cv = await getCV();
    const rnd = mulberry32(11);
    let partly = 0;
    for (let t = 0; t < 24; t++) {
      const cn = t % 2 ? 3 : 1;
      const sw = 90 + Math.floor(rnd() * 120), sh = 70 + Math.floor(rnd() * 120);
      const W = 40 + Math.floor(rnd() * 110), Hh = 30 + Math.floor(rnd() * 110); // odd sizes: partial blocks
      const data = new Uint8Array(sw * sh * cn);
      for (let i = 0; i < data.length; i++) data[i] = Math.floor(rnd() * 256);
      const mask = new Uint8Array(sw * sh);
      for (let i = 0; i < mask.length; i++) mask[i] = rnd() < 0.5 ? 0 : 1 + Math.floor(rnd() * 255);
      const cx = sw * (0.2 + 0.6 * rnd()), cy = sh * (0.2 + 0.6 * rnd()), size = 30 + 150 * rnd();
      const corners = [[-1, -1], [1, -1], [1, 1], [-1, 1]].flatMap(([dx, dy]) => [
        cx + (dx * size) / 2 + (rnd() - 0.5) * size * 0.5,
        cy + (dy * size) / 2 + (rnd() - 0.5) * size * 0.5,
      ]);
      const H = homographyOnto(cv, corners, W, Hh);
      const expected = openCvWarp(cv, data, sw, sh, cn, H, W, Hh, true);
      const withMask = warpPerspective(cv, { data, width: sw, height: sh, channels: cn }, H, W, Hh, mask);
      expect(differing(withMask.pixels, expected), `sample ${t}: pixels`).toBe(0);
      expect(differing(withMask.nearest!, openCvWarp(cv, mask, sw, sh, 1, H, W, Hh, false)), `sample ${t}: mask`).toBe(0);
      const cover = openCvWarp(cv, new Uint8Array(sw * sh).fill(255), sw, sh, 1, H, W, Hh, false);
      const withCover = warpPerspective(cv, { data, width: sw, height: sh, channels: cn }, H, W, Hh, 'cover');
      expect(differing(withCover.nearest!, cover), `sample ${t}: cover`).toBe(0);
      expect(differing(withCover.pixels, expected), `sample ${t}: pixels beside the cover`).toBe(0);
      expect(warpPerspective(cv, { data, width: sw, height: sh, channels: cn }, H, W, Hh).nearest).toBeNull();
      if (cover.includes(0) && cover.includes(255)) partly++;
    }
    // the samples include frames that reach past the source's edges
    expect(partly).toBeGreaterThan(5);
  });

  it("gives OpenCV's bytes when the frame reads a small part of a large source, to its edges", async () => {
    // (only that part is handed to OpenCV: the photo onto a thumbnail or a pin's lines)
    const cv = await getCV();
    const rnd = mulberry32(17);
    const sw = 1024, sh = 768, W = 256, Hh = 256;
    const data = new Uint8Array(sw * sh * 3);
    for (let i = 0; i < data.length; i++) data[i] = Math.floor(rnd() * 256);
    const mask = new Uint8Array(sw * sh);
    for (let i = 0; i < mask.length; i++) mask[i] = rnd() < 0.5 ? 0 : 255;
    for (let t = 0; t < 12; t++) {
      // a pin of 80-380 px anywhere, some past the photo's edges, tilted
      const size = 80 + 300 * rnd(), cx = -40 + (sw + 80) * rnd(), cy = -40 + (sh + 80) * rnd();
      const corners = [[-1, -1], [1, -1], [1, 1], [-1, 1]].flatMap(([dx, dy]) => [cx + (dx * size) / 2 + (rnd() - 0.5) * size * 0.4, cy + (dy * size) / 2 + (rnd() - 0.5) * size * 0.4]);
      const H = homographyOnto(cv, corners, W, Hh);
      const got = warpPerspective(cv, { data, width: sw, height: sh, channels: 3 }, H, W, Hh, mask);
      expect(differing(got.pixels, openCvWarp(cv, data, sw, sh, 3, H, W, Hh, true)), `sample ${t}: pixels`).toBe(0);
      expect(differing(got.nearest!, openCvWarp(cv, mask, sw, sh, 1, H, W, Hh, false)), `sample ${t}: mask`).toBe(0);
      const cover = warpPerspective(cv, { data, width: sw, height: sh, channels: 3 }, H, W, Hh, 'cover').nearest!;
      expect(differing(cover, openCvWarp(cv, new Uint8Array(sw * sh).fill(255), sw, sh, 1, H, W, Hh, false)), `sample ${t}: cover`).toBe(0);
    }
  });

  it('gives 0 where the frame is not in the source at all', async () => {
    const cv = await getCV();
    const data = new Uint8Array(20 * 10).fill(200);
    const far = warpPerspective(cv, { data, width: 20, height: 10, channels: 1 }, [1, 0, 500, 0, 1, 500, 0, 0, 1], 16, 8, 'cover');
    expect(far.pixels.every((v) => v === 0)).toBe(true);
    expect(far.nearest!.every((v) => v === 0)).toBe(true);
    const same = warpPerspective(cv, { data, width: 20, height: 10, channels: 1 }, [1, 0, 0, 0, 1, 0, 0, 0, 1], 16, 8, 'cover');
    expect(same.pixels.every((v) => v === 200)).toBe(true);
    expect(same.nearest!.every((v) => v === 255)).toBe(true);
  });

  it('warps each source anew when another was warped between', async () => {
    const cv = await getCV();
    const rnd = mulberry32(21);
    const sw = 600, sh = 400, W = 300, Hh = 260;
    const image = () => {
      const data = new Uint8Array(sw * sh);
      for (let i = 0; i < data.length; i++) data[i] = Math.floor(rnd() * 256);
      return data;
    };
    const a = image(), b = image();
    const H = homographyOnto(cv, [80, 40, 520, 70, 500, 380, 60, 350], W, Hh);
    const expectedA = openCvWarp(cv, a, sw, sh, 1, H, W, Hh, true);
    const expectedB = openCvWarp(cv, b, sw, sh, 1, H, W, Hh, true);
    for (const [data, expected, name] of [[a, expectedA, 'a'], [b, expectedB, 'b'], [a, expectedA, 'a again'], [a, expectedA, 'a once more']] as const) {
      const got = warpPerspective(cv, { data, width: sw, height: sh, channels: 1 }, H, W, Hh);
      expect(differing(got.pixels, expected), name).toBe(0);
    }
  });

  it('makes only the pixels of a region, the same as everywhere, and 0 elsewhere', async () => {
    const cv = await getCV();
    const rnd = mulberry32(5);
    const sw = 160, sh = 120, W = 97, Hh = 83;
    const data = new Uint8Array(sw * sh * 3);
    for (let i = 0; i < data.length; i++) data[i] = 1 + Math.floor(rnd() * 255);
    const region = new Uint8Array(W * Hh);
    for (let i = 0; i < region.length; i++) region[i] = rnd() < 0.4 ? 1 : 0;
    const H = homographyOnto(cv, [-10, 5, 150, -8, 165, 118, 4, 110], W, Hh);
    const all = warpPerspective(cv, { data, width: sw, height: sh, channels: 3 }, H, W, Hh, 'cover');
    const some = warpPerspective(cv, { data, width: sw, height: sh, channels: 3 }, H, W, Hh, 'cover', region);
    let made = 0;
    for (let i = 0; i < region.length; i++) {
      for (let c = 0; c < 3; c++) expect(some.pixels[i * 3 + c]).toBe(region[i] ? all.pixels[i * 3 + c] : 0);
      expect(some.nearest![i]).toBe(region[i] ? all.nearest![i] : 0);
      if (region[i] && all.pixels[i * 3] > 0) made++;
    }
    expect(made).toBeGreaterThan(1000);
  });
});

describe('a mask dilated', () => {
  it('holds every pixel within r of the mask (the square about it), and no other', () => {
    const rnd = mulberry32(3);
    for (const [W, H, r, density] of [[37, 29, 2, 0.02], [50, 8, 1, 0.05], [16, 40, 3, 0.01], [9, 9, 2, 0]] as const) {
      const mask = new Uint8Array(W * H);
      for (let i = 0; i < mask.length; i++) mask[i] = rnd() < density ? 1 : 0;
      const out = dilated(mask, W, H, r);
      for (let y = 0; y < H; y++)
        for (let x = 0; x < W; x++) {
          let near = 0;
          for (let dy = -r; dy <= r; dy++)
            for (let dx = -r; dx <= r; dx++) {
              const u = x + dx, v = y + dy;
              if (u >= 0 && v >= 0 && u < W && v < H && mask[v * W + u]) near = 1;
            }
          expect(out[y * W + x], `${W}x${H} r ${r} at ${x},${y}`).toBe(near);
        }
    }
  });
});
