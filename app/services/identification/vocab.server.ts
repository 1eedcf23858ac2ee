// Binary descriptor utilities, a two-level k-majority vocabulary and its posting lists (inverted file) for
// bag-of-words shortlisting.
import { mulberry32 } from "~/utils/random";
import { HAMMING_WASM } from "./hamming-wasm";
import { WORDS_WASM } from "./words-wasm";
import { instantiate, kernelMemory, reserve, threadKernel, WASM_PAGE } from "./wasm.server";

/** View 32-byte descriptors as 8 uint32 words each. */
export function asWords(desc: Uint8Array): Uint32Array {
  if (desc.byteOffset % 4 === 0) return new Uint32Array(desc.buffer, desc.byteOffset, desc.byteLength >> 2);
  const copy = new Uint8Array(desc);
  return new Uint32Array(copy.buffer);
}

/** Set bits of every 16-bit value: two table reads count a 32-bit word's bits (JS has no popcount). */
const BITS16 = new Uint8Array(65536);
for (let i = 1; i < 65536; i++) BITS16[i] = (i & 1) + BITS16[i >>> 1];

/**
 * Set bits of a 32-bit word. Two reads of a 64 KB table make the exhaustive descriptor matching below
 * about a quarter faster than the shift-and-mask count did, for the same result.
 */
export function popcnt(x: number): number {
  return BITS16[x & 0xffff] + BITS16[x >>> 16];
}

/** k-majority clustering of binary descriptors (indices into data). Returns centroids (k*8 words). */
function kMajority(data: Uint32Array, idx: Int32Array, k: number, iters: number, rnd: () => number): Uint32Array {
  const n = idx.length;
  const kk = Math.min(k, n);
  const cent = new Uint32Array(kk * 8);
  // k-means++-lite: random distinct seeds
  const used = new Set<number>();
  for (let c = 0; c < kk; c++) {
    let r = Math.floor(rnd() * n);
    let guard = 0;
    while (used.has(r) && guard++ < 50) r = Math.floor(rnd() * n);
    used.add(r);
    cent.set(data.subarray(idx[r] * 8, idx[r] * 8 + 8), c * 8);
  }
  const assign = new Int32Array(n);
  const counts = new Int32Array(kk * 256);
  const sizes = new Int32Array(kk);
  for (let it = 0; it < iters; it++) {
    for (let i = 0; i < n; i++) assign[i] = nearest(cent, kk, data, idx[i]);
    counts.fill(0);
    sizes.fill(0);
    for (let i = 0; i < n; i++) {
      const c = assign[i];
      sizes[c]++;
      const o = idx[i] * 8;
      const base = c * 256;
      for (let w = 0; w < 8; w++) {
        let v = data[o + w];
        while (v !== 0) {
          const bit = 31 - Math.clz32(v & -v);
          counts[base + w * 32 + bit]++;
          v &= v - 1;
        }
      }
    }
    for (let c = 0; c < kk; c++) {
      if (sizes[c] === 0) {
        const r = idx[Math.floor(rnd() * n)];
        cent.set(data.subarray(r * 8, r * 8 + 8), c * 8);
        continue;
      }
      const half = sizes[c] / 2;
      for (let w = 0; w < 8; w++) {
        let v = 0;
        for (let b = 0; b < 32; b++) if (counts[c * 256 + w * 32 + b] > half) v |= 1 << b;
        cent[c * 8 + w] = v >>> 0;
      }
    }
  }
  return cent;
}

/** No second word (`quantizeSoft`). */
export const NO_WORD = 0xffff;

/** The centroid nearest to descriptor di of data (the first of equally near ones). */
function nearest(cent: Uint32Array, k: number, data: Uint32Array, di: number): number {
  // the descriptor's words are read once (this runs for every reference descriptor at the build)
  const o = di * 8;
  const a0 = data[o], a1 = data[o + 1], a2 = data[o + 2], a3 = data[o + 3];
  const a4 = data[o + 4], a5 = data[o + 5], a6 = data[o + 6], a7 = data[o + 7];
  let best = 0, bd = 1e9;
  for (let c = 0, p = 0; c < k; c++, p += 8) {
    const d =
      popcnt(a0 ^ cent[p]) + popcnt(a1 ^ cent[p + 1]) + popcnt(a2 ^ cent[p + 2]) + popcnt(a3 ^ cent[p + 3]) +
      popcnt(a4 ^ cent[p + 4]) + popcnt(a5 ^ cent[p + 5]) + popcnt(a6 ^ cent[p + 6]) + popcnt(a7 ^ cent[p + 7]);
    if (d < bd) { bd = d; best = c; }
  }
  return best;
}

interface WordsExports {
  soft(desc: number, n: number, top: number, topK: number, leafAt: number, leafK: number, branch: number, slack: number, words: number, second: number): void;
}

const wordsKernel = threadKernel<WordsExports>(WORDS_WASM, 2);

export class Vocabulary {
  readonly branch: number;
  readonly top: Uint32Array; // branch centroids
  readonly leaves: Uint32Array[]; // per top node
  readonly size: number;

