/**
 * A photo's visual words are found in WebAssembly (words.wat, committed assembled in words-wasm.ts).
 * The vote looks a descriptor up under its word and its second word, so the two must be the ones the
 * JavaScript search found, descriptor for descriptor: the nearest centroid (the first of equally near
 * ones), and the second word within the slack, under the same top node or the second-nearest one.
 */
import { describe, expect, it } from 'vitest';
import { assembleKernel, kernelModuleSource } from '~/cli/build-wasm';
import { NO_WORD, popcnt, Vocabulary, wordRarity, type PostingLists } from '~/services/identification/vocab.server';
import { WORDS_WASM } from '~/services/identification/words-wasm';
import { mulberry32 } from '~/utils/random';

/** The JavaScript search the kernel replaced: nearest and second-nearest centroids, ties to the first. */
function nearest2(cent: Uint32Array, k: number, data: Uint32Array, di: number) {
  let best = 0, bd = 1e9, sec = -1, sd = 1e9;
  for (let c = 0; c < k; c++) {
    let d = 0;
    for (let w = 0; w < 8; w++) d += popcnt(data[di * 8 + w] ^ cent[c * 8 + w]);
    if (d < bd) [sec, sd, bd, best] = [best, bd, d, c];
    else if (d < sd) [sec, sd] = [c, d];
  }
  return { best, bd, second: sec < 0 ? best : sec, sd: sec < 0 ? 1e9 : sd };
}

function plainSoft(v: Vocabulary, desc: Uint32Array, slack: number) {
  const n = desc.length / 8, topK = v.top.length / 8;
  const words = new Uint16Array(n), second = new Uint16Array(n).fill(NO_WORD);
  for (let i = 0; i < n; i++) {
    const top = nearest2(v.top, topK, desc, i);
    const leaf = v.leaves[top.best];
    const r = nearest2(leaf, leaf.length / 8, desc, i);
    words[i] = top.best * v.branch + r.best;
    let alt = r.sd <= r.bd + slack ? top.best * v.branch + r.second : NO_WORD;
    if (topK > 1 && top.sd <= top.bd + slack) {
      const leaf2 = v.leaves[top.second];
      const r2 = nearest2(leaf2, leaf2.length / 8, desc, i);
      if (r2.bd <= r.bd + slack && (alt === NO_WORD || r2.bd < r.sd)) alt = top.second * v.branch + r2.best;
    }
    second[i] = alt;
  }
  return { words, second };
}

/** Descriptors in clusters (as a catalogue's are), so that words, ties and near boundaries all occur. */
function descriptors(n: number, seed: number, centres: Uint32Array[]): Uint32Array {
  const rnd = mulberry32(seed);
  const out = new Uint32Array(n * 8);
  for (let i = 0; i < n; i++) {
    const c = centres[Math.floor(rnd() * centres.length)];
    for (let w = 0; w < 8; w++) {
      let flips = 0;
      for (let b = 0; b < 32; b++) if (rnd() < 0.12) flips |= 1 << b;
      out[i * 8 + w] = (c[w] ^ flips) >>> 0;
    }
  }
  return out;
}

describe('visual words (WebAssembly)', () => {
  const rnd = mulberry32(7);
  const centres = Array.from({ length: 60 }, () => Uint32Array.from({ length: 8 }, () => Math.floor(rnd() * 2 ** 32)));
  const catalogue = [0, 1, 2, 3].map((k) => descriptors(1500, 100 + k, centres));

  it('are the words and second words the JavaScript search found, at every slack', () => {
    for (const branch of [32, 8]) {
      const vocab = Vocabulary.build(catalogue, branch, 4000);
      const photo = descriptors(2000, 9 + branch, centres);
      for (const slack of [0, 4, 12]) {
        const ours = vocab.quantizeSoft(photo, slack);
        const plain = plainSoft(vocab, photo, slack);
        expect([...ours.words], `branch ${branch}, slack ${slack}`).toEqual([...plain.words]);
        expect([...ours.second], `branch ${branch}, slack ${slack}`).toEqual([...plain.second]);
        // the second words are exercised: some descriptors have one, some none
        if (slack === 4) {
          expect(ours.second.some((w) => w !== NO_WORD)).toBe(true);
          expect(ours.second.some((w) => w === NO_WORD)).toBe(true);
        }
      }
      // quantize (the references' words) agrees with the nearest word
      expect([...vocab.quantize(photo)]).toEqual([...vocab.quantizeSoft(photo, 0).words]);
    }
  });

  it('handle a vocabulary built from three descriptors (leaves of one centroid)', () => {
    const vocab = Vocabulary.build([descriptors(3, 5, centres.slice(0, 1))], 32, 4000);
    const photo = descriptors(50, 6, centres);
    const ours = vocab.quantizeSoft(photo, 4);
    const plain = plainSoft(vocab, photo, 4);
    expect([...ours.words]).toEqual([...plain.words]);
    expect([...ours.second]).toEqual([...plain.second]);
  });

  it('run the kernel assembled from words.wat', async () => {
    const bytes = await assembleKernel('words');
    expect(Buffer.from(WORDS_WASM, 'base64').equals(Buffer.from(bytes)), 'run npm run wasm').toBe(true);
    expect(kernelModuleSource('words', bytes)).toContain(WORDS_WASM);
  });
});

describe('word rarity (the weight of a vote in the shortlist)', () => {
  it('is log(images / images with the word), an image counted once however often it has the word', () => {
    // word 0: images 0, 1, 2 (image 1 twice); word 1: image 2 only; word 2: no image
    const lists = { start: Uint32Array.from([0, 4, 5, 5]), slot: Int32Array.from([0, 1, 1, 2, 2]) } as unknown as PostingLists;
    const idf = wordRarity(lists);
    expect(Array.from(idf)).toEqual([0, Math.log(3), 0]);
    expect(wordRarity(lists)).toBe(idf); // kept for the build's lists
  });
});
