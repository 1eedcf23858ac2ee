// Image decoding, ORB extraction and the binary format of PinFeatures.
import sharp from "sharp";
import { getCV, type CV } from "./opencv.server";
import { encodeLayout, referenceLayout } from "./detail.server";

export const REF_SIDE = 512; // reference frame: longest side of the reference image
export const THUMB_SIDE = 256; // stored colour thumbnail for aligned comparison
export const DESC_BYTES = 32;

export interface RawImage {
  data: Uint8Array; // RGB, 3 bytes per pixel
  width: number;
  height: number;
}

export interface DecodedFeatures {
  width: number; // of the reference frame
  height: number;
  points: Float32Array; // x,y pairs in the reference frame
  desc: Uint8Array; // 32 bytes per point (ORB); decodeFeatures returns a view of the blob
  hull: Float32Array; // x,y pairs: convex hull of the pin (reference frame)
  thumb: Uint8Array; // JPEG of the reference at THUMB_SIDE (reference frame scaled); also a view of the blob
  layout: Uint8Array; // the reference's layout (detail.server.ts, encodeLayout); a view, empty in a PDX1 blob
}

/** Decodes any image sharp reads into RGB, longest side at most maxSide. */
export async function decodeRGB(image: Buffer | Uint8Array, maxSide: number, upscaleTo?: number): Promise<RawImage> {
  const base = sharp(image, { failOn: "none" }).rotate();
  const meta = await base.metadata();
  const w0 = meta.autoOrient?.width ?? meta.width ?? 0;
  const h0 = meta.autoOrient?.height ?? meta.height ?? 0;
  let target = maxSide;
  const long = Math.max(w0, h0);
  if (long > 0 && long < maxSide) target = upscaleTo ? Math.min(upscaleTo, maxSide) : long;
  const { data, info } = await base
    .flatten({ background: "#ffffff" })
    .toColourspace("srgb")
    .resize({ width: target, height: target, fit: "inside", withoutEnlargement: !upscaleTo })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}

export function toGray(img: RawImage): Uint8Array {
  const n = img.width * img.height;
  const out = new Uint8Array(n);
  const d = img.data;
  for (let i = 0, j = 0; i < n; i++, j += 3) out[i] = (d[j] * 77 + d[j + 1] * 150 + d[j + 2] * 29) >> 8;
  return out;
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

export function runOrb(cv: CV, gray: Uint8Array, width: number, height: number, p: OrbParams): OrbResult {
  const mat = new cv.Mat(height, width, cv.CV_8UC1);
  const mask = new cv.Mat();
  const kps = new cv.KeyPointVector();
  const desc = new cv.Mat();
  const orb = new cv.ORB(p.nfeatures, 1.2, p.nlevels, 31, 0, 2, cv.ORB_HARRIS_SCORE, 31, p.fastThreshold);
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

function convexHull(points: Float32Array): Float32Array {
  const n = points.length / 2;
  const idx = Array.from({ length: n }, (_, i) => i);
  idx.sort((a, b) => points[a * 2] - points[b * 2] || points[a * 2 + 1] - points[b * 2 + 1]);
  const cross = (o: number, a: number, b: number) =>
    (points[a * 2] - points[o * 2]) * (points[b * 2 + 1] - points[o * 2 + 1]) -
    (points[a * 2 + 1] - points[o * 2 + 1]) * (points[b * 2] - points[o * 2]);
  const lower: number[] = [];
  for (const i of idx) {
    while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], i) <= 0) lower.pop();
    lower.push(i);
  }
  const upper: number[] = [];
  for (let k = idx.length - 1; k >= 0; k--) {
    const i = idx[k];
    while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], i) <= 0) upper.pop();
    upper.push(i);
  }
  const hull = lower.slice(0, -1).concat(upper.slice(0, -1));
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
const HEADER_V1 = 6 * 4;
const HEADER_V2 = 7 * 4;

export async function extractFeaturesImpl(image: Buffer | Uint8Array): Promise<Uint8Array> {
  const cv = await getCV();
  const img = await decodeRGB(image, REF_SIDE, REF_SIDE);
  const gray = toGray(img);
  const orb = runOrb(cv, gray, img.width, img.height, { nfeatures: 1000, fastThreshold: 12, nlevels: 8 });
  const hull = pinHull(img);
  const layout = encodeLayout(referenceLayout(cv, img, gray), img.width, img.height);
  const scale = THUMB_SIDE / Math.max(img.width, img.height);
  const thumb = await sharp(Buffer.from(img.data.buffer, img.data.byteOffset, img.data.length), {
    raw: { width: img.width, height: img.height, channels: 3 },
  })
    .resize(Math.round(img.width * scale), Math.round(img.height * scale))
    .jpeg({ quality: 92 })
    .toBuffer();
  const n = orb.points.length / 2;
  const h = hull.length / 2;
  const headerBytes = HEADER_V2;
  const size = headerBytes + n * 8 + n * DESC_BYTES + h * 8 + thumb.length + layout.length;
  const out = new Uint8Array(size);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, MAGIC_V2, true);
  dv.setUint32(4, img.width, true);
  dv.setUint32(8, img.height, true);
  dv.setUint32(12, n, true);
  dv.setUint32(16, h, true);
  dv.setUint32(20, thumb.length, true);
  dv.setUint32(24, layout.length, true);
  let off = headerBytes;
  for (let i = 0; i < n * 2; i++, off += 4) dv.setFloat32(off, orb.points[i], true);
  out.set(orb.desc, off);
  off += n * DESC_BYTES;
  for (let i = 0; i < h * 2; i++, off += 4) dv.setFloat32(off, hull[i], true);
  out.set(thumb, off);
  out.set(layout, off + thumb.length);
  return out;
}

/** The header of a feature blob; throws on anything else. */
function readHeader(buf: Uint8Array): { dv: DataView; header: number; width: number; height: number; n: number; h: number; thumbLength: number; layoutLength: number } {
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const magic = buf.byteLength >= HEADER_V1 ? dv.getUint32(0, true) : 0;
  if ((magic !== MAGIC && magic !== MAGIC_V2) || (magic === MAGIC_V2 && buf.byteLength < HEADER_V2)) throw new Error("Unsupported pin feature blob");
  return {
    dv,
    header: magic === MAGIC_V2 ? HEADER_V2 : HEADER_V1,
    width: dv.getUint32(4, true),
    height: dv.getUint32(8, true),
    n: dv.getUint32(12, true),
    h: dv.getUint32(16, true),
    thumbLength: dv.getUint32(20, true),
    layoutLength: magic === MAGIC_V2 ? dv.getUint32(24, true) : 0,
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
  const { dv, header, width, height, n, h, thumbLength, layoutLength } = readHeader(buf);
  let off = header;
  const points = new Float32Array(n * 2);
  for (let i = 0; i < n * 2; i++, off += 4) points[i] = dv.getFloat32(off, true);
  const desc = buf.subarray(off, off + n * DESC_BYTES);
  off += n * DESC_BYTES;
  const hull = new Float32Array(h * 2);
  for (let i = 0; i < h * 2; i++, off += 4) hull[i] = dv.getFloat32(off, true);
  const thumb = buf.subarray(off, off + thumbLength);
  const layout = buf.subarray(off + thumbLength, off + thumbLength + layoutLength);
  return { width, height, points, desc, hull, thumb, layout };
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
