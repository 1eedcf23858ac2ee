// A reference's pixels as a photo's match reads them, decoded once and stored beside its features
// (`image_features.pixels`).
//
// The match compares the photo with its strongest candidates' colour thumbnails (THUMB_SIDE, stored
// as a JPEG in the features) and checks the strongest one in detail on its full-resolution grayscale
// reference (REF_SIDE, decoded from the stored image with its cut). Decoding those JPEGs on every
// photo took libvips little CPU (about 9 ms for a reference, a few for a thumbnail) but several hops
// through the thread pool, each answered only when the main thread was between two pieces of its
// own work: on the public set the reference reached the detail check about 22 ms after it was asked
// for, and the colour comparison waited about 16 ms for the thumbnails. Read from here they are ready
// at once (inflating both takes about 1.5 ms).
//
// The bytes are exactly those of the decoding path (`referencePixels` runs it), so answers do not
// change. Each image is stored with its rows differenced from the row above and deflated (node:zlib):
// about 68 KB for the grayscale and 63 KB for the thumbnail of a public-set reference, against 233
// and 174 KB raw. A blob that does not read, or whose size is not the reference's, is ignored: the
// match decodes the JPEGs as before. A reference whose letters are compared on a tint
// (detail.server.ts, `referenceTint`) keeps its projection on it here too, with the tint's axis. The
// pin's masks on the thumbnail (`thumbMasks`: a flood fill from its border, and that grown by 2 px)
// are kept too, deflated (a median of 1.1 KB): found again for each candidate of each photo, they
// took 3.6 ms of the main thread a photo.
import { deflateSync, inflateSync } from "node:zlib";
import { thumbMasks, type ThumbMasks } from "./compare.server";
import { decodeLayout, referenceLayout, tintedGray, type TintedGray } from "./detail.server";
import { decodeReference, decodeRGB, featureCut, featureLayout, featureThumbnail, THUMB_SIDE, toGray, type RawImage } from "./features.server";
import type { CV } from "./opencv.server";

const MAGIC_V1 = 0x31585052; // "RPX1": no tint
const MAGIC_V2 = 0x32585052; // "RPX2": no pin mask
const MAGIC = 0x33585052; // "RPX3"
const HEADER_V1 = 7 * 4; // magic, width, height, gray's deflated length, thumbnail's width, height, deflated length
const HEADER_V2 = 11 * 4; // ... and the tint's deflated length (0: none) and its axis (3 float32)
const HEADER = 12 * 4; // ... and the thumbnail's masks' deflated length (0: none)

/** A grayscale image, one byte per pixel. */
export interface GrayImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/** Each row minus the row above it (bytes, wrapping); the first row as it is. */
function differenced(data: Uint8Array, stride: number): Uint8Array {
  const out = new Uint8Array(data.length);
  out.set(data.subarray(0, stride));
  for (let i = stride; i < data.length; i++) out[i] = data[i] - data[i - stride];
  return out;
}

/**
 * Undoes `differenced` in place. Four bytes at a time when the rows allow it (a thumbnail's always do):
 * the low seven bits of each byte added, and the top bit of each sum set by exclusive or, so that
 * no carry crosses into the next byte.
 */
export function summed(data: Uint8Array, stride: number): Uint8Array {
  if (stride % 4 === 0 && data.byteOffset % 4 === 0 && data.length % 4 === 0) {
    const words = new Int32Array(data.buffer, data.byteOffset, data.length >> 2);
    const step = stride >> 2;
    for (let i = step; i < words.length; i++) {
      const a = words[i], b = words[i - step];
      words[i] = ((a & 0x7f7f7f7f) + (b & 0x7f7f7f7f)) ^ ((a ^ b) & 0x80808080);
    }
    return data;
  }
  for (let i = stride; i < data.length; i++) data[i] += data[i - stride];
  return data;
}

/**
 * The stored form of a reference's grayscale, (when it has one) its decoded thumbnail with the pin's
 * masks on it (`thumbMasks`, one byte a pixel each) and (when its letters need one) its tint channel
 * (detail.server.ts, `referenceTint`).
 */
export function encodePixels(gray: GrayImage, thumb: RawImage | null, tinted?: TintedGray, masks?: ThumbMasks): Uint8Array {
  const g = deflateSync(differenced(gray.data, gray.width));
  const t = thumb ? deflateSync(differenced(thumb.data, thumb.width * 3)) : new Uint8Array(0);
  const c = tinted ? deflateSync(differenced(tinted.gray, tinted.width)) : new Uint8Array(0);
  const m = thumb && masks ? deflateSync(Buffer.concat([masks.pin, masks.around])) : new Uint8Array(0);
  const out = new Uint8Array(HEADER + g.length + t.length + c.length + m.length);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, MAGIC, true);
  dv.setUint32(4, gray.width, true);
  dv.setUint32(8, gray.height, true);
  dv.setUint32(12, g.length, true);
  dv.setUint32(16, thumb?.width ?? 0, true);
  dv.setUint32(20, thumb?.height ?? 0, true);
  dv.setUint32(24, t.length, true);
  dv.setUint32(28, c.length, true);
  (tinted?.tint ?? [0, 0, 0]).forEach((v, k) => dv.setFloat32(32 + 4 * k, v, true));
  dv.setUint32(44, m.length, true);
  out.set(g, HEADER);
  out.set(t, HEADER + g.length);
  out.set(c, HEADER + g.length + t.length);
  out.set(m, HEADER + g.length + t.length + c.length);
  return out;
}