  private constructor(branch: number, top: Uint32Array, leaves: Uint32Array[]) {
    this.branch = branch;
    this.top = top;
    this.leaves = leaves;
    this.size = branch * branch;
  }

  static build(descs: Uint32Array[], branch = 32, maxSample = 60000): Vocabulary {
    const rnd = mulberry32(12345);
    let total = 0;
    for (const d of descs) total += d.length / 8;
    const all = new Uint32Array(Math.min(total, maxSample) * 8);
    const stride = total / (all.length / 8);
    let k = 0, acc = 0, g = 0;
    for (const d of descs) {
      const n = d.length / 8;
      for (let i = 0; i < n; i++, g++) {
        if (g >= acc && k < all.length / 8) {
          all.set(d.subarray(i * 8, i * 8 + 8), k * 8);
          k++;
          acc += stride;
        }
      }
    }
    const n = k;
    const idx = Int32Array.from({ length: n }, (_, i) => i);
    const topK = Math.max(1, Math.min(branch, n));
    const top = kMajority(all, idx, topK, 6, rnd);
    const groups: number[][] = Array.from({ length: topK }, () => []);
    for (let i = 0; i < n; i++) groups[nearest(top, topK, all, i)].push(i);
    const leaves = groups.map((gr) =>
      gr.length === 0 ? new Uint32Array(top.length > 0 ? 8 : 0) : kMajority(all, Int32Array.from(gr), branch, 5, rnd),
    );
    return new Vocabulary(branch, top, leaves);
  }

  /**
   * Each descriptor's word (as `quantize`) and a second word (NO_WORD: none): the nearest other leaf,
   * under the same top node or under the second-nearest top node (when that node is within `slack`
   * bits of the nearest), when it is within `slack` bits of the nearest leaf. A query descriptor that
   * blur or light moved a few bits lies near a word boundary as often as not, and its reference on
   * the other side; searched in both words, it still finds it.
   */
  quantizeSoft(desc: Uint32Array, slack: number): { words: Uint16Array; second: Uint16Array } {
    // in words.wat: the centroids and descriptors laid out in the kernel's memory, the words read back
    const n = desc.length / 8;
    const topK = this.top.length / 8;
    const align = (v: number) => (v + 15) & ~15;
    const descAt = 0;
    const topAt = descAt + n * 32;
    const leafAtAt = align(topAt + topK * 32);
    const leafKAt = leafAtAt + this.leaves.length * 4;
    let leavesAt = align(leafKAt + this.leaves.length * 4);
    const leafBytes = this.leaves.reduce((b, leaf) => b + leaf.length * 4, 0);
    const wordsAt = align(leavesAt + leafBytes);
    const secondAt = align(wordsAt + n * 2);
    const { memory, exports: { soft } } = wordsKernel(secondAt + n * 2);
    const heap = new Uint32Array(memory.buffer);
    heap.set(desc, descAt / 4);
    heap.set(this.top, topAt / 4);
    const leafAt = new Int32Array(memory.buffer, leafAtAt, this.leaves.length);
    const leafK = new Int32Array(memory.buffer, leafKAt, this.leaves.length);
    this.leaves.forEach((leaf, t) => {
      heap.set(leaf, leavesAt / 4);
      leafAt[t] = leavesAt;
      leafK[t] = leaf.length / 8;
      leavesAt += leaf.length * 4;
    });
    soft(descAt, n, topAt, topK, leafAtAt, leafKAt, this.branch, slack, wordsAt, secondAt);
    const words = new Uint16Array(n), second = new Uint16Array(n);
    words.set(new Uint16Array(memory.buffer, wordsAt, n));
    second.set(new Uint16Array(memory.buffer, secondAt, n));
    return { words, second };
  }

  quantize(desc: Uint32Array): Uint16Array {
    const n = desc.length / 8;
    const out = new Uint16Array(n);
    const topK = this.top.length / 8;
    for (let i = 0; i < n; i++) {
      const t = nearest(this.top, topK, desc, i);
      const leaf = this.leaves[t];
      const l = nearest(leaf, leaf.length / 8, desc, i);
      out[i] = t * this.branch + l;
    }
    return out;
  }
}

/** Descriptors of one image the posting lists can refer to (descriptor indices are 16-bit). */
export const MAX_IMAGE_DESCRIPTORS = 0xffff;
/**
 * The posting lists store each descriptor's owner (its image's slot) in 2 bytes while the images filed
 * at a build are this many or fewer, in 4 beyond: at 5,000 pins, about 5 million postings, 10 MB less.
 */
export const SLOTS_16 = 0x10000;

/** Descriptors per chunk of a DescriptorChunks store (1M descriptors, 32 MB). */
export const CHUNK_SHIFT = 20;
const CHUNK = 1 << CHUNK_SHIFT;
const CHUNK_BYTES = CHUNK * 32;

/**
 * The descriptors an index holds at most, over all its images: four chunks (128 MB; with their
 * posting lists' owners and keypoints about 150 MB). ORB keeps 1,000 a reference image, so up to about
 * 4,200 images each keeps all of them; beyond, each keeps an equal share (`descriptorShare`): at 5,000
 * pins 829, for about a point of top-1 and 35-44 MB less at the peak (EXPERIMENTS.md, "The descriptor budget
 * at 5,000 pins").
 */
