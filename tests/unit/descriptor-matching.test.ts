/**
 * The exhaustive descriptor matching used to align look-alike references: abandoning a distance once
 * it cannot change a pair must give exactly the pairs of the plain nearest / second-nearest search.
 * It runs in WebAssembly (hamming.wat, committed assembled in hamming-wasm.ts): the bytes must be the
 * text's, and sets larger than its initial memory must be matched as well. The vote through visual
 * words searches a photo descriptor in a second word when it lies near a boundary: it must then find
 * references that its own word alone misses; it runs in WebAssembly too, in the descriptor store's
 * memory, and must give the votes of a plain search over the same words, also for images removed or
 * added since the lists were built.
 */
import { describe, expect, it } from 'vitest';
import { assembleKernel, kernelModuleSource } from '~/cli/build-wasm';
import { HAMMING_WASM } from '~/services/identification/hamming-wasm';
import { mulberry32 } from '~/utils/random';
import { buildPostings, DescriptorChunks, gatherSlot, NO_WORD, popcnt, Postings, ratioMatches, SLOTS_16, vote, voteRemote, Vocabulary, type PostingLists } from '~/services/identification/vocab.server';

/** The plain search: every distance counted in full. */
function plainRatioMatches(a: Uint32Array, b: Uint32Array, acceptHamming: number, ratio: number): number[] {
  const pairs: number[] = [];
  for (let i = 0; i < a.length / 8; i++) {
    let best = 999, sec = 999, bj = -1;
    for (let j = 0; j < b.length / 8; j++) {
      let d = 0;
      for (let w = 0; w < 8; w++) d += popcnt(a[i * 8 + w] ^ b[j * 8 + w]);
      if (d < best) {
        sec = best;
        best = d;
        bj = j;
      } else if (d < sec) sec = d;
    }
    if (bj >= 0 && best <= acceptHamming && best < ratio * sec) pairs.push(i, bj);
  }
  return pairs;
}

/** `n` random descriptors, and `a` made of noisy copies of some of them (flipped bits) and random ones. */
function descriptorSets(seed: number, n: number) {
  const rnd = mulberry32(seed);
  const word = () => (rnd() * 2 ** 32) >>> 0;
  const b = new Uint32Array(n * 8).map(word);
  const flip = (set: Uint32Array, k: number, flips: number, within: number) => {
    for (let f = 0; f < flips; f++) {
      const bit = Math.floor(rnd() * within);
      set[k * 8 + (bit >> 5)] ^= 1 << (bit & 31);
    }
  };
  const a = new Uint32Array(n * 8);
  for (let i = 0; i < n; i++) {
    const source = Math.floor(rnd() * n);
    const copy = rnd() < 0.6;
    for (let w = 0; w < 8; w++) a[i * 8 + w] = copy ? b[source * 8 + w] : word();
    // 0..70 flipped bits: near matches, borderline ones (around 50 and 62) and far ones; half the
    // time all in the first 128 bits, where the distance is first counted
    flip(a, i, Math.floor(rnd() * 70), rnd() < 0.5 ? 128 : 256);
    // a second copy in b now and then, as near or a little farther, so that the ratio test decides
    if (copy && rnd() < 0.5) {
      const twin = Math.floor(rnd() * n);
      b.set(a.subarray(i * 8, i * 8 + 8), twin * 8);
      flip(b, twin, Math.floor(rnd() * 70), rnd() < 0.5 ? 128 : 256);
    }
  }
  return { a, b };
}

