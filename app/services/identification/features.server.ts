// Image decoding, ORB extraction and the binary format of PinFeatures.
import sharp from "sharp";
import { MAX_IMAGE_PIXELS } from "~/utils/constants";
import { getCV, type CV, type Feature2DCalls } from "./opencv.server";
import { enlargeRGB, grayscale } from "./pixels.server";
import { cvRound, orbDescriptors, orbShrink, type Keypoint } from "./brief.server";
import { encodeLayout, nearWhite, referenceLayout } from "./detail.server";
import { decodeTextLines, encodeTextLines, findTextLines, type TextLine } from "./text.server";
import { referenceAppearance } from "./appearance.server";
import { convexHullOrder } from "./geometry.server";
import type { RawImage } from "./raw-image";

export const REF_SIDE = 512; // reference frame: longest side of the reference image
export const THUMB_SIDE = 256; // stored colour thumbnail for aligned comparison
export const DESC_BYTES = 32;
// the index keeps a reference's keypoints in 1/POINT_SCALE px, two bytes a coordinate (a frame of at most
// REF_SIDE px): 20 MB less at 5,000 images than floats, a 64th of a pixel being far below RANSAC's 8 px
export const POINT_SCALE = 64;

/** Keypoints (x, y after each other) as the index keeps them (`POINT_SCALE`). */
export function packPoints(points: Float32Array): Uint16Array {
  return Uint16Array.from(points, (v) => Math.min(65535, Math.max(0, Math.round(v * POINT_SCALE))));
}

/** The keypoints of `packPoints` in pixels. */
export function unpackPoints(points: Uint16Array): Float32Array {
  return Float32Array.from(points, (v) => v / POINT_SCALE);
}

export type { RawImage } from "./raw-image";

export interface DecodedFeatures {
  width: number; // of the reference frame
  height: number;
  points: Float32Array; // x,y pairs in the reference frame
  desc: Uint8Array; // 32 bytes per point (ORB); decodeFeatures returns a view of the blob
  hull: Float32Array; // x,y pairs: convex hull of the pin (reference frame)
  thumb: Uint8Array; // JPEG of the reference at THUMB_SIDE (reference frame scaled); also a view of the blob
  layout: Uint8Array; // the reference's layout (detail.server.ts, encodeLayout); a view, empty in a PDX1 blob
  cut: Uint8Array | null; // how the pin was cut out of a photo (decodeReference; empty: used as it is); null before PDX3
  text: TextLine[]; // the lines of lettering read on it (text.server.ts); empty before PDX4
  appearance: Float32Array | null; // its vector (appearance.server.ts); null before PDX5 or without the network
}

/**
 * Three photos made of a catalogue picture, for a server's rehearsal before its first photo
 * (`VisualIndex.rehearse`): the picture as it is, the pin at a third of a grey photo (found on a
 * second look), and the picture mirrored (most often no match: the appearance network's path).
 */
export async function rehearsalPhotos(picture: Buffer | Uint8Array): Promise<Buffer[]> {
  const grey = { r: 128, g: 128, b: 128 };
  const small = await sharp(picture).resize(256, 256, { fit: "inside" }).extend({ top: 256, bottom: 256, left: 256, right: 256, background: grey }).flatten({ background: grey }).jpeg().toBuffer();
  return [Buffer.from(picture), small, await sharp(picture).flop().jpeg().toBuffer()];
}

/**
 * Decodes any image sharp reads into RGB, longest side at most maxSide. `strict` (a query photo)
 * refuses what the image store refuses, a damaged file (a truncated JPEG) or one of more than
 * MAX_IMAGE_PIXELS, instead of decoding what it can: the client is told the photo could not be
 * read; stored references are decoded leniently.
 */