export const DESCRIPTOR_BUDGET = 4 << CHUNK_SHIFT;
/** ... but never fewer than this many an image, however large the catalogue */
export const MIN_IMAGE_DESCRIPTORS = 100;

/** The descriptors each of `images` images keeps within `budget` (at most MAX_IMAGE_DESCRIPTORS). */
export function descriptorShare(images: number, budget = DESCRIPTOR_BUDGET): number {
  return Math.min(MAX_IMAGE_DESCRIPTORS, Math.max(MIN_IMAGE_DESCRIPTORS, Math.floor(budget / Math.max(1, images))));
}

/**
 * `keep` of n items spread evenly over them, in order: ORB lists an image's keypoints level by level of
 * its pyramid, so each level keeps its share (within a level, ORB's order says nothing of strength).
 */
export function spreadPick(n: number, keep: number): Int32Array {
  const m = Math.min(n, keep);
  const out = new Int32Array(m);
  for (let k = 0; k < m; k++) out[k] = Math.floor(((k + 0.5) * n) / m);
  return out;
}

/** An image's descriptors (8 words each) and packed keypoints (2 values each), at most `share` of them (`spreadPick`). */
export function keepShare(desc: Uint32Array, points: Uint16Array, share: number): { desc: Uint32Array; points: Uint16Array } {
  const n = desc.length / 8;
  if (n <= share) return { desc, points };
  const pick = spreadPick(n, share);
  return { desc: pickRows(desc, 8, pick), points: pickRows(points, 2, pick) };
}

/** The rows of `pick` (each `width` values long) of `src`, in that order. */
export function pickRows<T extends Uint32Array | Uint16Array>(src: T, width: number, pick: Int32Array): T {
  const out = new (src.constructor as new (n: number) => T)(pick.length * width);
  pick.forEach((i, k) => out.set(src.subarray(i * width, i * width + width), k * width));
  return out;
}

/**
 * Descriptors (8 words each) in large chunks, addressed by one running index. The chunks lie one after
 * another in a WebAssembly memory of the store's own, where the vote's kernel (`voteOne` in
 * hamming.wat) reads them: the memory grows a whole chunk at a time, and the posting lists' owners and
 * the vote's scratch are placed after the last chunk once the lists are built (`allocate`). The reference
 * descriptors wait here until the vocabulary is built, and the posting lists are then made by
 * reordering them in place (buildPostings), never holding two copies.
 * The memory is shared (a SharedArrayBuffer): growing it leaves the views already made valid, and
 * detaches no buffer. Detaching one (as growing an unshared memory does) makes V8 check every typed
 * array access of the thread from then on: the vocabulary's build at 5,000 pins took 8 s longer so.
 */
export class DescriptorChunks {
  readonly memory = kernelMemory(0);
  chunks: Uint32Array[] = [];
  n = 0;
  /** bytes in use: the chunks, then what `allocate` placed after them */
  private used = 0;
  private sealed = false;

  /** Appends descriptors (8 words each); returns the index of the first. */
  append(src: Uint32Array): number {
    if (this.sealed) throw new Error("the descriptor store is sealed once its posting lists are built");
    const first = this.n;
    const m = src.length / 8;
    for (let i = 0; i < m; ) {
      const c = this.n >>> CHUNK_SHIFT;
      if (c === this.chunks.length) {
        this.memory.grow(CHUNK_BYTES / WASM_PAGE);
        this.used = (c + 1) * CHUNK_BYTES;
        this.chunks.push(new Uint32Array(this.memory.buffer, c * CHUNK_BYTES, CHUNK * 8));
      }
      const o = this.n & (CHUNK - 1);
      const take = Math.min(m - i, CHUNK - o);
      this.chunks[c].set(src.subarray(i * 8, (i + take) * 8), o * 8);
      i += take;
      this.n += take;
    }
    return first;
  }

  /**
   * Places `bytes` after the chunks (8-byte aligned) and returns the byte offset; the store takes no
   * more descriptors afterwards. The caller makes its views once all its parts are placed.
   */
  allocate(bytes: number): number {
    this.sealed = true;
    const at = Math.ceil(this.used / 8) * 8;
    this.used = at + bytes;
    reserve(this.memory, this.used);
    return at;
  }

  /** Descriptors first .. first+count-1: a view when they lie in one chunk, else a copy. */
  range(first: number, count: number): Uint32Array {
    const c = first >>> CHUNK_SHIFT, o = first & (CHUNK - 1);
    if (o + count <= CHUNK) return this.chunks[c].subarray(o * 8, (o + count) * 8);
    const out = new Uint32Array(count * 8);
    for (let i = 0; i < count; i++) this.copy(first + i, out, i);
    return out;
  }

  /** Copies descriptor g to out (at descriptor index at). */
  copy(g: number, out: Uint32Array, at: number): void {
    const o = (g & (CHUNK - 1)) * 8;
    out.set(this.chunks[g >>> CHUNK_SHIFT].subarray(o, o + 8), at * 8);
  }
}

/**
 * Growable posting list of one visual word (images added after the vocabulary was built): the
 * descriptors stored contiguously next to their owner (entry slot, descriptor index).
 */