describe('ratio-tested descriptor matching', () => {
  it('gives the pairs of the plain search, in the same order', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const { a, b } = descriptorSets(seed, 600);
      for (const [accept, ratio] of [[50, 0.8], [40, 0.7], [64, 0.9]]) {
        const expected = plainRatioMatches(a, b, accept, ratio);
        expect(expected.length).toBeGreaterThan(100); // the sets hold matches to find
        expect(ratioMatches(a, b, accept, ratio), `seed ${seed}, ${accept} bits, ratio ${ratio}`).toEqual(expected);
      }
    }
  });

  it('matches sets larger than the kernel\'s initial memory', () => {
    // 3,000 x 2,500 descriptors: 176 KB of descriptors and 24 KB of pairs, over its two 64 KB pages
    const { a } = descriptorSets(9, 3000);
    const { b } = descriptorSets(10, 2500);
    b.set(a.subarray(0, 1500 * 8), 500 * 8); // half of a copied into b, so that there are pairs to find
    const pairs = ratioMatches(a, b, 50, 0.8);
    expect(pairs).toEqual(plainRatioMatches(a, b, 50, 0.8));
    expect(pairs.length / 2).toBeGreaterThan(1000);
    // and a small set again after the memory has grown
    const small = descriptorSets(11, 300);
    expect(ratioMatches(small.a, small.b, 50, 0.8)).toEqual(plainRatioMatches(small.a, small.b, 50, 0.8));
  });

  it('runs the kernel assembled from its text', async () => {
    const bytes = await assembleKernel('hamming');
    expect(Buffer.from(HAMMING_WASM, 'base64').equals(Buffer.from(bytes)), 'run npm run wasm').toBe(true);
    expect(kernelModuleSource('hamming', bytes)).toContain(HAMMING_WASM);
  });
});

/**
 * The plain vote: for each photo descriptor, every posting of its word and second word (the store's,
 * then those added since) compared in full; per image, its nearest is a vote when within `accept` and
 * nearer than `ratio` times the image's second nearest, and not more than `margin` bits behind the
 * nearest of those votes. Votes as "slot:photo index:reference index".
 */
function plainVote(query: Uint32Array, words: Uint16Array, second: Uint16Array | null, lists: PostingLists, alive: Uint8Array, max: number, accept: number, ratio: number, margin: number): string[] {
  const found: string[] = [];
  for (let j = 0; j < query.length / 8; j++) {
    const near = new Map<number, { best: number; sec: number; ref: number }>();
    const see = (desc: Uint32Array, slot: number, i: number) => {
      let d = 0;
      for (let w = 0; w < 8; w++) d += popcnt(query[j * 8 + w] ^ desc[w]);
      if (d > max || !alive[slot]) return;
      const n = near.get(slot);
      if (!n) near.set(slot, { best: d, sec: 999, ref: i });
      else if (d < n.best) Object.assign(n, { sec: n.best, best: d, ref: i });
      else if (d < n.sec) n.sec = d;
    };
    for (const w of [words[j], second ? second[j] : NO_WORD]) {
      if (w === NO_WORD) continue;
      const one = new Uint32Array(8);
      for (let k = lists.start[w]; k < lists.start[w + 1]; k++) {
        lists.store.copy(k, one, 0);
        see(one, lists.slot[k], lists.idx[k]);
      }
      const more = lists.extra[w];
      for (let k = 0; more && k < more.n; k++) see(more.desc.subarray(k * 8, k * 8 + 8), more.slot[k], more.idx[k]);
    }
    const passed = [...near].filter(([, n]) => n.best <= accept && n.best + 1 < ratio * (n.sec + 1));
    const low = Math.min(...passed.map(([, n]) => n.best));
    for (const [slot, n] of passed) if (n.best <= low + margin) found.push(`${slot}:${j}:${n.ref}`);
  }
  return found.sort();
}

