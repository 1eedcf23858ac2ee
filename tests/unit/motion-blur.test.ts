/**
 * A photo smeared by the phone's motion (blur.server.ts): the engine finds the smear's direction and
 * length from the photo's spectrum, and finds the photo's features once it is undone. A sharp photo
 * must not be taken for a smeared one (undoing a smear that is not there adds ringing), and the
 * smear must be measured well enough that undoing it brings the photo back near the sharp one.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { deblurGray, estimateMotionBlur, powerSpectrum, smearGray } from '~/services/identification/blur.server';
import { decodeRGB, toGray } from '~/services/identification/features.server';
import { getCV, type CV } from '~/services/identification/opencv.server';
import { motionBlurred, phonePhoto, photoOfPins, pinArtwork } from '../support/identify';
import { javascriptPowerSpectrum } from '../support/spectrum';

let cv: CV;
beforeAll(async () => {
  cv = await getCV();
});

/** The photo as the engine sees it: 1,024 px, grayscale. */
async function grayOf(photo: Buffer) {
  const img = await decodeRGB(photo, 1024, 1024, true);
  return { gray: toGray(img), width: img.width, height: img.height };
}

/** Angle between two directions (degrees, 0..90). */
const apart = (a: number, b: number) => Math.abs(((((a - b) % 180) + 270) % 180) - 90);

/**
 * Mean absolute difference from the sharp photo where the blur shows: pixels where the sharp photo
 * has an edge (a step of 24 or more to a neighbour), away from a 48 px border (the filter treats the
 * photo as repeating).
 */
function difference(a: Uint8Array, sharpGray: Uint8Array, width: number, height: number): number {
  let sum = 0, n = 0;
  for (let y = 48; y < height - 48; y++) {
    for (let x = 48; x < width - 48; x++) {
      const i = y * width + x;
      const step = Math.max(Math.abs(sharpGray[i + 1] - sharpGray[i - 1]), Math.abs(sharpGray[i + width] - sharpGray[i - width]));
      if (step < 24) continue;
      sum += Math.abs(a[i] - sharpGray[i]);
      n++;
    }
  }
  return sum / n;
}

describe('motion blur', () => {
  it('is not found in sharp photos of pins', async () => {
    for (const seed of [31, 32, 33, 34, 35, 41]) {
      for (const rotate of [0, 14, 37]) {
        const { gray, width, height } = await grayOf(await phonePhoto(await pinArtwork(seed), { rotate }));
        expect(estimateMotionBlur(cv, gray, width, height), `pin ${seed}, turned ${rotate} degrees`).toBeNull();
      }
    }
    // two pins side by side on a striped lanyard (a weaker anisotropy bar took it for a smeared photo,
    // and the features of the photo "unsmeared" named the wrong pin)
    const board = await grayOf(
      await photoOfPins([
        { picture: await pinArtwork(31, 'EAGLES', 2019), size: 300, rotate: -12, cutOut: true, centre: [215, 330] },
        { picture: await pinArtwork(51, 'WASPS', 2017, { hexagon: true }), size: 300, rotate: 9, cutOut: true, centre: [585, 310] },
      ]),
    );
    expect(estimateMotionBlur(cv, board.gray, board.width, board.height)).toBeNull();
  });

  it('is found with its direction and length in smeared photos', async () => {
    // the photos are 800 px wide, decoded at 1,024 px: a smear of L px becomes 1.28 L
    for (const [seed, length, angle] of [
      [31, 10, 30],
      [32, 12, 115],
      [33, 8, 160],
      [34, 14, 72],
    ] as const) {
      const { gray, width, height } = await grayOf(await motionBlurred(await phonePhoto(await pinArtwork(seed)), length, angle));
      const blur = estimateMotionBlur(cv, gray, width, height);
      expect(blur, `pin ${seed}, ${length} px at ${angle} degrees`).not.toBeNull();
      // a clean smear stands out in the cepstrum beyond doubt: undone at once, not only when the
      // photo as taken finds no pin strongly
      expect(blur!.possible).toBeUndefined();
      expect(apart(blur!.angle, angle)).toBeLessThanOrEqual(8);
      // the filter undoes 0.9 of the smear measured: within a quarter of the smear itself
      expect(blur!.length / (1.28 * length)).toBeGreaterThan(0.75);
      expect(blur!.length / (1.28 * length)).toBeLessThan(1.25);
    }
  });

  it('is undone closely enough to bring the photo back near the sharp one', async () => {
    const sharpPhoto = await phonePhoto(await pinArtwork(32), { quality: 92 });
    const clean = await grayOf(sharpPhoto);
    const smeared = await grayOf(await motionBlurred(sharpPhoto, 12, 115, 92));
    const blur = estimateMotionBlur(cv, smeared.gray, smeared.width, smeared.height)!;
    const undone = await deblurGray(cv, smeared.gray, smeared.width, smeared.height, blur);
    const before = difference(smeared.gray, clean.gray, clean.width, clean.height);
    const after = difference(undone, clean.gray, clean.width, clean.height);
    expect(after).toBeLessThan(0.7 * before);
    // undone across the motion instead, it is further from the sharp photo than the smeared one
    const wrong = await deblurGray(cv, smeared.gray, smeared.width, smeared.height, { ...blur, angle: blur.angle + 90 });
    expect(difference(wrong, clean.gray, clean.width, clean.height)).toBeGreaterThan(before);
  });
});