export class Postings {
  desc: Uint32Array; // 8 words per descriptor
  slot: Int32Array;
  idx: Uint16Array;
  n = 0;
  constructor(capacity = 16) {
    this.desc = new Uint32Array(capacity * 8);
    this.slot = new Int32Array(capacity);
    this.idx = new Uint16Array(capacity);
  }
  push(slot: number, i: number, desc: Uint32Array): void {
    if (this.n === this.slot.length) this.grow(this.n * 2);
    this.desc.set(desc.subarray(i * 8, i * 8 + 8), this.n * 8);
    this.slot[this.n] = slot;
    this.idx[this.n] = i;
    this.n++;
  }
  private grow(capacity: number): void {
    const d = new Uint32Array(capacity * 8);
    d.set(this.desc);
    this.desc = d;
    const s = new Int32Array(capacity);
    s.set(this.slot);
    this.slot = s;
    const x = new Uint16Array(capacity);
    x.set(this.idx);
    this.idx = x;
  }
}

/**
 * The inverted file: the reference descriptors of each visual word stored contiguously next to their
 * owner (entry slot, descriptor index). The shortlist scans whole words, and reading the descriptors in
 * order instead of chasing them through their entries is what keeps that scan fast.
 * Word w's postings are store indices start[w] .. start[w+1]-1 (descriptors in `store`, owners in
 * slot/idx, ordered by slot, then descriptor index), then those of images added since the build, in
 * extra[w].
 */
export interface PostingLists {
  store: DescriptorChunks;
  start: Uint32Array; // per word, and one past the last
  slot: Uint16Array | Int32Array; // 2 bytes each while the images filed at the build fit (SLOTS_16)
  idx: Uint16Array; // descriptor index in its image (at most MAX_IMAGE_DESCRIPTORS per image)
  extra: (Postings | undefined)[];
  /** the vote's kernel over the store's memory, for the images filed at the build (slots below its `slots`) */
  kernel: VoteKernel;
}

/**
 * Where a thread's vote finds the posting lists in the store's memory (shared, and never written once
 * the lists are built, but for the scratch): the owners' slots and descriptor indices, the alive
 * flags, and a scratch of that thread's own (per slot filed at the build: nearest, second nearest,
 * the nearest's index, the slots touched; one descriptor; room for one vote per slot).
 */
interface VoteLayout {
  memory: WebAssembly.Memory;
  slots: number;
  slotAt: number;
  /** 1: the slots are u16 (and padded by 2 bytes, see hamming.wat); 2: i32 */
  slotShift: number;
  idxAt: number;
  aliveAt: number;
  bestAt: number;
  secAt: number;
  refAt: number;
  touchedAt: number;
  queryAt: number;
  outAt: number;
}

/** The posting lists as the worker thread reads them: a layout with its own scratch. */
export interface RemoteLists extends VoteLayout {
  /** one per build: a thread keeps its instance for the lists it last voted in */
  id: number;
}

/** `voteOne` of hamming.wat bound to a layout: one descriptor at a time, put in `query`, its votes in `out`. */
interface BoundVote {
  voteOne(q: number, from0: number, to0: number, from1: number, to1: number, max: number, accept: number, ratio: number, out: number): number;
  query: Uint32Array;
  queryAt: number;
  out: Int32Array;
  outAt: number;
}

/** This thread's vote over the store's memory, for the images filed at the build (slots below `slots`). */
interface VoteKernel extends BoundVote {
  slots: number;
  /** alive flags, copied in for each photo (both threads read them) */
  alive: Uint8Array;
  /** where the worker thread's instance finds the lists and its own scratch */
  remote: RemoteLists;
}

/** An instance of hamming.wat over the layout's memory, set up with its parts. */
function bindVote(layout: VoteLayout): BoundVote {
  const exports = instantiate<KernelExports>(hammingModule(), layout.memory);
  exports.setup(0, layout.slotAt, layout.idxAt, layout.bestAt, layout.secAt, layout.refAt, layout.touchedAt, layout.aliveAt, layout.slotShift);
  const buffer = layout.memory.buffer;
  return {
    voteOne: exports.voteOne,
    query: new Uint32Array(buffer, layout.queryAt, 8),
    queryAt: layout.queryAt,
    out: new Int32Array(buffer, layout.outAt, layout.slots * 2),
    outAt: layout.outAt,
  };
}

/** A vote's scratch for `slots` slots, placed in the store's memory. */
function voteScratch(store: DescriptorChunks, slots: number) {
  return {
    bestAt: store.allocate(slots * 4),
    secAt: store.allocate(slots * 4),
    refAt: store.allocate(slots * 4),
    touchedAt: store.allocate(slots * 4),
    queryAt: store.allocate(32),
    outAt: store.allocate(slots * 8),
  };
}

let listsBuilt = 0;

/**
 * A part of a photo's vote for another thread: its descriptors, and for each the two posting ranges
 * of its words (from, to, from, to; all 0 for a descriptor without a word).
 */
export interface VoteTask {
  lists: RemoteLists;
  queries: Uint32Array;
  ranges: Int32Array;
  max: number;
  accept: number;
  ratio: number;
}

