/**
 * Pins compared by appearance (appearance.server.ts): a photo's windows against each reference's
 * vector, with the network trained on pins. What a collector would notice: a photo of a small, blurred
 * pin, which ORB cannot place, still has that pin among the suggestions; and the suggestions come
 * from the pin's look, not from its place in the catalogue.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { closestWindows, photoAppearance, photoWindows, referenceAppearance, APPEARANCE_DIM } from '~/services/identification/appearance.server';
import { extractFeatures } from '~/services/identification/engine.server';
import { decodeFeatures, decodeReference, decodeRGB } from '~/services/identification/features.server';
import { getCV, type CV } from '~/services/identification/opencv.server';
import { motionBlurred, phonePhoto, pinArtwork } from '../support/identify';

const SEEDS = [31, 32, 33, 34, 35, 36, 37, 38];
let cv: CV;
const refs: Float32Array[] = [];

/** The hull of a reference on white: its clearly non-white pixels' bounds as four corners. */
function box(img: { data: Uint8Array; width: number; height: number }): Float32Array {
  let x0 = img.width, y0 = img.height, x1 = 0, y1 = 0;
  for (let y = 0; y < img.height; y++)
    for (let x = 0; x < img.width; x++) {
      const j = (y * img.width + x) * 3;
      const mn = Math.min(img.data[j], img.data[j + 1], img.data[j + 2]);
      if (mn >= 170) continue;
      x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y);
    }
  return new Float32Array([x0, y0, x1, y0, x1, y1, x0, y1]);
}

/** The pins ranked by how close any window of the photo comes to their reference, closest first. */
async function ranked(photo: Buffer): Promise<number[]> {
  const img = await decodeRGB(photo, 1024, 1024, true);
  const windows = await photoAppearance(cv, img);
  const all = new Float32Array(refs.length * APPEARANCE_DIM);
  refs.forEach((r, k) => all.set(r, k * APPEARANCE_DIM));
  const near = await closestWindows(windows, all);
  return SEEDS.map((s, k) => ({ s, d: near[k] })).sort((a, b) => b.d - a.d).map((x) => x.s);
}

beforeAll(async () => {
  cv = await getCV();
  for (const seed of SEEDS) {
    const { image } = await decodeReference(cv, await pinArtwork(seed));
    refs.push((await referenceAppearance(cv, image, box(image))) as Float32Array);
  }
}, 60_000);

describe('pins compared by appearance', () => {
  it('gives each reference a vector of length 1', () => {
    for (const r of refs) {
      expect(r).toHaveLength(APPEARANCE_DIM);
      expect(Math.hypot(...r)).toBeCloseTo(1, 4);
    }
  });

  it("keeps a reference's vector in its stored features, read back from the database's bytes", async () => {
    const blob = await extractFeatures(await pinArtwork(31));
    const stored = decodeFeatures(blob).appearance as Float32Array;
    expect(stored).toHaveLength(APPEARANCE_DIM);
    expect(Math.hypot(...stored)).toBeCloseTo(1, 4);
    // a row read from SQLite is a Buffer: a view at any offset of a larger pool
    const pool = Buffer.alloc(blob.length + 7);
    Buffer.from(blob).copy(pool, 3);
    expect(decodeFeatures(pool.subarray(3, 3 + blob.length)).appearance).toEqual(stored);
  });

  it('cuts a photo into the windows the network was trained to read', async () => {
    const img = await decodeRGB(await phonePhoto(await pinArtwork(31)), 1024, 1024, true);
    const windows = photoWindows(cv, img);
    // five scales on a grid of 0.4 of a window, as tests/bench/train-appearance.py cuts them: 89
    // windows of this 5:4 photo (98 of a 4:3 one), 64 x 64 RGB each
    expect(windows).toHaveLength(89);
    expect(windows.every((w) => w.length === 64 * 64 * 3)).toBe(true);
  });

  it.each([
    [33, 150, 0],
    [36, 130, 6],
    [38, 120, 8],
  ])('puts pin %i, photographed %i px across with a blur of %i px, among the first four of eight', async (seed, size, blur) => {
    const photo = await phonePhoto(await pinArtwork(seed), { rotate: 25, size });
    const order = await ranked(blur ? await motionBlurred(photo, blur, 30) : photo);
    expect(order.slice(0, 4)).toContain(seed);
  }, 30_000);
});