export async function decodeRGB(image: Buffer | Uint8Array, maxSide: number, upscaleTo?: number, strict = false): Promise<RawImage> {
  const input = () => sharp(image, strict ? { failOn: "error", limitInputPixels: MAX_IMAGE_PIXELS } : { failOn: "none" }).rotate();
  const base = input();
  let target = maxSide;
  if (!upscaleTo || upscaleTo < maxSide) {
    const meta = await base.metadata();
    const long = Math.max(meta.autoOrient?.width ?? meta.width ?? 0, meta.autoOrient?.height ?? meta.height ?? 0);
    if (long > 0 && long < maxSide) target = upscaleTo ? upscaleTo : long;
  } else {
    // brought to maxSide whatever its size (the query photo, a reference): a smaller one is enlarged here
    const enlarged = await decodeEnlarged(input, maxSide);
    if (enlarged) return enlarged;
  }
  const { data, info } = await base
    .flatten({ background: "#ffffff" })
    .toColourspace("srgb")
    .resize({ width: target, height: target, fit: "inside", withoutEnlargement: !upscaleTo })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}

/**
 * An image smaller than `side` decoded at its own size by sharp and enlarged to `side` by our kernel
 * (`enlargeRGB` in pixels.server.ts): byte for byte sharp's own enlargement, sooner. Most phone photos
 * reach the server smaller than the 1,024 px the match works at (the public set's median longest side
 * is 766 px), and the public set's references are 511 px where the detail check works at 512. libvips'
 * bicubic enlargement took about 31 ms of CPU for such a photo (22 ms of the decode's time, on two
 * threads) and 8 of a reference's 11 ms; decoded at its own size (about 4 and 3 ms) and enlarged in
 * WebAssembly (about 6 and 2), the match waits far less, and the other core is left to the worker.
 * Null when the image needs no enlargement or is turned or mirrored by its EXIF orientation (sharp
 * enlarges before it turns): it is then decoded in one call.
 */
async function decodeEnlarged(input: () => ReturnType<typeof sharp>, side: number): Promise<RawImage | null> {
  const meta = await input().metadata();
  const w = meta.width ?? 0, h = meta.height ?? 0;
  if (w <= 0 || h <= 0 || Math.max(w, h) >= side || (meta.orientation ?? 1) > 1) return null;
  const { data, info } = await input().flatten({ background: "#ffffff" }).toColourspace("srgb").removeAlpha().raw().toBuffer({ resolveWithObject: true });
  if (info.channels !== 3 || info.width !== w || info.height !== h) return null;
  return enlargeRGB(new Uint8Array(data.buffer, data.byteOffset, data.length), w, h, side);
}

/** Share of a frame's border pixels that are near-white: a catalogue shot's background. */
function whiteBorder(img: RawImage): number {
  const { data, width: W, height: H } = img;
  let white = 0, n = 0;
  const visit = (x: number, y: number) => {
    const j = (y * W + x) * 3;
    n++;
    if (nearWhite(data[j], data[j + 1], data[j + 2])) white++;
  };
  for (let x = 0; x < W; x += 2) for (const y of [0, 1, H - 2, H - 1]) visit(x, y);
  for (let y = 0; y < H; y += 2) for (const x of [0, 1, W - 2, W - 1]) visit(x, y);
  return n ? white / n : 1;
}

/** A reference whose border is at least this white is a catalogue shot, used as it is. */
const WHITE_BORDER = 0.5;
/**
 * GrabCut runs on the photo at this size, for this many rounds: it costs 50-250 ms in WebAssembly at 200 px
 * (100-500 ms at 240 px with 4 rounds, which named no more photo-added pins on the benchmark).
 */
const CUT_SIDE = 200;
const CUT_ROUNDS = 2;
/** The pin is sought inside the frame less this share of each side (the rest seeds the background model). */
const CUT_INSET = 0.04;
/** A cut covering less or more than these shares of the frame is not trusted: the photo is used as it is. */
const CUT_MIN_AREA = 0.02;
const CUT_MAX_AREA = 0.9;

/**
 * The reference image of a pin, decoded at REF_SIDE. A catalogue shot (pin on white) is used as it is; a
 * pin photographed on its own background (added from a phone photo that found no match) is made into one:
 * OpenCV's GrabCut separates the pin from the background (seeded with the middle of the frame, where one
 * holds the pin, its colour models learnt from the rest), the largest piece with its holes filled is kept,
 * the frame cropped to the pin at the photo's own resolution and the background painted white. Without
 * it, the pin is a small part of a 512 px frame of fabric and table, and the checks compare backgrounds.
 * The cut is returned (empty for an image used as it is) and stored with the features, so that the detail
 * check crops the same image again without GrabCut (`stored`); a reference without it is cut again, the
 * same way (fixed seed).
 */