/**
 * Runs a VoteTask (in the worker thread): for each descriptor in turn, its count of votes and the
 * votes (slot, descriptor index | distance << 16), all in one array.
 */
export function voteRemote(task: VoteTask): Int32Array {
  const v = remoteVoter(task.lists);
  const { queries, ranges, max, accept, ratio } = task;
  const n = ranges.length / 4;
  let out = new Int32Array(n * 8);
  let at = 0;
  for (let j = 0; j < n; j++) {
    let got = 0;
    if (ranges[j * 4 + 1] > ranges[j * 4] || ranges[j * 4 + 3] > ranges[j * 4 + 2]) {
      v.query.set(queries.subarray(j * 8, j * 8 + 8));
      got = v.voteOne(v.queryAt, ranges[j * 4], ranges[j * 4 + 1], ranges[j * 4 + 2], ranges[j * 4 + 3], max, accept, ratio, v.outAt);
    }
    if (at + 1 + got * 2 > out.length) {
      const grown = new Int32Array(Math.max(out.length * 2, at + 1 + got * 2));
      grown.set(out.subarray(0, at));
      out = grown;
    }
    out[at++] = got;
    out.set(v.out.subarray(0, got * 2), at);
    at += got * 2;
  }
  return out.slice(0, at);
}

let voter: (BoundVote & { id: number }) | null = null;

/** This thread's instance of hamming.wat over the lists' memory, set up with the second scratch. */
function remoteVoter(lists: RemoteLists): BoundVote {
  if (voter?.id !== lists.id) voter = { id: lists.id, ...bindVote(lists) };
  return voter;
}

/**
 * Posting lists of the descriptors in `store`: `owners` lists the images to file, in order (their
 * descriptors are store indices first .. first+n-1; those of other (removed) images in the store
 * end up after the last list, unused), `words` each one's visual words; slots must increase along
 * `owners`. The store is reordered in place, word by word (in each word, images in order, descriptors
 * in order), and becomes the lists' descriptor store: one copy of the descriptors, plus 5 bytes per
 * descriptor of scratch while it runs. Each posting's owner takes 2 bytes while the slots filed fit in
 * `slots16` (a test sets it lower to try the 4-byte form).
 */
export function buildPostings(
  store: DescriptorChunks,
  owners: { first: number; n: number; slot: number }[],
  words: Uint16Array[],
  vocabSize: number,
  slots16 = SLOTS_16,
): PostingLists {
  const start = new Uint32Array(vocabSize + 1);
  for (const w of words) for (let i = 0; i < w.length; i++) start[w[i] + 1]++;
  for (let w = 0; w < vocabSize; w++) start[w + 1] += start[w];
  const filed = start[vocabSize];
  // destination of every stored descriptor: its place in its word's list, or (not filed) after the lists
  const where = new Uint32Array(store.n);
  const fill = start.slice(0, vocabSize);
  // the owners and the vote's scratch, after the descriptors in the store's memory
  const slots = owners.reduce((m, o) => Math.max(m, o.slot + 1), 0);
  const slotShift = slots <= slots16 ? 1 : 2;
  const slotAt = store.allocate(slotShift === 1 ? filed * 2 + 2 : filed * 4), idxAt = store.allocate(filed * 2);
  const aliveAt = store.allocate(slots);
  const lists = { memory: store.memory, slots, slotAt, slotShift, idxAt, aliveAt };
  const local: VoteLayout = { ...lists, ...voteScratch(store, slots) };
  // a scratch of its own for the worker thread, which votes for part of a photo's descriptors (`vote`)
  const remote: RemoteLists = { id: ++listsBuilt, ...lists, ...voteScratch(store, slots) };
  const buffer = store.memory.buffer;
  const slot = slotShift === 1 ? new Uint16Array(buffer, slotAt, filed) : new Int32Array(buffer, slotAt, filed);
  const idx = new Uint16Array(buffer, idxAt, filed);
  const isFiled = new Uint8Array(store.n);
  owners.forEach((o, k) => {
    const w = words[k];
    for (let i = 0; i < o.n; i++) {
      const p = fill[w[i]]++;
      where[o.first + i] = p;
      slot[p] = o.slot;
      idx[p] = i;
      isFiled[o.first + i] = 1;
    }
  });
  for (let g = 0, tail = filed; g < store.n; g++) if (!isFiled[g]) where[g] = tail++;
  // move every descriptor to its destination, one cycle of the permutation at a time
  const moved = isFiled; // reused: 1 = still to move
  moved.fill(1);
  const carry = new Uint32Array(8);
  const chunks = store.chunks;
  for (let g = 0; g < store.n; g++) {
    if (!moved[g]) continue;
    moved[g] = 0;
    let d = where[g];
    if (d === g) continue;
    let c = chunks[g >>> CHUNK_SHIFT], o = (g & (CHUNK - 1)) * 8;
    for (let k = 0; k < 8; k++) carry[k] = c[o + k];
    // carry holds a descriptor whose destination is d: put it there and pick up the one it displaces
    for (;;) {
      c = chunks[d >>> CHUNK_SHIFT];
      o = (d & (CHUNK - 1)) * 8;
      for (let k = 0; k < 8; k++) {
        const t = c[o + k];
        c[o + k] = carry[k];
        carry[k] = t;
      }
      moved[d] = 0;
      if (d === g) break; // the cycle is closed: what was picked up is g's own old descriptor, already placed
      d = where[d];
    }
  }
  const kernel: VoteKernel = { ...bindVote(local), slots, alive: new Uint8Array(buffer, aliveAt, slots), remote };
  return { store, start, slot, idx, extra: [], kernel };
}