describe('the vote through visual words', () => {
  it.each([[2, SLOTS_16], [4, 0]])('gives the votes of the plain search, with images removed and added since the build (%i-byte owners)', async (bytes, slots16) => {
    const rnd = mulberry32(33);
    const word = () => (rnd() * 2 ** 32) >>> 0;
    const images = Array.from({ length: 30 }, () => new Uint32Array(150 * 8).map(word));
    // look-alikes: images 10-14 (filed at the build) and 27-28 (added since) print the designs of
    // images 0-4 and 20-21, each descriptor 2-31 bits apart, so that a descriptor's nearest in one
    // image lies at many distances behind its nearest in another (the margin decides)
    for (const [slot, of] of [[10, 0], [11, 1], [12, 2], [13, 3], [14, 4], [27, 20], [28, 21]]) {
      images[slot] = images[of].slice();
      for (let i = 0; i < 150; i++)
        for (let f = 2 + Math.floor(rnd() * 30); f > 0; f--) {
          const bit = Math.floor(rnd() * 256);
          images[slot][i * 8 + (bit >> 5)] ^= 1 << (bit & 31);
        }
    }
    const vocab = Vocabulary.build(images.slice(0, 24), 8);
    const store = new DescriptorChunks();
    const owners = images.slice(0, 24).map((d, slot) => ({ first: store.append(d), n: 150, slot }));
    const lists = buildPostings(store, owners, images.slice(0, 24).map((d) => vocab.quantize(d)), vocab.size, slots16);
    expect(lists.slot.BYTES_PER_ELEMENT).toBe(bytes);
    // six images added after the build, filed at the end of their words' lists
    for (let slot = 24; slot < 30; slot++) {
      const w = vocab.quantize(images[slot]);
      for (let i = 0; i < 150; i++) (lists.extra[w[i]] ??= new Postings(4)).push(slot, i, images[slot]);
    }
    // photo descriptors: noisy copies of reference descriptors (some twice, so that the ratio test
    // decides), and random ones
    const query = new Uint32Array(800 * 8).map(word);
    for (let j = 0; j < 800; j += 2) {
      const slot = Math.floor(rnd() * 30), i = Math.floor(rnd() * 150);
      query.set(images[slot].subarray(i * 8, i * 8 + 8), j * 8);
      for (let f = Math.floor(rnd() * 40); f > 0; f--) {
        const bit = Math.floor(rnd() * 256);
        query[j * 8 + (bit >> 5)] ^= 1 << (bit & 31);
      }
    }
    const { words, second } = vocab.quantizeSoft(query, 4);
    const alive = new Uint8Array(30).fill(1);
    alive[3] = alive[17] = alive[26] = 0; // removed, from the store and from those added
    for (const qSecond of [null, second]) {
      const counts: number[] = [];
      for (const [max, accept, ratio, margin] of [[64, 50, 0.8, 999], [64, 50, 0.8, 12], [60, 45.5, 0.7, 4]]) {
        const { acc, nAcc, votes, voted } = await vote(query, words, qSecond, lists, alive, max, accept, ratio, margin);
        // the same vote shared with another thread (here its code run in this one): the same votes in the same order
        const shared = await vote(query, words, qSecond, lists, alive, max, accept, ratio, margin, async (task) => voteRemote(task));
        expect([...shared.acc.subarray(0, shared.nAcc * 3)]).toEqual([...acc.subarray(0, nAcc * 3)]);
        expect(shared.voted).toEqual(voted);
        const got: string[] = [];
        for (let k = 0; k < nAcc; k++) got.push(`${acc[k * 3]}:${acc[k * 3 + 1]}:${acc[k * 3 + 2]}`);
        const expected = plainVote(query, words, qSecond, lists, alive, max, accept, ratio, margin);
        expect(got.sort()).toEqual(expected);
        expect(expected.length).toBeGreaterThan(150);
        expect(expected.some((v) => Number(v.split(':')[0]) >= 24), 'images added since the build get votes').toBe(true);
        // every image voted for is listed once, with its count
        expect([...voted].sort((x, y) => x - y)).toEqual([...new Set(expected.map((v) => Number(v.split(':')[0])))].sort((x, y) => x - y));
        for (const slot of voted) expect(votes[slot]).toBe(expected.filter((v) => v.startsWith(`${slot}:`)).length);
        counts.push(expected.length);
      }
      // the margin drops the look-alikes' far votes, more of them as it narrows
      expect(counts[1]).toBeLessThan(counts[0]);
      expect(counts[2]).toBeLessThan(counts[1]);
    }
  });

  it('gives back each filed image\'s descriptors in their order, from the reordered lists', () => {
    const rnd = mulberry32(7);
    const word = () => (rnd() * 2 ** 32) >>> 0;
    // images of different sizes; slot 2 is skipped (a removed image's descriptors stay in the store unfiled)
    const sizes = [120, 1, 300, 77, 200];
    const images = sizes.map((n) => new Uint32Array(n * 8).map(word));
    const vocab = Vocabulary.build(images, 6);
    const store = new DescriptorChunks();
    const firsts = images.map((d) => store.append(d));
    const filed = [0, 1, 3, 4];
    const owners = filed.map((k, slot) => ({ first: firsts[k], n: sizes[k], slot: slot * 2 }));
    const lists = buildPostings(store, owners, filed.map((k) => vocab.quantize(images[k])), vocab.size);
    expect(lists.slot.BYTES_PER_ELEMENT).toBe(2);
    for (const [j, k] of filed.entries()) {
      const out = new Uint32Array(sizes[k] * 8);
      gatherSlot(lists, j * 2, out);
      expect(out).toEqual(images[k]);
    }
    // a slot with nothing filed gathers nothing
    const none = new Uint32Array(8);
    gatherSlot(lists, 1, none);
    expect([...none]).toEqual(new Array(8).fill(0));
  });

  it('finds a reference across a word boundary through the second word', async () => {
    const rnd = mulberry32(21);
    const word = () => (rnd() * 2 ** 32) >>> 0;
    // 40 reference images of 200 descriptors each, and a vocabulary of 12 x 12 words built from them
    const images = Array.from({ length: 40 }, () => new Uint32Array(200 * 8).map(word));
    const vocab = Vocabulary.build(images, 12);
    const store = new DescriptorChunks();
    const owners = images.map((d, slot) => ({ first: store.append(d), n: 200, slot }));
    const lists = buildPostings(store, owners, images.map((d) => vocab.quantize(d)), vocab.size);
    // photo descriptors: copies of reference descriptors with 16-30 bits flipped (blur, light)
    const source: [number, number][] = [];
    const query = new Uint32Array(1000 * 8);
    for (let j = 0; j < 1000; j++) {
      const slot = Math.floor(rnd() * 40), i = Math.floor(rnd() * 200);
      source.push([slot, i]);
      query.set(images[slot].subarray(i * 8, i * 8 + 8), j * 8);
      for (let f = 16 + Math.floor(rnd() * 15); f > 0; f--) {
        const bit = Math.floor(rnd() * 256);
        query[j * 8 + (bit >> 5)] ^= 1 << (bit & 31);
      }
    }
    const { words, second } = vocab.quantizeSoft(query, 4);
    expect(Array.from(words)).toEqual(Array.from(vocab.quantize(query)));
    expect(second.some((w, j) => w !== NO_WORD && w !== words[j])).toBe(true);
    expect(second.every((w, j) => w !== words[j])).toBe(true);

    const alive = new Uint8Array(40).fill(1);
    const found = async (qSecond: Uint16Array | null) => {
      const { acc, nAcc } = await vote(query, words, qSecond, lists, alive, 64, 50, 0.8, 999);
      const pairs = new Set<string>();
      for (let k = 0; k < nAcc; k++) {
        const [slot, j, i] = [acc[k * 3], acc[k * 3 + 1], acc[k * 3 + 2]];
        expect(source[j], 'a photo descriptor votes only for its own reference').toEqual([slot, i]);
        pairs.add(`${j}`);
      }
      return pairs;
    };
    const own = await found(null);
    const both = await found(second);
    // every reference found in the descriptor's own word is still found, and many more beside it
    for (const j of own) expect(both.has(j)).toBe(true);
    expect(own.size).toBeGreaterThan(200);
    expect(both.size).toBeGreaterThan(own.size * 1.1);
  });
});