function header(blob: Uint8Array) {
  if (blob.byteLength < HEADER_V1) return null;
  const dv = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  const magic = dv.getUint32(0, true);
  const start = magic === MAGIC ? HEADER : magic === MAGIC_V2 ? HEADER_V2 : magic === MAGIC_V1 ? HEADER_V1 : 0;
  if (start === 0 || blob.byteLength < start) return null;
  const tinted = start >= HEADER_V2; // (RPX2 on)
  const h = {
    start,
    width: dv.getUint32(4, true),
    height: dv.getUint32(8, true),
    grayLength: dv.getUint32(12, true),
    thumbWidth: dv.getUint32(16, true),
    thumbHeight: dv.getUint32(20, true),
    thumbLength: dv.getUint32(24, true),
    tintLength: tinted ? dv.getUint32(28, true) : 0,
    axis: tinted ? ([0, 1, 2].map((k) => dv.getFloat32(32 + 4 * k, true)) as [number, number, number]) : null,
    masksLength: start === HEADER ? dv.getUint32(44, true) : 0,
  };
  return h.start + h.grayLength + h.thumbLength + h.tintLength + h.masksLength === blob.byteLength ? h : null;
}

/**
 * The first four bytes of a blob of the current form. One of an earlier version (RPX1, before the
 * tint; RPX2, before the pin mask) still reads, without what it lacks, until the server's background
 * pass, which finds it by these bytes, makes it again.
 */
export const PIXELS_MAGIC = Buffer.alloc(4);
PIXELS_MAGIC.writeUInt32LE(MAGIC);

/** Inflates `bytes` to exactly `size` bytes, or null. */
function inflated(bytes: Uint8Array, size: number): Uint8Array | null {
  try {
    const out = inflateSync(bytes, { maxOutputLength: size + 1 });
    return out.length === size ? new Uint8Array(out.buffer, out.byteOffset, out.length) : null;
  } catch {
    return null;
  }
}

/** The stored grayscale reference, or null when the blob does not read or is not `width` x `height`. */
export function storedGray(blob: Uint8Array, width: number, height: number): Uint8Array | null {
  const h = header(blob);
  if (!h || h.width !== width || h.height !== height || width === 0 || height === 0) return null;
  const data = inflated(blob.subarray(h.start, h.start + h.grayLength), width * height);
  return data && summed(data, width);
}

/** The stored tint channel, or undefined when the blob has none, does not read or is not `width` x `height`. */
export function storedTint(blob: Uint8Array, width: number, height: number): TintedGray | undefined {
  const h = header(blob);
  if (!h || !h.axis || h.tintLength === 0 || h.width !== width || h.height !== height) return undefined;
  const at = h.start + h.grayLength + h.thumbLength;
  const data = inflated(blob.subarray(at, at + h.tintLength), width * height);
  return data ? { width, height, gray: summed(data, width), blurred: [], tint: h.axis } : undefined;
}

/** The stored decoded thumbnail, or null when the blob has none or does not read. */
export function storedThumb(blob: Uint8Array): RawImage | null {
  const h = header(blob);
  if (!h || h.thumbWidth === 0 || h.thumbHeight === 0) return null;
  const at = h.start + h.grayLength;
  const data = inflated(blob.subarray(at, at + h.thumbLength), h.thumbWidth * h.thumbHeight * 3);
  return data && { data: summed(data, h.thumbWidth * 3), width: h.thumbWidth, height: h.thumbHeight };
}

/**
 * The stored masks of the thumbnail's pin (`thumbMasks`), or null when the blob has none (an earlier
 * form) or does not read: the match then finds them on the thumbnail.
 */
export function storedThumbMasks(blob: Uint8Array): ThumbMasks | null {
  const h = header(blob);
  if (!h || h.masksLength === 0 || h.thumbWidth === 0 || h.thumbHeight === 0) return null;
  const at = h.start + h.grayLength + h.thumbLength + h.tintLength;
  const n = h.thumbWidth * h.thumbHeight;
  const both = inflated(blob.subarray(at, at + h.masksLength), 2 * n);
  return both && { pin: both.subarray(0, n), around: both.subarray(n) };
}

/**
 * Decodes a stored image's reference and its features' thumbnail as the match would (the reference
 * with the cut its features carry, the thumbnail at THUMB_SIDE) and returns their stored form.
 */
export async function referencePixels(cv: CV, image: Buffer | Uint8Array, features: Uint8Array): Promise<Uint8Array> {
  const { image: raw } = await decodeReference(cv, image, featureCut(features));
  const jpeg = featureThumbnail(features);
  const thumb = jpeg.length > 0 ? await decodeRGB(jpeg, THUMB_SIDE) : null;
  const gray = toGray(raw);
  // the letters as the match reads them: from the stored layout (found again for features without one)
  const stored = featureLayout(features);
  const layout = stored.length ? decodeLayout(stored, raw.width, raw.height) : referenceLayout(cv, raw, gray);
  return encodePixels({ data: gray, width: raw.width, height: raw.height }, thumb, tintedGray(raw, gray, layout.glyphs), thumb ? thumbMasks(thumb) : undefined);
}
