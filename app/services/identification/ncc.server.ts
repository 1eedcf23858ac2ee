// The sums behind the detail check's correlations (`ncc.wat`), in WebAssembly SIMD. The images they read
// are copied into the kernel's memory once each (a detail check correlates hundreds of boxes of the same
// two images) and found there again by identity: the engine never changes an image after making it.
import { NCC_WASM } from "./ncc-wasm";
import { instantiate, kernelMemory, reserve } from "./wasm.server";

interface NccExports {
  setup(mask: number): void;
  shiftSums(photo: number, ref: number, stride: number, x0: number, y0: number, w: number, h: number,
    dx0: number, dx1: number, dy0: number, dy1: number, out: number): void;
}

/**
 * The images kept copied at once: past this, the copies start again from the first byte. A detail check
 * correlates 2-8 images of a 512 px reference frame (256 KB each, 64 KB at half size): 2 MB holds the
 * most used of them, and a copy made again costs about 20 microseconds. It is all the memory the
 * kernel keeps (a WebAssembly memory never shrinks; at 5,000 pins the server's peak is near 600 MB).
 */
const ARENA_BYTES = 2 << 20;
/** The most pixels summed in one call: their sums fit in 32 bits (255 * 255 * 32,768 < 2^31). */
const MAX_BOX_PIXELS = 32768;

interface Kernel {
  memory: WebAssembly.Memory;
  shiftSums: NccExports["shiftSums"];
  /** where the sums are written (a box's 2, and 3 per shift) */
  out: number;
  /** the arena: images from here on */
  base: number;
  top: number;
  /** the arena's generation: copies made in an earlier one are gone */
  generation: number;
  placed: WeakMap<Uint8Array, { generation: number; at: number }>;
}

let kernel: Kernel | null = null;
/** The most shifts searched at once: 8 px each way (ROW_SHIFT in detail.server.ts) */
const MAX_SHIFTS = 17 * 17;

function nccKernel(): Kernel {
  if (!kernel) {
    const memory = kernelMemory(16);
    const exports = instantiate<NccExports>(new WebAssembly.Module(Buffer.from(NCC_WASM, "base64")), memory);
    const masks = new Uint8Array(memory.buffer, 0, 17 * 16);
    for (let k = 0; k <= 16; k++) masks.fill(255, k * 16, k * 16 + k);
    exports.setup(0);
    const out = 17 * 16;
    const base = out + (2 + 3 * MAX_SHIFTS) * 4 + 16;
    kernel = { memory, shiftSums: exports.shiftSums, out, base, top: base, generation: 0, placed: new WeakMap() };
  }
  return kernel;
}

/** The bytes an image takes in the arena: its own, 16 to spare for the last chunk's read, aligned. */
function slotBytes(img: Uint8Array): number {
  return (img.length + 16 + 15) & ~15;
}

/** Whether the image is still where it was copied in this generation. */
function copied(k: Kernel, img: Uint8Array): boolean {
  return k.placed.get(img)?.generation === k.generation;
}

/** Where the image lies in the kernel's memory: copied there, after the others, unless it still is. */
function place(k: Kernel, img: Uint8Array): number {
  const seen = k.placed.get(img);
  if (seen && seen.generation === k.generation) return seen.at;
  const at = k.top;
  k.top += slotBytes(img);
  reserve(k.memory, k.top);
  new Uint8Array(k.memory.buffer, at, img.length).set(img);
  k.placed.set(img, { generation: k.generation, at });
  return at;
}

const sums = new Float64Array(2 + 3 * MAX_SHIFTS);

/**
 * For the w x h box of `ref` at (x0, y0) and the photo shifted by each (dx, dy), dy from dy0 to dy1 and
 * dx from dx0 to dx1 (dx the inner; every shift inside both images): [sum of ref, sum of ref squared,
 * then per shift sum of photo, sum of photo squared, sum of photo * ref]. Both images are W wide. A box
 * too large for 32-bit sums is summed in bands of rows. The array is reused by the next call.
 */
export function shiftSums(
  photo: Uint8Array, ref: Uint8Array, W: number, x0: number, y0: number, w: number, h: number,
  dx0: number, dx1: number, dy0: number, dy1: number,
): Float64Array {
  const k = nccKernel();
  const n = 2 + 3 * (dx1 - dx0 + 1) * (dy1 - dy0 + 1);
  if (n > sums.length) throw new RangeError("more shifts than the kernel searches");
  // the copies start over when the two images do not both fit after those kept (never between the two)
  const need = (copied(k, photo) ? 0 : slotBytes(photo)) + (copied(k, ref) || ref === photo ? 0 : slotBytes(ref));
  if (k.top + need > k.base + ARENA_BYTES) {
    k.generation++;
    k.top = k.base;
  }
  const p = place(k, photo), r = place(k, ref);
  sums.fill(0, 0, n);
  const band = Math.max(1, Math.floor(MAX_BOX_PIXELS / w));
  for (let y = 0; y < h; y += band) {
    k.shiftSums(p, r, W, x0, y0 + y, w, Math.min(band, h - y), dx0, dx1, dy0, dy1, k.out);
    const out = new Int32Array(k.memory.buffer, k.out, n);
    for (let i = 0; i < n; i++) sums[i] += out[i];
  }
  return sums;
}