describe('a reference smeared as the photo is', () => {
  /** The segment's points, each sampled bilinearly and averaged: the smear by its definition, slowly. */
  function smearedDirectly(g: Uint8Array, W: number, H: number, angle: number, length: number): Float32Array {
    const th = (angle * Math.PI) / 180, n = Math.floor(length * 8) + 1;
    const out = new Float32Array(W * H);
    for (let i = 0; i < n; i++) {
      const d = -length / 2 + (length * i) / (n - 1), dx = d * Math.cos(th), dy = d * Math.sin(th);
      for (let y = 0; y < H; y++) {
        for (let x = 0; x < W; x++) {
          const xs = Math.min(W - 1, Math.max(0, x + dx)), ys = Math.min(H - 1, Math.max(0, y + dy));
          const x0 = Math.floor(xs), y0 = Math.floor(ys), fx = xs - x0, fy = ys - y0;
          const x1 = Math.min(W - 1, x0 + 1), y1 = Math.min(H - 1, y0 + 1);
          const v = g[y0 * W + x0] * (1 - fx) * (1 - fy) + g[y0 * W + x1] * fx * (1 - fy) + g[y1 * W + x0] * (1 - fx) * fy + g[y1 * W + x1] * fx * fy;
          out[y * W + x] += v / n;
        }
      }
    }
    return out;
  }

  it('is the photo\'s segment applied to it, in any direction, to a gray level or two', () => {
    // a checkerboard of 8 x 16 px cells, 30 and 220: every edge is smeared
    const W = 200, H = 160;
    const g = new Uint8Array(W * H);
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) g[y * W + x] = ((x >> 3) + (y >> 4)) % 2 ? 220 : 30;
    for (const [angle, length] of [[0, 10], [33, 12], [-20, 7], [70, 15], [120, 9], [90, 8]]) {
      const fast = smearGray(g, W, H, { angle, length });
      const slow = smearedDirectly(g, W, H, angle, length);
      let sum = 0, n = 0, moved = 0;
      for (let y = 20; y < H - 20; y++) {
        for (let x = 20; x < W - 20; x++) {
          sum += Math.abs(fast[y * W + x] - slow[y * W + x]);
          moved += Math.abs(fast[y * W + x] - g[y * W + x]);
          n++;
        }
      }
      expect(sum / n, `${length} px at ${angle} degrees`).toBeLessThan(2);
      // and the smear is there: far from the sharp board
      expect(moved / n).toBeGreaterThan(15);
    }
  });
});

describe("the estimate's power spectrum", () => {
  /** The largest difference between the two spectra's logs (what the estimate's tests read). */
  function logDifference(a: Float64Array, b: Float64Array, count: number): number {
    let most = 0;
    for (let i = 0; i < a.length; i++) most = Math.max(most, Math.abs(Math.log(a[i] / count + 1e-2) - Math.log(b[i] / count + 1e-2)));
    return most;
  }

  async function grayAt(photo: Buffer, side: number) {
    const img = await decodeRGB(photo, side);
    return { gray: toGray(img), width: img.width, height: img.height };
  }

  it('is the plain sum of the windows\' powers, sharp or smeared, upright or turned', async () => {
    const photos = [
      await phonePhoto(await pinArtwork(31)),
      await phonePhoto(await pinArtwork(44, 'HAWKS', 2016), { rotate: 23 }),
      await motionBlurred(await phonePhoto(await pinArtwork(35)), 14, 30),
    ];
    for (const [k, photo] of photos.entries()) {
      // at the engine's 1,024 px, and at sizes whose halves are no multiple of a window's step
      for (const { gray, width, height } of [await grayOf(photo), await grayAt(photo, 701), await grayAt(photo, 333)]) {
        const ours = powerSpectrum(cv, gray, width, height);
        const plain = javascriptPowerSpectrum(cv, gray, width, height);
        expect(ours && plain, `photo ${k}`).toBeTruthy();
        expect(ours!.count, `photo ${k}, ${width} x ${height}`).toBe(plain!.count);
        expect(logDifference(ours!.power, plain!.power, plain!.count), `photo ${k}, ${width} x ${height}`).toBeLessThan(1e-3);
      }
    }
    expect(powerSpectrum(cv, new Uint8Array(200 * 200), 200, 200)).toBeNull();
  });
});