export async function decodeReference(cv: CV, image: Buffer | Uint8Array, stored: Uint8Array | null = null): Promise<{ image: RawImage; cut: Uint8Array }> {
  // the image as it is: decoded only when it is used (a stored cut crops the photo itself)
  let whole: RawImage | null = null;
  const asItIs = async () => ({ image: whole ?? (await decodeRGB(image, REF_SIDE, REF_SIDE)), cut: new Uint8Array(0) });
  let cut: { mask: Uint8Array; w: number; h: number } | null = null;
  if (stored) cut = stored.length ? decodeCut(stored) : null;
  else {
    whole = await decodeRGB(image, REF_SIDE, REF_SIDE);
    if (whiteBorder(whole) < WHITE_BORDER) {
      const small = await decodeRGB(image, CUT_SIDE);
      const mask = cutPin(cv, small);
      cut = mask && { mask, w: small.width, h: small.height };
    }
  }
  if (!cut) return asItIs();
  const { mask, w, h } = cut;
  // the pin's box, padded, in the photo as decoded (oriented, at most 1600 px: the stored size)
  let x0 = w, y0 = h, x1 = -1, y1 = -1;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      if (mask[y * w + x]) {
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
      }
  const base = sharp(image, { failOn: "none" }).rotate();
  const meta = await base.metadata();
  const W = meta.autoOrient?.width ?? meta.width ?? 0;
  const H = meta.autoOrient?.height ?? meta.height ?? 0;
  const kx = W / w, ky = H / h;
  const pad = Math.max(x1 - x0, y1 - y0) * 0.04 + 1;
  const left = Math.max(0, Math.floor((x0 - pad) * kx)), top = Math.max(0, Math.floor((y0 - pad) * ky));
  const right = Math.min(W, Math.ceil((x1 + 1 + pad) * kx)), bottom = Math.min(H, Math.ceil((y1 + 1 + pad) * ky));
  if (x1 < 0 || right - left < 8 || bottom - top < 8) return asItIs();
  const { data, info } = await base
    .extract({ left, top, width: right - left, height: bottom - top })
    .flatten({ background: "#ffffff" })
    .toColourspace("srgb")
    .resize({ width: REF_SIDE, height: REF_SIDE, fit: "inside" })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  // the background painted white: the cut brought to this size (bilinear, thresholded)
  const out = new Uint8Array(data.buffer, data.byteOffset, data.length);
  const sx = (right - left) / info.width / kx, sy = (bottom - top) / info.height / ky;
  const ox = left / kx, oy = top / ky;
  for (let y = 0; y < info.height; y++) {
    const fy = Math.min(h - 1, Math.max(0, oy + (y + 0.5) * sy - 0.5));
    const iy = Math.min(h - 2, Math.floor(fy)), ty = fy - iy;
    for (let x = 0; x < info.width; x++) {
      const fx = Math.min(w - 1, Math.max(0, ox + (x + 0.5) * sx - 0.5));
      const ix = Math.min(w - 2, Math.floor(fx)), tx = fx - ix;
      const v =
        (mask[iy * w + ix] * (1 - tx) + mask[iy * w + ix + 1] * tx) * (1 - ty) +
        (mask[(iy + 1) * w + ix] * (1 - tx) + mask[(iy + 1) * w + ix + 1] * tx) * ty;
      if (v < 0.5) out.fill(255, (y * info.width + x) * 3, (y * info.width + x) * 3 + 3);
    }
  }
  return { image: { data: out, width: info.width, height: info.height }, cut: encodeCut(mask, w, h) };
}

/** A cut (1 = pin) as its size and the lengths of its alternating runs, background first (16 bits each). */
function encodeCut(mask: Uint8Array, w: number, h: number): Uint8Array {
  const runs: number[] = [w, h];
  let value = 0, run = 0;
  for (let i = 0; i < mask.length; i++) {
    if (mask[i] === value) run++;
    else {
      runs.push(run);
      value = mask[i];
      run = 1;
    }
  }
  runs.push(run);
  const out = new Uint8Array(runs.length * 2);
  const dv = new DataView(out.buffer);
  runs.forEach((r, k) => dv.setUint16(k * 2, r, true));
  return out;
}

