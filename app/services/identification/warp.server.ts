// OpenCV's warpPerspective (bilinear, constant border), byte for byte, in plain JavaScript.
// OpenCV's build for WebAssembly has no SIMD: its warp of a 1024 x 768 photo onto a 512 px reference
// took about 4.4 ms, and the nearest-neighbour warp of a plane of 255s that marks where the photo
// covers the frame about 4 ms more. Here the warp takes about 3.2 ms, and the cover is marked in the
// same pass; a 256 px colour thumbnail takes as long as OpenCV's (1.4 ms), and the photo is no longer
// copied into OpenCV's memory. Over HTTP the photos took 10-13 ms less each (paired, the
// same answers). It is OpenCV's own algorithm, so that every warped pixel, and so every answer, stays
// the same:
// - the inverse homography (`invert3`, which gives OpenCV's 3 x 3 inverse to the bit), taken in blocks
//   of 64 x 16 destination pixels as OpenCV does (each row of a block starts again from its left edge);
// - each source position in 1/32 px (INTER_BITS = 5), rounded half to even from doubles;
// - the bilinear weights as 15-bit integers (the 32 x 32 table's products, exact), rounded (+ 2^14) >> 15;
// - a source pixel outside the image counts as 0; a position a whole pixel outside gives 0.
// Alongside, in the same pass, OpenCV's INTER_NEAREST warp of a one-byte mask of the source (or of a
// plane of 255s: where the photo covers the frame): the source pixel nearest each position (its own
// division, rounded half to even), read off the 1/32 position except at a half pixel.
// With a `region`, only the frame's pixels it marks are made (the rest are 0): the colour check reads
// the warped thumbnail only on and about the pin, about half of its frame.
// A unit test compares them with OpenCV on random images and homographies.
import { invert3 } from "./geometry.server";

/** Adding and subtracting 1.5 * 2^52 rounds a double below 2^51 to an integer, ties to even (lrint). */
const ROUND = 6755399441055744;
const INT_MAX = 2147483647;
const INT_MIN = -2147483648;

/** OpenCV's saturate_cast<int>(double): rounded half to even, clamped to 32 bits. */
function toInt(v: number): number {
  return v > INT_MAX ? INT_MAX : v < INT_MIN ? INT_MIN : v + ROUND - ROUND;
}

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

/**
 * `src` warped onto a W x Hh frame by H (source -> frame, row by row), as OpenCV's
 * warpPerspective(src, out, H, (W, Hh), INTER_LINEAR, BORDER_CONSTANT, 0) makes it; with `nearest`, also
 * OpenCV's INTER_NEAREST warp (BORDER_CONSTANT, 0) of that mask (one byte a source pixel), or of a plane
 * of 255s for "cover". With `region` (one byte a frame pixel), only the pixels it marks (not 0) are made.
 */
export function warpPerspective(
  src: WarpSource,
  H: number[],
  W: number,
  Hh: number,
  nearest?: Uint8Array | "cover",
  region?: Uint8Array,
): Warped {
  const [m0, m1, m2, m3, m4, m5, m6, m7, m8] = invert3(H);
  const { data, width: sw, height: sh, channels: cn } = src;
  const pixels = new Uint8Array(W * Hh * cn);
  const near = nearest ? new Uint8Array(W * Hh) : null;
  const mask = nearest === "cover" ? null : nearest;
  const stride = sw * cn;
  // OpenCV's blocks: BLOCK_SZ = 32, so 16 rows of 64 pixels (fewer in a narrow or short frame)
  let bh = Math.min(16, Hh);
  const bw = Math.min(Math.floor(1024 / bh), W);
  bh = Math.min(Math.floor(1024 / bw), Hh);
  for (let y = 0; y < Hh; y += bh)
    for (let x = 0; x < W; x += bw) {
      const cols = Math.min(bw, W - x), rows = Math.min(bh, Hh - y);
      for (let y1 = 0; y1 < rows; y1++) {
        const X0 = m0 * x + m1 * (y + y1) + m2;
        const Y0 = m3 * x + m4 * (y + y1) + m5;
        const W0 = m6 * x + m7 * (y + y1) + m8;
        let o = (y + y1) * W + x;
        for (let x1 = 0; x1 < cols; x1++, o++) {
          if (region && !region[o]) continue;
          const w = W0 + m6 * x1;
          const xn = X0 + m0 * x1, yn = Y0 + m3 * x1;
          const k = w ? 32 / w : 0;
          const X = toInt(xn * k) | 0, Y = toInt(yn * k) | 0;
          if (near !== null) {
            // the nearest pixel is the 1/32 position rounded: below 16/32 down, above it up (the
            // position is 32 times the exact one to within far less than 1/64 px either way); at
            // 16/32 it takes OpenCV's own arithmetic
            let nx: number, ny: number;
            if ((X & 31) === 16 || (Y & 31) === 16) {
              const k1 = w ? 1 / w : 0;
              nx = toInt(xn * k1);
              ny = toInt(yn * k1);
            } else {
              nx = (X >> 5) + ((X & 31) >> 4);
              ny = (Y >> 5) + ((Y & 31) >> 4);
            }
            if (nx >= 0 && nx < sw && ny >= 0 && ny < sh) near[o] = mask ? mask[ny * sw + nx] : 255;
          }
          // (OpenCV keeps the whole pixel in a short: it differs from this only far outside the source)
          const sx = X >> 5, sy = Y >> 5;
          if (sx < -1 || sy < -1 || sx >= sw || sy >= sh) continue; // a whole pixel outside: 0
          const ax = X & 31, ay = Y & 31;
          const w00 = (32 - ax) * (32 - ay), w01 = ax * (32 - ay), w10 = (32 - ax) * ay, w11 = ax * ay;
          const i = sy * stride + sx * cn;
          if (sx >= 0 && sy >= 0 && sx < sw - 1 && sy < sh - 1) {
            if (cn === 1) pixels[o] = ((data[i] * w00 + data[i + 1] * w01 + data[i + sw] * w10 + data[i + sw + 1] * w11) * 32 + 16384) >> 15;
            else
              for (let c = 0; c < cn; c++)
                pixels[o * cn + c] =
                  ((data[i + c] * w00 + data[i + cn + c] * w01 + data[i + stride + c] * w10 + data[i + stride + cn + c] * w11) * 32 + 16384) >> 15;
            continue;
          }
          // on the source's edge: the neighbours outside it count as 0
          const left = sx >= 0, right = sx + 1 < sw, top = sy >= 0, bottom = sy + 1 < sh;
          for (let c = 0; c < cn; c++) {
            const p00 = left && top ? data[i + c] : 0;
            const p01 = right && top ? data[i + cn + c] : 0;
            const p10 = left && bottom ? data[i + stride + c] : 0;
            const p11 = right && bottom ? data[i + stride + cn + c] : 0;
            pixels[o * cn + c] = ((p00 * w00 + p01 * w01 + p10 * w10 + p11 * w11) * 32 + 16384) >> 15;
          }
        }
      }
    }
  return { pixels, nearest: near };
}
