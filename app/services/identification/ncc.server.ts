// The sums behind the detail check's correlations (`ncc.wat`), in WebAssembly SIMD. The images they read
// are copied into the kernel's memory once each (a detail check correlates hundreds of boxes of the same
// two images) and found there again by identity: the engine never changes an image after making it.
import { NCC_WASM } from "./ncc-wasm";

interface NccExports {
  setup(mask: number): void;
  shiftSums(photo: number, ref: number, stride: number, x0: number, y0: number, w: number, h: number,
    dx0: number, dx1: number, dy0: number, dy1: number, out: number): void;
}

const PAGE = 65536;
const MAX_PAGES = 65536;
/**
 * The images kept copied at once: past this, the copies start again from the first byte. A detail check
 * correlates 2-8 images of a 512 px reference frame (256 KB each): 8 MB holds them, and is all the
 * memory the kernel keeps (a WebAssembly memory never shrinks).
 */
const ARENA_BYTES = 8 << 20;
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
/** The most shifts searched at once: 5 px each way (WIDE_SHIFT in detail.server.ts) */
const MAX_SHIFTS = 11 * 11;

function nccKernel(): Kernel {
  if (!kernel) {
    const memory = new WebAssembly.Memory({ initial: 16, maximum: MAX_PAGES, shared: true });
    const exports = new WebAssembly.Instance(new WebAssembly.Module(Buffer.from(NCC_WASM, "base64")), { env: { memory } })
      .exports as unknown as NccExports;
    const masks = new Uint8Array(memory.buffer, 0, 17 * 16);
    for (let k = 0; k <= 16; k++) masks.fill(255, k * 16, k * 16 + k);
    exports.setup(0);
    const out = 17 * 16;
    const base = out + (2 + 3 * MAX_SHIFTS) * 4 + 16;
    kernel = { memory, shiftSums: exports.shiftSums, out, base, top: base, generation: 0, placed: new WeakMap() };
  }
  return kernel;
}

/** Where the image lies in the kernel's memory: copied there unless it still is from an earlier call. */
function place(k: Kernel, img: Uint8Array): number {
  const seen = k.placed.get(img);
  if (seen && seen.generation === k.generation) return seen.at;
  const size = (img.length + 16 + 15) & ~15;
  if (k.top + size > k.base + ARENA_BYTES) {
    k.generation++;
    k.top = k.base;
  }
  const at = k.top;
  k.top += size;
  if (k.top > k.memory.buffer.byteLength) k.memory.grow(Math.ceil((k.top - k.memory.buffer.byteLength) / PAGE));
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
  // both copies in one generation: placing the second must not start a new one over the first
  let p = place(k, photo), r = place(k, ref);
  if (k.placed.get(photo)?.generation !== k.generation) {
    p = place(k, photo);
    r = place(k, ref);
  }
  sums.fill(0, 0, n);
  const band = Math.max(1, Math.floor(MAX_BOX_PIXELS / w));
  for (let y = 0; y < h; y += band) {
    k.shiftSums(p, r, W, x0, y0 + y, w, Math.min(band, h - y), dx0, dx1, dy0, dy1, k.out);
    const out = new Int32Array(k.memory.buffer, k.out, n);
    for (let i = 0; i < n; i++) sums[i] += out[i];
  }
  return sums;
}