function decodeCut(bytes: Uint8Array): { mask: Uint8Array; w: number; h: number } | null {
  if (bytes.length < 6) return null;
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const w = dv.getUint16(0, true), h = dv.getUint16(2, true);
  const mask = new Uint8Array(w * h);
  let at = 0, value = 0;
  for (let k = 4; k + 1 < bytes.length && at < mask.length; k += 2, value ^= 1) {
    const run = dv.getUint16(k, true);
    if (value) mask.fill(1, at, Math.min(mask.length, at + run));
    at += run;
  }
  return w >= 2 && h >= 2 ? { mask, w, h } : null;
}

/** A photo with a shorter side below this (at the cut's size) is used as it is. */
const CUT_MIN_SIDE = 16;

/** The pin in a small photo (1 = pin), or null when GrabCut finds nothing pin-sized. */
function cutPin(cv: CV, img: RawImage): Uint8Array | null {
  const { width: w, height: h } = img;
  // GrabCut needs a frame with a border around its rectangle; a photo this small holds no pin to cut
  if (Math.min(w, h) < CUT_MIN_SIDE) return null;
  const src = new cv.Mat(h, w, cv.CV_8UC3);
  src.data.set(img.data);
  const mask = new cv.Mat();
  const bgd = new cv.Mat();
  const fgd = new cv.Mat();
  try {
    const ix = Math.round(w * CUT_INSET), iy = Math.round(h * CUT_INSET);
    cv.setRNGSeed(1);
    cv.grabCut(src, mask, new cv.Rect(ix, iy, w - 2 * ix, h - 2 * iy), bgd, fgd, CUT_ROUNDS, cv.GC_INIT_WITH_RECT);
    const m = mask.data;
    const n = w * h;
    const fg = new Uint8Array(n);
    for (let i = 0; i < n; i++) fg[i] = m[i] === cv.GC_FGD || m[i] === cv.GC_PR_FGD ? 1 : 0;
    // the largest 4-connected piece
    const label = new Int32Array(n);
    const stack = new Int32Array(n);
    let best = 0, bestSize = 0, next = 0;
    for (let s = 0; s < n; s++) {
      if (!fg[s] || label[s]) continue;
      next++;
      let top = 0, size = 0;
      label[s] = next;
      stack[top++] = s;
      while (top) {
        const i = stack[--top];
        size++;
        const x = i % w;
        for (const k of [x > 0 ? i - 1 : -1, x < w - 1 ? i + 1 : -1, i - w, i + w])
          if (k >= 0 && k < n && fg[k] && !label[k]) {
            label[k] = next;
            stack[top++] = k;
          }
      }
      if (size > bestSize) {
        bestSize = size;
        best = next;
      }
    }
    if (bestSize < n * CUT_MIN_AREA || bestSize > n * CUT_MAX_AREA) return null;
    // its holes filled: everything not reachable from the border outside it
    const outside = new Uint8Array(n);
    let top = 0;
    const seed = (i: number) => {
      if (label[i] !== best && !outside[i]) {
        outside[i] = 1;
        stack[top++] = i;
      }
    };
    for (let x = 0; x < w; x++) {
      seed(x);
      seed((h - 1) * w + x);
    }
    for (let y = 0; y < h; y++) {
      seed(y * w);
      seed(y * w + w - 1);
    }
    while (top) {
      const i = stack[--top];
      const x = i % w;
      if (x > 0) seed(i - 1);
      if (x < w - 1) seed(i + 1);
      if (i >= w) seed(i - w);
      if (i + w < n) seed(i + w);
    }
    const pin = new Uint8Array(n);
    for (let i = 0; i < n; i++) pin[i] = outside[i] ? 0 : 1;
    return pin;
  } finally {
    src.delete();
    mask.delete();
    bgd.delete();
    fgd.delete();
  }
}

/** The grayscale the engine works on: (77 R + 150 G + 29 B) >> 8, in WebAssembly SIMD (`grayscale`). */
export function toGray(img: RawImage): Uint8Array {
  return grayscale(img.data, img.width * img.height);
}

export interface OrbResult {
  points: Float32Array;
  desc: Uint8Array;
}

