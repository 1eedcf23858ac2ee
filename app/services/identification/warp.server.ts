// The photo's perspective warp onto a reference frame: OpenCV's warpPerspective (bilinear, constant
// border 0), and beside it OpenCV's nearest-neighbour warp of a one-byte mask of the source (or of a
// plane of 255s: where the photo covers the frame). It was a kernel of our own (warp.wat, OpenCV's
// bytes in one pass); measured per photo, OpenCV's calls add about 0-4% of a photo's time, so they
// are made instead, with the same bytes (README, "Kernels against OpenCV").
// With a `region`, only the frame's pixels it marks are kept (the rest are 0): the colour check reads
// the warped thumbnail only on and about the pin.
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
  const { data, width: sw, height: sh, channels: cn } = src;
  const Hm = cv.matFromArray(3, 3, cv.CV_64FC1, H);
  try {
    const pixels = warpWith(cv, data, sw, sh, cn, Hm, W, Hh, cv.INTER_LINEAR);
    const mask = nearest === "cover" ? new Uint8Array(sw * sh).fill(255) : nearest;
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
