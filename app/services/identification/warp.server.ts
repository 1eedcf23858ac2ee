// OpenCV's warpPerspective (bilinear, constant border), byte for byte, in WebAssembly (`warp.wat`).
// OpenCV's build for WebAssembly has no SIMD: its warp of a 1024 x 768 photo onto a 512 px reference
// took about 4.4 ms, and the nearest-neighbour warp of a plane of 255s that marks where the photo
// covers the frame about 4 ms more. Our own warp marks the cover in the same pass: in JavaScript it
// took about 3.2 ms; the kernel takes 15-25% less than the JavaScript (measured side by side in a
// slower hour: 5.1-5.3 against 5.7-8.6 ms; app/services/identification/README.md, "Benchmarks"). It is
// OpenCV's own algorithm, so that every warped pixel, and so every answer, stays the same:
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
// The source is copied into the kernel's memory once and found there again by identity: the photo is
// warped onto several references, and the engine never changes an image after making it.
// A unit test compares the warps with OpenCV's on random images and homographies.
import { invert3 } from "./geometry.server";
import { WARP_WASM } from "./warp-wasm";
import { threadKernel } from "./wasm.server";

interface WarpExports {
  warp(src: number, sw: number, sh: number, cn: number, dst: number, W: number, Hh: number, bw: number, bh: number,
    near: number, mask: number, region: number, m: number): void;
}

/** The thread's instance, in a memory of its own (shared: growing it detaches no buffer). */
const warpKernel = threadKernel<WarpExports>(WARP_WASM, 16);
/** Where the inverse homography (nine doubles) and the source lie in the kernel's memory. */
const M_AT = 0;
const SRC_AT = 128;
/** The source now at SRC_AT. */
let placed: Uint8Array | null = null;

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
  const { data, width: sw, height: sh, channels: cn } = src;
  const mask = nearest === "cover" ? null : (nearest ?? null);
  // OpenCV's blocks: BLOCK_SZ = 32, so 16 rows of 64 pixels (fewer in a narrow or short frame)
  let bh = Math.min(16, Hh);
  const bw = Math.min(Math.floor(1024 / bh), W);
  bh = Math.min(Math.floor(1024 / bw), Hh);
  const n = W * Hh;
  const align = (v: number) => (v + 15) & ~15;
  // the source first, where the next warp of the same image finds it; then the rest
  const srcBytes = align(sw * sh * cn);
  const maskAt = SRC_AT + srcBytes;
  const regionAt = align(maskAt + (mask ? sw * sh : 0));
  const dstAt = align(regionAt + (region ? n : 0));
  const nearAt = align(dstAt + n * cn);
  const { memory, exports } = warpKernel(nearAt + (nearest ? n : 0));
  const heap = new Uint8Array(memory.buffer);
  if (placed !== data) {
    heap.set(data.subarray(0, sw * sh * cn), SRC_AT);
    placed = data;
  }
  new Float64Array(memory.buffer, M_AT, 9).set(invert3(H));
  if (mask) heap.set(mask.subarray(0, sw * sh), maskAt);
  if (region) heap.set(region.subarray(0, n), regionAt);
  heap.fill(0, dstAt, nearAt + (nearest ? n : 0));
  exports.warp(SRC_AT, sw, sh, cn, dstAt, W, Hh, bw, bh, nearest ? nearAt : 0, mask ? maskAt : 0, region ? regionAt : 0, M_AT);
  return { pixels: heap.slice(dstAt, dstAt + n * cn), nearest: nearest ? heap.slice(nearAt, nearAt + n) : null };
}