export interface OrbParams {
  nfeatures: number;
  fastThreshold: number;
  nlevels: number;
}

/** ORB finds no keypoint within this many pixels of an image's edge (its edgeThreshold). */
const ORB_EDGE = 31;

/** An image (or pyramid level) too thin to hold a keypoint: OpenCV would find none, or throw when its levels shrink to nothing. */
function tooThinForOrb(width: number, height: number): boolean {
  return Math.min(width, height) <= 2 * ORB_EDGE;
}

/**
 * ORB's keypoints and descriptors. Over a pyramid of several levels, OpenCV's ORB at once (`openCvOrb`):
 * the references' features are extracted so. On one level (each level of `runOrbLevels`, the photo's
 * ORB shared with the worker), OpenCV finds the keypoints (`detect`) and brief.wat describes them, byte
 * for byte as OpenCV would, in a fifth of the time (OpenCV smooths each level without SIMD).
 */
export function runOrb(cv: CV, gray: Uint8Array, width: number, height: number, p: OrbParams): OrbResult {
  if (p.nlevels > 1) return openCvOrb(cv, gray, width, height, p);
  if (tooThinForOrb(width, height)) return { points: new Float32Array(0), desc: new Uint8Array(0) };
  const mat = new cv.Mat(height, width, cv.CV_8UC1);
  const mask = new cv.Mat();
  const kps = new cv.KeyPointVector();
  const orb = new cv.ORB(p.nfeatures, 1.2, 1, ORB_EDGE, 0, 2, cv.ORB_HARRIS_SCORE, 31, p.fastThreshold);
  try {
    mat.data.set(gray);
    (orb as unknown as Feature2DCalls).detect(mat, kps, mask);
    const n = kps.size();
    const points = new Float32Array(n * 2);
    const keypoints: Keypoint[] = [];
    for (let i = 0; i < n; i++) {
      const kp = kps.get(i) as { pt: { x: number; y: number }; angle: number };
      points[i * 2] = kp.pt.x;
      points[i * 2 + 1] = kp.pt.y;
      keypoints.push({ x: kp.pt.x, y: kp.pt.y, angle: kp.angle });
    }
    const desc = orbDescriptors(cv, gray, width, height, keypoints);
    if (desc) return { points, desc };
  } finally {
    mat.delete();
    mask.delete();
    kps.delete();
    orb.delete();
  }
  return openCvOrb(cv, gray, width, height, p); // the pattern could not be read from this OpenCV
}

/** OpenCV's ORB over the whole pyramid at once (`detectAndCompute`), keypoints and descriptors. */
export function openCvOrb(cv: CV, gray: Uint8Array, width: number, height: number, p: OrbParams): OrbResult {
  if (tooThinForOrb(width, height)) return { points: new Float32Array(0), desc: new Uint8Array(0) };
  const mat = new cv.Mat(height, width, cv.CV_8UC1);
  const mask = new cv.Mat();
  const kps = new cv.KeyPointVector();
  const desc = new cv.Mat();
  const orb = new cv.ORB(p.nfeatures, 1.2, p.nlevels, ORB_EDGE, 0, 2, cv.ORB_HARRIS_SCORE, 31, p.fastThreshold);
  try {
    mat.data.set(gray);
    orb.detectAndCompute(mat, mask, kps, desc);
    const n = desc.rows;
    const points = new Float32Array(n * 2);
    for (let i = 0; i < n; i++) {
      const kp = kps.get(i) as { pt: { x: number; y: number } };
      points[i * 2] = kp.pt.x;
      points[i * 2 + 1] = kp.pt.y;
    }
    const d = new Uint8Array(n * DESC_BYTES);
    if (n > 0) d.set(desc.data.subarray(0, n * DESC_BYTES));
    return { points, desc: d };
  } finally {
    mat.delete();
    mask.delete();
    kps.delete();
    desc.delete();
    orb.delete();
  }
}

/** The scale factor between ORB's pyramid levels, kept by OpenCV as a float. */
const ORB_SCALE = Math.fround(1.2);