/**
 * The descriptors of the image filed in `slot` at the build, gathered from the lists into `out` (8 words
 * each, by descriptor index): in each word's list, ordered by slot, a binary search finds its run. At
 * 5,000 pins (16,384 words) it reads every word's list: 2-3 ms an image in a server's cold cache, for
 * the 3 or so images a photo's duels and exhaustive matches compare, instead of a 2-byte word kept per
 * descriptor (10 MB there). Guessing the run's place from the slots' spread was no faster.
 */
export function gatherSlot(lists: PostingLists, slot: number, out: Uint32Array): void {
  const { start, slot: owner, idx, store } = lists;
  const words = start.length - 1;
  for (let w = 0; w < words; w++) {
    let lo = start[w], hi = start[w + 1];
    if (lo === hi || owner[hi - 1] < slot || owner[lo] > slot) continue;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (owner[mid] < slot) lo = mid + 1;
      else hi = mid;
    }
    for (const end = start[w + 1]; lo < end && owner[lo] === slot; lo++) store.copy(lo, out, idx[lo]);
  }
}

/**
 * Votes of the query descriptors for the reference images: each query descriptor is compared with the
 * reference descriptors of its visual word, and of its second word when it has one (`quantizeSoft`,
 * `qSecond`; null: one word each); per image, its nearest one is a tentative correspondence
 * (a vote) when it is close enough and clearly closer than the image's second nearest (ratio test),
 * and not more than `margin` bits farther than the nearest that any image offers the descriptor. A
 * descriptor's true correspondent is its nearest, or ties with it (the same design on a look-alike
 * pin); one that lies far behind it is chance, and chance grows with the catalogue: a vocabulary
 * built for 5,000 pins has nine times the words of one for 300, an image seldom has a second
 * descriptor in a word to ratio-test against, and such stray votes put unrelated images above the
 * right pin (the commit that made it).
 *
 * The images filed when the lists were built are searched by `voteOne` (hamming.wat) in the store's
 * memory: about four million descriptor distances a photo, which WebAssembly's i64.popcnt counts
 * several times faster than JavaScript's table. The images added since (`extra`, a few at a time as
 * pins are added) are searched here, after them, for each descriptor. Votes are the same as one search
 * over both; among images that a descriptor is the first to vote for, those filed at the build come
 * first (the order that breaks ties of equal votes).
 *
 * `weighted` is each image's vote as the shortlist ranks it: the sum of the idf of the words of the
 * photo descriptors that vote for it (`wordRarity`: a word that most images have is background or
 * enamel edge and says little), each word counted once an image however many of the photo's
 * descriptors in it vote for that image (a repeated texture). `votes` and the correspondences do not
 * depend on it.
 *
 * With `remote` (the worker thread, `voteRemote` there), the lists are searched for the last
 * descriptors, about half of the postings, on the other core while this thread searches them for the
 * first, and the votes are then cast here descriptor by descriptor in their order: the same votes,
 * in the same order, as one thread's. The store's memory is shared and never written once the lists
 * are built (each thread has its own scratch in it); a rebuild makes a new store. If the worker
 * fails, its part is searched here.
 */
