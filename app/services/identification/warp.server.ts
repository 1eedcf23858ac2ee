// The photo's perspective warp onto a reference frame: OpenCV's warpPerspective (bilinear, constant
// border 0), and beside it OpenCV's nearest-neighbour warp of a one-byte mask of the source (or of a
// plane of 255s: where the photo covers the frame). It was a kernel of our own (warp.wat, OpenCV's
// bytes in one pass); measured per photo, OpenCV's calls add about 0-4% of a photo's time, so they
// are made instead, with the same bytes (README, "Kernels against OpenCV").
// With a `region`, only the frame's pixels it marks are kept (the rest are 0): the colour check reads
// the warped thumbnail only on and about the pin. Only the part of the source that the frame reads
// is copied for OpenCV (`sourcePart`), with the same bytes out: a 256 px thumbnail's warp from a
// 1,024 px photo took 2.9 ms with the whole photo and its cover copied, 1.7 with the part.
import { frameCornersInSource, mul3 } from "./geometry.server";
import type { CV } from "./opencv.server";

export interface WarpSource {
  /** pixels, `channels` bytes each, row after row */
  data: Uint8Array;
  width: number;
  height: number;
  channels: number;
}

export interface Warped {
  /** the source warped onto the frame, `channels` bytes a pixel */
  pixels: Uint8Array;
  /** with `nearest`: that mask warped (nearest neighbour), 0 where the frame's pixel is not in the source */
  nearest: Uint8Array | null;
}

/** One OpenCV warp of an 8-bit image of `cn` channels onto a W x Hh frame. */
function warpWith(cv: CV, data: Uint8Array, sw: number, sh: number, cn: number, Hm: InstanceType<CV["Mat"]>, W: number, Hh: number, flags: number): Uint8Array {
  const src = new cv.Mat(sh, sw, cn === 1 ? cv.CV_8UC1 : cv.CV_8UC3);
  const out = new cv.Mat();
  try {
    src.data.set(data.subarray(0, sw * sh * cn));
    cv.warpPerspective(src, out, Hm, new cv.Size(W, Hh), flags, cv.BORDER_CONSTANT, new cv.Scalar(0, 0, 0, 0));
    return new Uint8Array(out.data);
  } finally {
    src.delete();
    out.delete();
  }
}

/**
 * The part of a sw x sh source that a W x Hh frame reads through H (source -> frame), 2 pixels wider
 * each way for the bilinear neighbours and within the source: the box of the frame's corners taken back
 * into the source (`frameCornersInSource`). Null when that box is most of the source, or when the
 * frame crosses H's horizon (the corners' box would not hold every pixel's place).
 */
function sourcePart(H: number[], W: number, Hh: number, sw: number, sh: number): { x: number; y: number; w: number; h: number } | null {
  const corners = frameCornersInSource(H, W, Hh);
  if (!corners || !corners.every(([sx, sy]) => Number.isFinite(sx) && Number.isFinite(sy))) return null;
  const xs = corners.map(([sx]) => sx), ys = corners.map(([, sy]) => sy);
  const x = Math.max(0, Math.floor(Math.min(...xs)) - 2), y = Math.max(0, Math.floor(Math.min(...ys)) - 2);
  const w = Math.min(sw, Math.ceil(Math.max(...xs)) + 3) - x, h = Math.min(sh, Math.ceil(Math.max(...ys)) + 3) - y;
  if (w < 1 || h < 1 || w * h > SOURCE_PART_SHARE * sw * sh) return null;
  return { x, y, w, h };
}

/** A source is copied for OpenCV only where the frame reads it, when that is at most this share of it. */
const SOURCE_PART_SHARE = 0.6;

/** Rows x..x+w of rows y..y+h of an image `sw` wide, `cn` bytes a pixel. */
function cropped(data: Uint8Array, sw: number, cn: number, r: { x: number; y: number; w: number; h: number }): Uint8Array {
  const out = new Uint8Array(r.w * r.h * cn);
  for (let row = 0; row < r.h; row++) {
    const from = ((r.y + row) * sw + r.x) * cn;
    out.set(data.subarray(from, from + r.w * cn), row * r.w * cn);
  }
  return out;
}

/**
 * `src` warped onto a W x Hh frame by H (source -> frame, row by row), as OpenCV's
 * warpPerspective(src, out, H, (W, Hh), INTER_LINEAR, BORDER_CONSTANT, 0) makes it; with `nearest`, also
 * OpenCV's INTER_NEAREST warp (BORDER_CONSTANT, 0) of that mask (one byte a source pixel), or of a plane
 * of 255s for "cover". With `region` (one byte a frame pixel), only the pixels it marks (not 0) are kept.
 */
export function warpPerspective(
  cv: CV,
  src: WarpSource,
  H: number[],
  W: number,
  Hh: number,
  nearest?: Uint8Array | "cover",
  region?: Uint8Array,
): Warped {
  // only the part of the source the frame reads is handed to OpenCV (a 1,024 px photo is 2.4 MB, its
  // cover 0.8 MB): the homography then starts from that part's corner
  const part = sourcePart(H, W, Hh, src.width, src.height);
  const { data, width: sw, height: sh, channels: cn } = part ? { ...src, data: cropped(src.data, src.width, src.channels, part), width: part.w, height: part.h } : src;
  const from = part ? mul3(H, [1, 0, part.x, 0, 1, part.y, 0, 0, 1]) : H;
  const Hm = cv.matFromArray(3, 3, cv.CV_64FC1, from);
  try {
    const pixels = warpWith(cv, data, sw, sh, cn, Hm, W, Hh, cv.INTER_LINEAR);
    const mask = nearest === "cover" ? new Uint8Array(sw * sh).fill(255) : nearest && part ? cropped(nearest, src.width, 1, part) : nearest;
    const near = mask ? warpWith(cv, mask, sw, sh, 1, Hm, W, Hh, cv.INTER_NEAREST) : null;
    if (region) {
      for (let i = 0; i < W * Hh; i++) {
        if (region[i]) continue;
        pixels.fill(0, i * cn, i * cn + cn);
        if (near) near[i] = 0;
      }
    }
    return { pixels, nearest: near };
  } finally {
    Hm.delete();
  }
}