/** How OpenCV's ORB shares `nfeatures` among its pyramid levels (in float arithmetic, as it does). */
export function orbLevelFeatures(nfeatures: number, nlevels: number): number[] {
  const f = Math.fround;
  const factor = f(1 / ORB_SCALE);
  let desired = f(f(nfeatures * f(1 - factor)) / f(1 - f(Math.pow(factor, nlevels))));
  const out: number[] = [];
  let sum = 0;
  for (let level = 0; level < nlevels - 1; level++) {
    out.push(cvRound(desired));
    sum += out[level];
    desired = f(desired * factor);
  }
  out.push(Math.max(nfeatures - sum, 0));
  return out;
}

/**
 * ORB of some levels of the pyramid only. OpenCV's ORB finds, ranks and describes the keypoints of
 * each level on its own, so the levels can be computed apart (on two threads) and put together in
 * level order: the same keypoints and descriptors, in the same order, as OpenCV's ORB with `p.nlevels`
 * levels (`openCvOrb`; checked by the unit tests). Each level is the one before it resized as ORB resizes it
 * (linear, exact, to the original size over the level's scale: brief.wat's kernel, OpenCV's bytes), and
 * its keypoints are scaled back.
 */
export function runOrbLevels(cv: CV, gray: Uint8Array, width: number, height: number, p: OrbParams, levels: number[]): OrbResult {
  const perLevel = orbLevelFeatures(p.nfeatures, p.nlevels);
  const last = Math.max(...levels);
  const parts: OrbResult[] = [];
  let prev = { data: gray, w: width, h: height };
  for (let level = 0; level <= last; level++) {
    const scale = Math.fround(Math.pow(ORB_SCALE, level));
    if (level > 0) {
      // as OpenCV's ORB sizes a level: times the float inverse of its scale (dividing by the scale
      // rounds the other way for some sizes, 33 of 63..1024: a level one pixel wider than OpenCV's)
      const inverse = Math.fround(1 / scale);
      const w = cvRound(Math.fround(width * inverse)), h = cvRound(Math.fround(height * inverse));
      // the levels only shrink: once one is too thin, so are all after it
      if (tooThinForOrb(w, h)) break;
      prev = { data: shrinkLevel(cv, prev.data, prev.w, prev.h, w, h), w, h };
    }
    if (!levels.includes(level)) continue;
    const one = runOrb(cv, prev.data, prev.w, prev.h, { nfeatures: perLevel[level], fastThreshold: p.fastThreshold, nlevels: 1 });
    for (let i = 0; i < one.points.length; i++) one.points[i] = Math.fround(one.points[i] * scale);
    parts.push(one);
  }
  return concatOrb(parts);
}

/** A pyramid level made from the one before it as ORB makes it: OpenCV's INTER_LINEAR_EXACT resize (brief.wat's, or OpenCV's own). */
function shrinkLevel(cv: CV, gray: Uint8Array, w: number, h: number, W: number, H: number): Uint8Array {
  const fast = orbShrink(gray, w, h, W, H);
  if (fast) return fast;
  const src = new cv.Mat(h, w, cv.CV_8UC1);
  const dst = new cv.Mat();
  try {
    src.data.set(gray);
    cv.resize(src, dst, new cv.Size(W, H), 0, 0, cv.INTER_LINEAR_EXACT);
    return new Uint8Array(dst.data);
  } finally {
    src.delete();
    dst.delete();
  }
}

/** Keypoints and descriptors of several ORB results, one after the other. */
export function concatOrb(parts: OrbResult[]): OrbResult {
  const points = new Float32Array(parts.reduce((n, r) => n + r.points.length, 0));
  const desc = new Uint8Array(parts.reduce((n, r) => n + r.desc.length, 0));
  let p = 0, d = 0;
  for (const r of parts) {
    points.set(r.points, p);
    desc.set(r.desc, d);
    p += r.points.length;
    d += r.desc.length;
  }
  return { points, desc };
}

function convexHull(points: Float32Array): Float32Array {
  const hull = convexHullOrder(points);
  const out = new Float32Array(hull.length * 2);
  hull.forEach((i, k) => {
    out[k * 2] = points[i * 2];
    out[k * 2 + 1] = points[i * 2 + 1];
  });
  return out;
}