export async function vote(
  qDesc: Uint32Array,
  qWords: Uint16Array,
  qSecond: Uint16Array | null,
  lists: PostingLists,
  alive: Uint8Array, // per entry slot: 0 = removed image
  maxHamming: number, // descriptors farther than this are not compared further
  acceptHamming: number,
  ratio: number,
  margin: number, // bits behind the descriptor's nearest over all images that still vote
  remote?: (task: VoteTask) => Promise<Int32Array>,
): Promise<{ votes: Int32Array; weighted: Float64Array; voted: number[]; acc: Int32Array; nAcc: number }> {
  const nSlots = alive.length;
  const qn = qDesc.length / 8;
  const votes = new Int32Array(nSlots);
  const weighted = new Float64Array(nSlots);
  const idf = wordRarity(lists);
  const counted = new Set<number>(); // word x image pairs that have voted
  const voted: number[] = []; // slots in order of their first vote (ties keep that order)
  let acc = new Int32Array(3 * 4096); // accepted correspondences: slot, query index, reference index
  let nAcc = 0;
  const add = (slot: number, j: number, ref: number) => {
    if (votes[slot]++ === 0) voted.push(slot);
    const pair = qWords[j] * nSlots + slot;
    if (!counted.has(pair)) {
      counted.add(pair);
      weighted[slot] += idf[qWords[j]];
    }
    if (nAcc * 3 + 3 > acc.length) {
      const a = new Int32Array(acc.length * 2);
      a.set(acc);
      acc = a;
    }
    acc[nAcc * 3] = slot;
    acc[nAcc * 3 + 1] = j;
    acc[nAcc * 3 + 2] = ref;
    nAcc++;
  };
  const { start, extra, kernel } = lists;
  kernel.alive.set(alive.subarray(0, kernel.slots));
  const out = kernel.out;
  // a whole number of bits is within a bound when it is within its whole part
  const max = Math.floor(maxHamming), accept = Math.floor(acceptHamming);
  const added = extra.length > 0 ? new ExtraVotes(nSlots) : null;
  // one descriptor's ratio-tested nearest per image (at most one per slot): the kernel's, then those
  // added since; they vote once the nearest of all is known
  const cSlot = new Int32Array(nSlots), cRef = new Int32Array(nSlots), cDist = new Int32Array(nSlots);
  let m = 0;
  let low = 0;
  const take = (slot: number, ref: number, d: number) => {
    cSlot[m] = slot;
    cRef[m] = ref;
    cDist[m++] = d;
    if (d < low) low = d;
  };
  // each descriptor's two posting ranges, of its word and its second word: from, to, from, to (all 0
  // without a word, the second 0, 0 without a second word)
  const ranges = new Int32Array(qn * 4);
  for (let j = 0; j < qn; j++) {
    const w0 = qWords[j], w1 = qSecond ? qSecond[j] : NO_WORD;
    if (w0 === NO_WORD) continue;
    ranges[j * 4] = start[w0];
    ranges[j * 4 + 1] = start[w0 + 1];
    if (w1 !== NO_WORD) {
      ranges[j * 4 + 2] = start[w1];
      ranges[j * 4 + 3] = start[w1 + 1];
    }
  }
  /** Descriptor j's votes, given the kernel's `n` (slot, index | distance << 16) pairs from `found[at]`. */
  const cast = (j: number, found: Int32Array, at: number, n: number) => {
    const w0 = qWords[j], w1 = qSecond ? qSecond[j] : NO_WORD;
    m = 0;
    low = 999;
    for (let t = 0; t < n; t++) take(found[at + t * 2], found[at + t * 2 + 1] & 0xffff, found[at + t * 2 + 1] >>> 16);
    if (added) added.vote(qDesc, j, [extra[w0], w1 === NO_WORD ? undefined : extra[w1]], alive, max, accept, ratio, take);
    for (let k = 0; k < m; k++) if (cDist[k] <= low + margin) add(cSlot[k], j, cRef[k]);
  };
  // with another thread, it searches the lists for the last descriptors, about half of the postings,
  // while this one searches them for the first: the same votes, cast in the same order
  let split = qn;
  let theirs: Promise<Int32Array | null> | null = null;
  if (remote && qn > 1) {
    const work = new Float64Array(qn + 1);
    for (let j = 0; j < qn; j++) work[j + 1] = work[j] + (ranges[j * 4 + 1] - ranges[j * 4]) + (ranges[j * 4 + 3] - ranges[j * 4 + 2]);
    split = 0;
    while (split < qn && work[split] < work[qn] / 2) split++;
    theirs = remote({ lists: kernel.remote, queries: qDesc.slice(split * 8, qn * 8), ranges: ranges.slice(split * 4), max, accept, ratio }).catch(() => null);
  }
  const voteHere = (j: number) => {
    const r = j * 4;
    kernel.query.set(qDesc.subarray(j * 8, j * 8 + 8));
    cast(j, out, 0, kernel.voteOne(kernel.queryAt, ranges[r], ranges[r + 1], ranges[r + 2], ranges[r + 3], max, accept, ratio, kernel.outAt));
  };
  for (let j = 0; j < split; j++) if (qWords[j] !== NO_WORD) voteHere(j);
  const found = theirs ? await theirs : null;
  if (found) {
    for (let j = split, at = 0; j < qn; j++) {
      const n = found[at++];
      if (qWords[j] !== NO_WORD) cast(j, found, at, n);
      at += n * 2;
    }
  } else for (let j = split; j < qn; j++) if (qWords[j] !== NO_WORD) voteHere(j);
  return { votes, weighted, voted, acc, nAcc };
}

const rarityOf = new WeakMap<PostingLists, Float64Array>();

/** Rarity of each visual word among the images filed at the build (idf): log(images / images with the word). Kept per build. */
export function wordRarity(lists: PostingLists): Float64Array {
  const hit = rarityOf.get(lists);
  if (hit) return hit;
  const nWords = lists.start.length - 1;
  const out = new Float64Array(nWords);
  const images = new Set<number>();
  for (let k = 0; k < lists.start[nWords]; k++) images.add(lists.slot[k]);
  const n = Math.max(1, images.size);
  for (let w = 0; w < nWords; w++) {
    const from = lists.start[w], to = lists.start[w + 1];
    let df = 0;
    for (let k = from, last = -1; k < to; k++) if (lists.slot[k] !== last) { last = lists.slot[k]; df++; }
    out[w] = df > 0 ? Math.log(n / df) : 0;
  }
  rarityOf.set(lists, out);
  return out;
}

