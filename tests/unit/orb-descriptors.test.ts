/**
 * ORB's descriptors are computed by brief.wat (committed assembled in brief-wasm.ts), not by OpenCV,
 * whose build for WebAssembly smooths each pyramid level without SIMD. The references in the database
 * were described by OpenCV, and a photo's descriptors are matched against them bit by bit, so the two
 * must agree byte for byte: the pattern read from OpenCV, the resize from one pyramid level to the next
 * and the smoothing of a level (every pixel, borders included, on sizes that are and are not a multiple
 * of the kernel's lanes), and whole photos' keypoints and descriptors over the pyramid, against OpenCV's
 * ORB at once.
 */
import { describe, expect, it } from 'vitest';
import { assembleKernel, kernelModuleSource } from '~/cli/build-wasm';
import { BRIEF_WASM } from '~/services/identification/brief-wasm';
import { describeWith, openCvDescriptors, orbPattern, orbShrink, orbSmooth, type Keypoint } from '~/services/identification/brief.server';
import { decodeRGB, openCvOrb, runOrbLevels, toGray } from '~/services/identification/features.server';
import { getCV, type CV } from '~/services/identification/opencv.server';
import { mulberry32 } from '~/utils/random';
import { phonePhoto, pinArtwork } from '../support/identify';

/** OpenCV's smoothing of a level as ORB does it: a part of a larger image whose border mirrors it. */
function openCvSmooth(cv: CV, pixels: Uint8Array, w: number, h: number): Uint8Array {
  const src = new cv.Mat(h, w, cv.CV_8UC1);
  const framed = new cv.Mat();
  const out = new cv.Mat();
  try {
    src.data.set(pixels);
    cv.copyMakeBorder(src, framed, 8, 8, 8, 8, cv.BORDER_REFLECT_101);
    const level = framed.roi(new cv.Rect(8, 8, w, h));
    cv.GaussianBlur(level, out, new cv.Size(7, 7), 2, 2, cv.BORDER_REFLECT_101);
    level.delete();
    return new Uint8Array(out.data);
  } finally {
    src.delete();
    framed.delete();
    out.delete();
  }
}

/** Noise, flat runs and hard edges, bright and dark. */
function testImage(w: number, h: number, seed: number): Uint8Array {
  const rnd = mulberry32(seed);
  const out = new Uint8Array(w * h);
  for (let i = 0; i < out.length; i++) {
    const x = i % w, y = Math.floor(i / w);
    out[i] = rnd() < 0.4 ? Math.floor(rnd() * 256) : (x >> 3) % 2 === (y >> 3) % 2 ? 255 : 0;
  }
  return out;
}