/** Pin silhouette on the white reference background: hull of clearly non-white pixels. */
function pinHull(img: RawImage): Float32Array {
  const pts: number[] = [];
  const { data, width, height } = img;
  const step = 2;
  for (let y = 0; y < height; y += step) {
    let first = -1;
    let last = -1;
    for (let x = 0; x < width; x++) {
      const j = (y * width + x) * 3;
      const r = data[j], g = data[j + 1], b = data[j + 2];
      const mx = Math.max(r, g, b), mn = Math.min(r, g, b);
      if (mn < 170 || mx - mn > 40) {
        if (first < 0) first = x;
        last = x;
      }
    }
    if (first >= 0) pts.push(first, y, last, y);
  }
  if (pts.length < 6) return new Float32Array([0, 0, width, 0, width, height, 0, height]);
  return convexHull(new Float32Array(pts));
}

const MAGIC = 0x31584450; // "PDX1": header of 6 words, no layout
const MAGIC_V2 = 0x32584450; // "PDX2": a 7th word, the layout's length, and the layout after the thumbnail
const MAGIC_V3 = 0x33584450; // "PDX3": an 8th word, the cut's length, and the cut after the layout
const MAGIC_V4 = 0x34584450; // "PDX4": a 9th word, the text lines' length, and the lines after the cut
const MAGIC_V5 = 0x35584450; // "PDX5": a 10th word, the appearance vector's length, and the vector after the lines
const HEADER_V1 = 6 * 4;
const HEADER_V2 = 7 * 4;
const HEADER_V3 = 8 * 4;
const HEADER_V4 = 9 * 4;
const HEADER_V5 = 10 * 4;

export async function extractFeaturesImpl(image: Buffer | Uint8Array): Promise<Uint8Array> {
  const cv = await getCV();
  const { image: img, cut } = await decodeReference(cv, image);
  const gray = toGray(img);
  const orb = runOrb(cv, gray, img.width, img.height, { nfeatures: 1000, fastThreshold: 12, nlevels: 8 });
  const hull = pinHull(img);
  const layout = encodeLayout(referenceLayout(cv, img, gray), img.width, img.height);
  const text = encodeTextLines(await findTextLines(cv, img));
  const look = await referenceAppearance(cv, img, hull);
  const lookBytes = look ? new Uint8Array(look.buffer, look.byteOffset, look.byteLength) : new Uint8Array(0);
  const scale = THUMB_SIDE / Math.max(img.width, img.height);
  const thumb = await sharp(Buffer.from(img.data.buffer, img.data.byteOffset, img.data.length), {
    raw: { width: img.width, height: img.height, channels: 3 },
  })
    .resize(Math.round(img.width * scale), Math.round(img.height * scale))
    .jpeg({ quality: 92 })
    .toBuffer();
  const n = orb.points.length / 2;
  const h = hull.length / 2;
  const headerBytes = HEADER_V5;
  const size = headerBytes + n * 8 + n * DESC_BYTES + h * 8 + thumb.length + layout.length + cut.length + text.length + lookBytes.length;
  const out = new Uint8Array(size);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, MAGIC_V5, true);
  dv.setUint32(4, img.width, true);
  dv.setUint32(8, img.height, true);
  dv.setUint32(12, n, true);
  dv.setUint32(16, h, true);
  dv.setUint32(20, thumb.length, true);
  dv.setUint32(24, layout.length, true);
  dv.setUint32(28, cut.length, true);
  dv.setUint32(32, text.length, true);
  dv.setUint32(36, lookBytes.length, true);
  let off = headerBytes;
  for (let i = 0; i < n * 2; i++, off += 4) dv.setFloat32(off, orb.points[i], true);
  out.set(orb.desc, off);
  off += n * DESC_BYTES;
  for (let i = 0; i < h * 2; i++, off += 4) dv.setFloat32(off, hull[i], true);
  out.set(thumb, off);
  out.set(layout, off + thumb.length);
  out.set(cut, off + thumb.length + layout.length);
  out.set(text, off + thumb.length + layout.length + cut.length);
  out.set(lookBytes, off + thumb.length + layout.length + cut.length + text.length);
  return out;
}