/** The vote among the postings of images added since the build (`vote`), with its scratch per slot. */
class ExtraVotes {
  private best: Int32Array; // distance + 1, 0 = not seen for this query descriptor
  private sec: Int32Array;
  private ref: Int32Array;
  private touched: Int32Array;
  constructor(nSlots: number) {
    this.best = new Int32Array(nSlots);
    this.sec = new Int32Array(nSlots);
    this.ref = new Int32Array(nSlots);
    this.touched = new Int32Array(nSlots);
  }

  vote(
    qDesc: Uint32Array,
    j: number,
    runs: (Postings | undefined)[],
    alive: Uint8Array,
    max: number,
    accept: number,
    ratio: number,
    take: (slot: number, ref: number, distance: number) => void,
  ): void {
    const { best, sec, ref, touched } = this;
    const o = j * 8;
    const q0 = qDesc[o], q1 = qDesc[o + 1], q2 = qDesc[o + 2], q3 = qDesc[o + 3];
    const q4 = qDesc[o + 4], q5 = qDesc[o + 5], q6 = qDesc[o + 6], q7 = qDesc[o + 7];
    let nTouched = 0;
    for (const run of runs) {
      if (!run) continue;
      const pd = run.desc;
      for (let k = 0, r = 0; k < run.n; k++, r += 8) {
        const d =
          popcnt(q0 ^ pd[r]) + popcnt(q1 ^ pd[r + 1]) + popcnt(q2 ^ pd[r + 2]) + popcnt(q3 ^ pd[r + 3]) +
          popcnt(q4 ^ pd[r + 4]) + popcnt(q5 ^ pd[r + 5]) + popcnt(q6 ^ pd[r + 6]) + popcnt(q7 ^ pd[r + 7]);
        if (d > max) continue;
        const slot = run.slot[k];
        if (!alive[slot]) continue;
        const d1 = d + 1;
        const b = best[slot];
        if (b === 0) {
          touched[nTouched++] = slot;
          best[slot] = d1;
          sec[slot] = 999;
          ref[slot] = run.idx[k];
        } else if (d1 < b) {
          sec[slot] = b;
          best[slot] = d1;
          ref[slot] = run.idx[k];
        } else if (d1 < sec[slot]) sec[slot] = d1;
      }
    }
    for (let t = 0; t < nTouched; t++) {
      const slot = touched[t];
      const b = best[slot] - 1;
      if (b <= accept && b + 1 < ratio * sec[slot]) take(slot, ref[slot], b);
      best[slot] = 0;
    }
  }
}

/**
 * Exhaustive ratio-tested matching of descriptor set `a` against `b`: pairs (index in a, index in b) of
 * nearest neighbours within acceptHamming that are clearly closer than the second nearest.
 *
 * A descriptor of `b` farther than acceptHamming / ratio cannot change a pair: it is no nearest
 * neighbour within acceptHamming, and as the second nearest it passes the ratio test as surely as no
 * second at all. So its distance is abandoned when the first 192 of its 256 bits already exceed that
 * bound, as they do for nearly every unrelated descriptor: the same pairs, in the same order.
 *
 * It runs in WebAssembly (`hamming.wat`), whose i64.popcnt counts 64 bits in one instruction: 1,000 x
 * 1,000 catalogue descriptors 8.4 -> 1.7 ms at the median, the same pairs (a unit test compares them
 * with the plain search on borderline sets). Each thread has its own instance, made on first use.
 */
export function ratioMatches(a: Uint32Array, b: Uint32Array, acceptHamming: number, ratio: number): number[] {
  const k = hammingKernel();
  const an = a.length / 8, bn = b.length / 8;
  const out = a.byteLength + b.byteLength;
  const need = out + an * 8;
  reserve(k.memory, need);
  const words = new Uint32Array(k.memory.buffer);
  words.set(a, 0);
  words.set(b, a.length);
  // d > acceptHamming / ratio for a whole number of bits d is d > its whole part; likewise for acceptHamming
  const n = k.ratioMatches(0, an, a.byteLength, bn, Math.floor(acceptHamming / ratio), Math.floor(acceptHamming), ratio, out);
  return Array.from(new Int32Array(k.memory.buffer, out, n * 2));
}

/** What hamming.wat exports (each instance imports the memory it works in). */
interface KernelExports {
  ratioMatches(a: number, an: number, b: number, bn: number, far: number, accept: number, ratio: number, out: number): number;
  setup(desc: number, slots: number, idx: number, best: number, sec: number, ref: number, touched: number, alive: number, slotShift: number): void;
  voteOne(q: number, from0: number, to0: number, from1: number, to1: number, max: number, accept: number, ratio: number, out: number): number;
}

interface HammingKernel {
  memory: WebAssembly.Memory;
  ratioMatches: KernelExports["ratioMatches"];
}

let compiled: WebAssembly.Module | null = null;

function hammingModule(): WebAssembly.Module {
  compiled ??= new WebAssembly.Module(Buffer.from(HAMMING_WASM, "base64"));
  return compiled;
}

let kernel: HammingKernel | null = null;

/** The thread's instance for `ratioMatches`, in a memory of its own. */
function hammingKernel(): HammingKernel {
  if (!kernel) {
    const memory = kernelMemory(2);
    kernel = { memory, ratioMatches: instantiate<KernelExports>(hammingModule(), memory).ratioMatches };
  }
  return kernel;
}