describe('ORB descriptors (WebAssembly)', () => {
  it('read OpenCV\'s pattern: 256 pairs of points within 13 pixels of the keypoint', async () => {
    const pattern = orbPattern(await getCV());
    expect(pattern).not.toBeNull();
    expect(pattern?.length).toBe(1024);
    expect(Math.max(...(pattern as Int8Array).map(Math.abs))).toBe(13);
    // pairs of two different points
    for (let b = 0; b < 256; b++) expect(pattern?.slice(b * 4, b * 4 + 2)).not.toEqual(pattern?.slice(b * 4 + 2, b * 4 + 4));
  });

  it('resize a level to the next as OpenCV\'s INTER_LINEAR_EXACT does, ends included', async () => {
    const cv = await getCV();
    const sizes = [[1024, 768, 853, 640], [768, 1024, 640, 853], [777, 583, 648, 486], [100, 80, 83, 67], [17, 9, 14, 8], [5, 5, 4, 4], [2, 2, 2, 2], [64, 64, 64, 64], [30, 20, 40, 27]];
    for (const [w, h, W, H] of sizes) {
      const img = testImage(w, h, w + h);
      const src = new cv.Mat(h, w, cv.CV_8UC1);
      const dst = new cv.Mat();
      src.data.set(img);
      cv.resize(src, dst, new cv.Size(W, H), 0, 0, cv.INTER_LINEAR_EXACT);
      const theirs = new Uint8Array(dst.data);
      src.delete();
      dst.delete();
      const ours = orbShrink(img, w, h, W, H);
      expect(ours, `${w} x ${h} -> ${W} x ${H}`).not.toBeNull();
      let differ = 0;
      for (let i = 0; i < W * H; i++) if ((ours as Uint8Array)[i] !== theirs[i]) differ++;
      expect(differ, `${w} x ${h} -> ${W} x ${H}`).toBe(0);
    }
    // a shrink the kernel's windows cannot span is left to OpenCV
    expect(orbShrink(testImage(100, 100, 1), 100, 100, 40, 40)).toBeNull();
  });

  it('smooth a level to OpenCV\'s bytes, borders included', async () => {
    const cv = await getCV();
    for (const [w, h] of [[640, 480], [523, 391], [97, 66], [33, 18], [4, 4], [5, 7], [17, 4]]) {
      const img = testImage(w, h, w * 7 + h);
      const ours = orbSmooth(img, w, h);
      const theirs = openCvSmooth(cv, img, w, h);
      let differ = 0;
      for (let i = 0; i < w * h; i++) if (ours[i] !== theirs[i]) differ++;
      expect(differ, `${w} x ${h}`).toBe(0);
    }
  });

  it('describe keypoints at any angle and position as OpenCV does', async () => {
    const cv = await getCV();
    const pattern = orbPattern(cv) as Int8Array;
    const w = 301, h = 203;
    const img = testImage(w, h, 5);
    const rnd = mulberry32(9);
    const kps: Keypoint[] = [];
    // every whole angle, then positions between pixels (halves included) and angles between degrees,
    // all at least 31 pixels inside the image, where ORB keeps keypoints
    for (let a = 0; a < 360; a++) kps.push({ x: 31 + (a % 200), y: 31 + (a % 120), angle: a });
    for (let i = 0; i < 600; i++) kps.push({ x: Math.fround(31 + Math.round(rnd() * 476) / 2), y: Math.fround(31 + rnd() * 140), angle: Math.fround(rnd() * 360) });
    const ours = describeWith(pattern, img, w, h, kps);
    const theirs = openCvDescriptors(cv, img, w, h, kps);
    expect(ours.length).toBe(kps.length * 32);
    let differ = 0;
    for (let k = 0; k < kps.length; k++) if (!Buffer.from(ours.subarray(k * 32, k * 32 + 32)).equals(Buffer.from(theirs.subarray(k * 32, k * 32 + 32)))) differ++;
    expect(differ).toBe(0);
  });

  it('give a photo, level by level, the keypoints and descriptors of OpenCV\'s ORB over the whole pyramid', async () => {
    const cv = await getCV();
    const params = { nfeatures: 2000, fastThreshold: 10, nlevels: 8 };
    const photos = [
      await phonePhoto(await pinArtwork(31, 'EAGLES', 2019), { rotate: 14, size: 340 }),
      await phonePhoto(await pinArtwork(41, 'SPINNERS', 2021, { spin: 70 }), { rotate: 12, size: 380 }),
      await phonePhoto(await pinArtwork(77), { rotate: 5 }),
    ];
    // at the query size, and at sizes whose levels round differently (477: its second level is 397 px
    // wide divided by the level's scale, 398 as OpenCV makes it, times the scale's inverse)
    for (const [k, photo] of photos.entries()) {
      for (const side of [1024, [1003, 777, 640][k], [477, 549, 957][k]]) {
        const img = await decodeRGB(photo, side, side);
        const gray = toGray(img);
        const ours = runOrbLevels(cv, gray, img.width, img.height, params, [0, 1, 2, 3, 4, 5, 6, 7]);
        const theirs = openCvOrb(cv, gray, img.width, img.height, params);
        expect(ours.points.length, `photo ${k} at ${side}`).toBeGreaterThan(500);
        expect([...ours.points], `photo ${k} at ${side}`).toEqual([...theirs.points]);
        expect(Buffer.from(ours.desc).equals(Buffer.from(theirs.desc)), `photo ${k} at ${side}`).toBe(true);
      }
    }
  });

  it('run the kernel assembled from brief.wat', async () => {
    const bytes = await assembleKernel('brief');
    expect(Buffer.from(BRIEF_WASM, 'base64').equals(Buffer.from(bytes)), 'run npm run wasm').toBe(true);
    expect(kernelModuleSource('brief', bytes)).toContain(BRIEF_WASM);
  });
});