/** The header of a feature blob; throws on anything else. cutLength is -1 before PDX3 (no cut stored). */
function readHeader(buf: Uint8Array): { dv: DataView; header: number; width: number; height: number; n: number; h: number; thumbLength: number; layoutLength: number; cutLength: number; textLength: number; lookLength: number } {
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const magic = buf.byteLength >= HEADER_V1 ? dv.getUint32(0, true) : 0;
  const header = magic === MAGIC ? HEADER_V1 : magic === MAGIC_V2 ? HEADER_V2 : magic === MAGIC_V3 ? HEADER_V3 : magic === MAGIC_V4 ? HEADER_V4 : magic === MAGIC_V5 ? HEADER_V5 : 0;
  if (!header || buf.byteLength < header) throw new Error("Unsupported pin feature blob");
  return {
    dv,
    header,
    width: dv.getUint32(4, true),
    height: dv.getUint32(8, true),
    n: dv.getUint32(12, true),
    h: dv.getUint32(16, true),
    thumbLength: dv.getUint32(20, true),
    layoutLength: header >= HEADER_V2 ? dv.getUint32(24, true) : 0,
    cutLength: header >= HEADER_V3 ? dv.getUint32(28, true) : -1,
    textLength: header >= HEADER_V4 ? dv.getUint32(32, true) : 0,
    lookLength: header >= HEADER_V5 ? dv.getUint32(36, true) : 0,
  };
}

/** Byte offset of the thumbnail in a blob of n points and h hull points (header, points, descriptors, hull). */
function thumbOffset(header: number, n: number, h: number): number {
  return header + n * 8 + n * DESC_BYTES + h * 8;
}

/**
 * The parts of a feature blob. The descriptors and the thumbnail are views of `buf`: a caller that
 * keeps them beyond the blob's life copies what it keeps.
 */
export function decodeFeatures(buf: Uint8Array): DecodedFeatures {
  const { dv, header, width, height, n, h, thumbLength, layoutLength, cutLength, textLength, lookLength } = readHeader(buf);
  let off = header;
  const points = new Float32Array(n * 2);
  for (let i = 0; i < n * 2; i++, off += 4) points[i] = dv.getFloat32(off, true);
  const desc = buf.subarray(off, off + n * DESC_BYTES);
  off += n * DESC_BYTES;
  const hull = new Float32Array(h * 2);
  for (let i = 0; i < h * 2; i++, off += 4) hull[i] = dv.getFloat32(off, true);
  const thumb = buf.subarray(off, off + thumbLength);
  const layout = buf.subarray(off + thumbLength, off + thumbLength + layoutLength);
  const at = off + thumbLength + layoutLength;
  const cut = cutLength < 0 ? null : buf.subarray(at, at + cutLength);
  const textAt = at + Math.max(0, cutLength);
  const text = decodeTextLines(buf.subarray(textAt, textAt + textLength));
  // copied byte by byte: a Float32Array needs 4-byte alignment, which neither the blob's layout nor a
  // Buffer read from the database (a view of a larger pool) promises
  const appearance = lookLength > 0 ? new Float32Array(Math.floor(lookLength / 4)) : null;
  if (appearance) new Uint8Array(appearance.buffer).set(buf.subarray(textAt + textLength, textAt + textLength + appearance.length * 4));
  return { width, height, points, desc, hull, thumb, layout, cut, text, appearance };
}

/** Only the thumbnail (JPEG) of a feature blob, copied out of it. */
export function featureThumbnail(buf: Uint8Array): Uint8Array {
  const { header, n, h, thumbLength } = readHeader(buf);
  const off = thumbOffset(header, n, h);
  return buf.slice(off, off + thumbLength);
}

/** Only the reference's layout of a feature blob (empty in a PDX1 blob), copied out of it. */
export function featureLayout(buf: Uint8Array): Uint8Array {
  const { header, n, h, thumbLength, layoutLength } = readHeader(buf);
  const off = thumbOffset(header, n, h) + thumbLength;
  return buf.slice(off, off + layoutLength);
}

/** Only the stored cut of a feature blob (null before PDX3: the reference is cut again), copied out of it. */
export function featureCut(buf: Uint8Array): Uint8Array | null {
  const { header, n, h, thumbLength, layoutLength, cutLength } = readHeader(buf);
  const off = thumbOffset(header, n, h) + thumbLength + layoutLength;
  return cutLength < 0 ? null : buf.slice(off, off + cutLength);
}
