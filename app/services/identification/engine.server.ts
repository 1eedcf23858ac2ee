// PinDex visual pin-identification engine.
//
// Pipeline per query photo:
//  1. decode + ORB keypoints (OpenCV WASM)
//  2. shortlist: each query descriptor is compared only with the reference descriptors of its visual word
//     (two-level k-majority vocabulary, built lazily from the index and rebuilt when it grows 4x); per image
//     ratio-tested nearest neighbours are votes and, at the same time, tentative correspondences
//  3. geometric verification of the best-voted images: RANSAC homography (OpenCV), inlier count
//  4. fine check: warp the photo onto each surviving reference and compare colours/text area pixel-wise
//     (after a per-channel gain/offset fit), which separates near-identical family members and rejects
//     text-only variants that are not in the catalogue; look-alike pins "duel" on the pixels where their
//     references differ (reference-to-reference homography), the loser of a close duel makes the answer ambiguous
//  5. detail check of the winner at the reference's full resolution (detail.server.ts): tile-by-tile
//     correlation that glare and lighting do not upset and a different team name or year does; the part
//     of a spinner or dangler that has moved is compared under its own second motion
//  6. decision + confidence (thresholds fitted on the public benchmark set as a whole)
import { getCV, type CV } from "./opencv.server";
import { storedGray, storedThumb, storedTint } from "./reference-pixels.server";
import { deblurGray, estimateMotionBlur } from "./blur.server";
import { gaussianBlur } from "./pixels.server";
import { orbPattern } from "./brief.server";
import {
  decodeFeatures,
  decodeReference,
  decodeRGB,
  extractFeaturesImpl,
  featureCut,
  featureLayout,
  featureThumbnail,
  concatOrb,
  runOrb,
  runOrbLevels,
  toGray,
  THUMB_SIDE,
  type OrbResult,
  type RawImage,
} from "./features.server";
import { asWords, buildPostings, DescriptorChunks, MAX_IMAGE_DESCRIPTORS, postingOf, Postings, ratioMatches, vote, Vocabulary, type PostingLists, type VoteTask } from "./vocab.server";
import {
  BACKGROUND_STEP,
  decodeLayout,
  dilated,
  letterDuel,
  makeReferenceDetail,
  lettersUnlike,
  pinMask,
  projectTint,
  referenceLayout,
  tintedGray,
  runDetail,
  type DetailOutcome,
  type DetailResult,
  type LetterDuel,
  type ReferenceDetail,
} from "./detail.server";
import type { DetailWorker } from "./detail-worker.server";
import { fitPinHomography, frameInsidePhoto, invert3, leftoverPairs, quickInliers, referencePairHomography, type Correspondences, type PinFit, type ReferencePair } from "./geometry.server";
import { warpPerspective } from "./warp.server";

export type PinFeatures = Uint8Array;

/** An index entry's key: its image, for its pin. */
const entryKey = (e: { imageId: string; pinId: string }) => `${e.pinId}\n${e.imageId}`;

export async function extractFeatures(image: Buffer): Promise<PinFeatures> {
  return extractFeaturesImpl(image);
}

export interface MatchResult {
  best: { pinId: string; confidence: number } | null;
  candidates: { pinId: string; score: number }[];
  reason: "match" | "no_match" | "ambiguous";
  /**
   * With "ambiguous": the pins among `candidates` that could not be told apart (the duels' favourite,
   * its rivals at its place and the pins it was not parted from), for the user to choose among; the
   * other candidates are only similar.
   */
  family?: string[];
  timings?: Record<string, number>;
}

export interface CandidateDebug {
  imageId: string;
  pinId: string;
  bow: number;
  bowRank: number;
  matches: number;
  inliers: number;
  resid?: number;
  tileP90?: number;
  tileMax?: number;
  localMax?: number;
  wins?: number;
  margin?: number;
  duelErr?: number;
  losses?: number; // duels lost
  winner?: boolean;
  holes?: number;
  residTrim?: number;
  dTiles?: number;
  dMismatch?: number;
  dCluster?: number;
  dMedian?: number;
  dSigma?: number;
  dNotClose?: number;
  dNotCloseCluster?: number;
  dLetters?: number;
  dLineEnd?: number;
  dRead?: number;
  dHighlights?: number;
}

/** Reads the stored reference image of an image id (for the full-resolution detail check). */
export type ReferenceLoader = (imageId: string) => Promise<Uint8Array | Buffer | null>;

/**
 * Reads the stored features of an image id again. With it, the index does not keep the thumbnails in
 * memory (about 16 KB per image, 75 MB at 5,000 images): the fine check reads the few it needs.
 */
export type FeatureLoader = (imageId: string) => Promise<PinFeatures | null>;

/**
 * Reads the stored pixels of an image id (reference-pixels.server.ts): its reference and thumbnail
 * decoded once, so that the match need not decode them. Null (or a blob that does not read) when
 * there are none: the match decodes the JPEGs then.
 */
export type PixelLoader = (imageId: string) => Promise<Uint8Array | null>;

interface Entry {
  imageId: string;
  pinId: string;
  width: number;
  height: number;
  points: Float32Array;
  // the descriptors are stored only once, in the posting lists (or, until the vocabulary is built, in the
  // pending store): see descriptorsOf
  first: number; // index of its first descriptor in the pending store / the store the lists were built from
  nDesc: number;
  words: Uint16Array | null; // images added since the lists were built: the visual word of each descriptor
  pos: Uint32Array | null; // ... and its position in that word's extra list
  hull: Float32Array;
  thumb: Uint8Array | null; // JPEG; null when the index reads it again (FeatureLoader)
  layout: Uint8Array | null; // the reference's stored layout (detail.server.ts); likewise
  cut: Uint8Array | null; // how its pin was cut out of a photo (decodeReference); likewise, and null when not stored
  photo: boolean; // its reference is a pin cut out of a photo (a pin added from a photo that found no match)
  vocabVersion: number;
  slot: number;
}

// ---- tunables (fitted on the public benchmark set as a whole) ----
const QUERY_SIDE = 1024;
const QUERY_FEATURES = 2000;
const QUERY_LEVELS = 8;
const QUERY_ORB = { nfeatures: QUERY_FEATURES, fastThreshold: 10, nlevels: QUERY_LEVELS };
// the pyramid levels whose ORB the main thread finds when the worker finds the others: levels 0-1
// hold about as many pixels (1 + 0.69) as levels 2-7 (1.4). The main thread also looks for a motion
// blur first (`photoOrb`), yet the worker, whose levels take longer while both threads work (about
// 46 against 35 ms on the public set) and whose answer comes by message, still finishes last
const QUERY_NEAR_LEVELS = 2;
const SHORTLIST_IMAGES = 8;
const PHOTO_EXHAUSTIVE = 4; // photo-cut references among the SHORTLIST_VOTED whose correspondences are found exhaustively
const SHORTLIST_VOTED = 32; // images whose inliers are counted (quick RANSAC) to choose the SHORTLIST_IMAGES that are verified
const DEEPER_VOTED = 64; // ... and this many when none of them counts DEEPEN_BELOW inliers
const DEEPEN_BELOW = 50;
const STRONGEST_EXHAUSTIVE = 2; // ... and then this many, the shortlist's strongest, are matched exhaustively (matchStrongest)
const STRONGEST_ITERS = 1000; // RANSAC iterations for counting their inliers again
const MOST_VOTED_EXHAUSTIVE = 2; // ... and so are the most-voted images, which enter the shortlist when they then count more than its weakest
const RANK_ITERS = 250; // RANSAC iterations for counting the inliers of the images voted below the first SHORTLIST_IMAGES
const RATIO = 0.8;
// a photo descriptor votes for an image only when that image's nearest is within this many bits of the
// nearest any image offers it (vote in vocab.server.ts): at 5,000 pins top-1 77.5 -> 80.2%, at 300 pins
// 83.3 -> 83.7%, top-4 96.8 -> 97.2% (engine alone, the whole public set; 8 and 16 bits: "Figures")
const VOTE_MARGIN = 12;
// a photo descriptor is also searched in the visual word it is nearly as close to (within this many
// bits of its own): the vote then depends much less on where the vocabulary's boundaries fall
const SECOND_WORD_SLACK = 4;
const MAX_HAMMING = 64;
const ACCEPT_HAMMING = 50;
const WORD_OCCUPANCY = 200; // target reference descriptors per visual word
const MIN_INLIERS = 12;
const CONFIRM_MIN_INLIERS = 10; // quick RANSAC count that earns the OpenCV homography (fine check needs MIN_INLIERS)
const CONFIRM_SHARE = 0.25; // ... and its share of the best quick count (fine check needs 0.3 of the best)
const FINE_MAX = 6;
const PAIR_DIFF = 60; // summed RGB difference marking pixels where two references differ
const PAIR_MIN_AREA = 12;
const PAIR_MIN_FIT = 500; // pixels to fit the photo's light on for a duel
// two candidates whose silhouettes, placed in the photo by their own homographies, share less than this
// share of either one's pixels were found on different objects (a photo of several pins): they do not duel
const SAME_PLACE_SHARE = 0.2;
const PLAUSIBLE_FACTOR = 1.4;
const PLAUSIBLE_ADD = 4;
// Acceptance rule (fitted on the public benchmark as a whole, not per query):
//   inliers >= ACCEPT_INLIERS and aligned colour residual <= ACCEPT_RESID + ACCEPT_RESID_PER_INLIER * (inliers - ACCEPT_INLIERS)
const ACCEPT_INLIERS = 18;
const ACCEPT_RESID = 10;
const ACCEPT_RESID_PER_INLIER = 0.5;
const AMBIGUOUS_MARGIN = 0.05; // relative error gap required to prefer one look-alike pin over another
// Full-resolution detail acceptance (detail.server.ts): enough textured tiles compared, few of them
// disagreeing, and no larger patch of disagreement (a different team name or year)
const DETAIL_MIN_INLIERS = 12;
const DETAIL_MIN_TILES = 20;
const DETAIL_MAX_MISMATCH = 0.2;
const DETAIL_MAX_CLUSTER = 3;
// a share of the pin's tiles not close to the reference vetoes it; letters that differ veto it on their
// own (wrongLetters), so the share is for a pin changed beyond its lettering: over 40% (30% refused right
// pins that motion blur, defocus, glare or a small pin in the frame left a third of the tiles apart, and
// no unknown pin more)
const DETAIL_VETO_SHARE = 0.4;
const DETAIL_VETO_CLUSTER = 20;
// letters that differ (wrongLetters): a look-alike that is not in the catalogue prints another team name
// (several letters, though glare may leave only two of them to compare) or another year or age group (the
// last digits of a line: lineEndLetters); one letter that differs inside a line is glare, a speck or a
// dangler's swing on the catalogue pin
const LETTERS_VETO = 2;
/**
 * Look-alikes that print at most this many letters otherwise (lettersUnlike) differ in a year or an age
 * group, not a team name: on the public set, years of one design differ in 0 to 4 (a digit a pixel off
 * counts too), team names in 5 to 29 where their letters are found (0 to 2 where few are).
 */
const YEAR_LETTERS = 4;
// letters compared one by one (`lettersRead`) for the pin's lettering to count as read (`photoDamage`)
const LETTERS_READ_MIN = 8;
// ... and the share of the pin's tiles not close to the reference for a disagreement to count as spread
// over the pin (glare, blur) rather than a patch of lettering
const DAMAGE_SPREAD = 0.3;
// a photo with highlights on this share of the pin's pixels or more (the detail check measures them):
// the colour check also accepts the residual of the pin's best 75% of pixels
const HIGHLIGHT_SHARE = 0.01;
// ... up to this share: a reflection covers a minority of a pin; saturated over more of it, the photo is
// blown out or the pin is not where the fit puts it, and no check is relaxed
const HIGHLIGHT_SHARE_MAX = 0.2;
const DUEL_ERR_MAX = 30; // photo disagrees with every look-alike on their differing pixels -> not in catalogue

/**
 * A reference's colour thumbnail as the colour check reads it: its pin (`pinMask`) and the pixels
 * within 2 of the pin (`around`), which the check's 5 x 5 softening of the warped photo reaches from
 * the pin: the photo is warped there only.
 */
interface Thumb extends RawImage {
  pin: Uint8Array;
  around: Uint8Array;
}

function thumbnail(raw: RawImage): Thumb {
  const pin = pinMask(raw, BACKGROUND_STEP);
  return { ...raw, pin, around: dilated(pin, raw.width, raw.height, 2) };
}

/** A small least-recently-used cache keyed by image id (decoded reference images). */
class LruCache<V> {
  private map = new Map<string, V>();
  constructor(private readonly capacity: number) {}
  get(key: string): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) {
      this.map.delete(key); // most recently used last
      this.map.set(key, value);
    }
    return value;
  }
  set(key: string, value: V): void {
    this.map.delete(key);
    if (this.map.size >= this.capacity) {
      const oldest = this.map.keys().next().value;
      if (oldest !== undefined) this.map.delete(oldest);
    }
    this.map.set(key, value);
  }
  delete(key: string): void {
    this.map.delete(key);
  }
}

export class VisualIndex {
  private entries = new Map<string, Entry>();
  private vocab: Vocabulary | null = null;
  private vocabVersion = 0;
  private vocabBuiltAt = 0; // descriptor count at build time
  private pending = new DescriptorChunks(); // descriptors of the images added before the vocabulary exists
  private lists: PostingLists | null = null; // word -> (entry slot, descriptor index)
  private slots: (Entry | null)[] = [];
  // decoded images of the last candidates: a thumbnail with its masks is about 0.33 MB, a reference
  // detail up to 1.5 MB (grayscale, mask and its blurred copies); a photo rarely shows the pin of the
  // previous one, and a miss costs a few milliseconds of decoding, so both are kept small
  private thumbCache = new LruCache<Thumb>(16);
  private detailCache = new LruCache<Promise<ReferenceDetail | null>>(4);

  constructor(
    private readonly loadReference?: ReferenceLoader,
    private readonly loadFeatures?: FeatureLoader,
    /** shares the ORB, the geometry and the detail checks on the second core (detail-worker.server.ts); without it, all run here */
    private readonly detailWorker: DetailWorker | null = null,
    private readonly loadPixels?: PixelLoader,
  ) {}

  /** The stored pixels of an image, or null (none stored, or the loader failed). */
  private async pixelsOf(e: Entry): Promise<Uint8Array | null> {
    return this.loadPixels ? this.loadPixels(e.imageId).catch(() => null) : null;
  }

  /** The full-resolution reference of an image with its stored layout (cached; concurrent callers share one load). */
  private detailOf(e: Entry): Promise<ReferenceDetail | null> {
    if (!this.loadReference) return Promise.resolve(null);
    const hit = this.detailCache.get(e.imageId);
    if (hit !== undefined) return hit;
    const load = async (loader: ReferenceLoader): Promise<ReferenceDetail | null> => {
      const [pixels, features] = await Promise.all([
        this.pixelsOf(e),
        e.layout || !this.loadFeatures ? null : this.loadFeatures(e.imageId).catch(() => null),
      ]);
      const stored = e.layout ?? (features ? featureLayout(features) : null);
      // decoded and stored once (reference-pixels.server.ts): the same bytes as decoding it here
      const kept = pixels && stored?.length ? storedGray(pixels, e.width, e.height) : null;
      if (pixels && kept && stored) {
        const layout = decodeLayout(stored, e.width, e.height);
        return { ...makeReferenceDetail(kept, e.width, e.height, layout), photo: e.photo, tinted: storedTint(pixels, e.width, e.height) };
      }
      const bytes = await loader(e.imageId).catch(() => null);
      if (!bytes) return null;
      const cv = await getCV();
      // decoded as at extraction: a pin photographed on its own background is cut out by its stored cut
      const { image: raw } = await decodeReference(cv, bytes, e.layout ? e.cut : features ? featureCut(features) : null);
      if (raw.width !== e.width || raw.height !== e.height) return null;
      const gray = toGray(raw);
      // features of an older blob carry no layout: it is found now
      const layout = stored?.length ? decodeLayout(stored, raw.width, raw.height) : referenceLayout(cv, raw, gray);
      return { ...makeReferenceDetail(gray, raw.width, raw.height, layout), photo: e.photo, tinted: tintedGray(raw, gray, layout.glyphs) };
    };
    const pending = load(this.loadReference).catch(() => null);
    this.detailCache.set(e.imageId, pending);
    return pending;
  }

  /**
   * Indexes one reference image of a pin. An image is kept once per pin: two pins may share one (the
   * image store keeps one copy of the same bytes, and two editions of a pin may have one picture), and
   * each is then a candidate, so that a photo of either is answered as one of the two, not as the one
   * added last.
   */
  add(entry: { imageId: string; pinId: string; features: PinFeatures }): void {
    const key = entryKey(entry);
    if (this.entries.has(key)) this.removeEntry(key);
    const f = decodeFeatures(entry.features);
    // ORB keeps 1,000 per reference image; the cap only guards the posting lists' 16-bit indices
    const desc = asWords(f.desc).subarray(0, MAX_IMAGE_DESCRIPTORS * 8);
    const e: Entry = {
      imageId: entry.imageId,
      pinId: entry.pinId,
      width: f.width,
      height: f.height,
      points: f.points,
      first: -1,
      nDesc: desc.length / 8,
      words: null,
      pos: null,
      hull: f.hull,
      thumb: this.loadFeatures ? null : f.thumb.slice(), // kept: a copy, not a view of the whole blob
      layout: this.loadFeatures ? null : f.layout.slice(),
      cut: this.loadFeatures ? null : (f.cut?.slice() ?? null),
      photo: !!f.cut && f.cut.length > 0,
      vocabVersion: -1,
      slot: this.slots.length,
    };
    this.slots.push(e);
    this.entries.set(key, e);
    if (this.lists) this.indexEntry(e, desc);
    else e.first = this.pending.append(desc);
  }

  private removeEntry(key: string): void {
    const e = this.entries.get(key);
    if (!e) return;
    this.slots[e.slot] = null; // postings of dead slots are skipped, and dropped at the next rebuild
    this.entries.delete(key);
    this.thumbCache.delete(e.imageId);
    this.detailCache.delete(e.imageId);
  }

  removePin(pinId: string): void {
    for (const [key, e] of [...this.entries]) if (e.pinId === pinId) this.removeEntry(key);
  }

  get size(): number {
    return this.entries.size;
  }

  private totalDescriptors(): number {
    let t = 0;
    for (const e of this.entries.values()) t += e.nDesc;
    return t;
  }

  /** Files the descriptors of an image added since the lists were built at the end of their words' lists. */
  private indexEntry(e: Entry, desc: Uint32Array): void {
    const lists = this.lists as PostingLists;
    const words = (this.vocab as Vocabulary).quantize(desc);
    e.words = words;
    e.vocabVersion = this.vocabVersion;
    e.pos = new Uint32Array(e.nDesc);
    for (let i = 0; i < e.nDesc; i++) {
      const p = (lists.extra[words[i]] ??= new Postings(4));
      e.pos[i] = p.n;
      p.push(e.slot, i, desc);
    }
  }

  /** The entry's descriptors (8 words each): a view of the pending store, or gathered from the posting lists. */
  private descriptorsOf(e: Entry): Uint32Array {
    const lists = this.lists;
    if (!lists) return this.pending.range(e.first, e.nDesc);
    const out = new Uint32Array(e.nDesc * 8);
    if (e.words && e.pos) {
      for (let i = 0; i < e.nDesc; i++) {
        const p = lists.extra[e.words[i]] as Postings;
        out.set(p.desc.subarray(e.pos[i] * 8, e.pos[i] * 8 + 8), i * 8);
      }
    } else for (let i = 0; i < e.nDesc; i++) lists.store.copy(postingOf(lists, e.first + i, e.slot, i), out, i);
    return out;
  }

  /**
   * Builds (or rebuilds, when the index has grown a lot) the vocabulary and posting lists. The lists are
   * made from the pending store in place; a rebuild first gathers the live images' descriptors from the
   * old lists into a new store (two copies for a moment, as the old lists go only when collected).
   */
  private ensureVocab(): void {
    for (const step of this.vocabSteps()) void step;
  }

  /**
   * The build of `ensureVocab` as steps (it yields after each image's words), so that `warmUp` can
   * let the server answer requests between them; run to its end at once, it is `ensureVocab`.
   */
  private *vocabSteps(): Generator<void, void, void> {
    const total = this.totalDescriptors();
    if (this.vocab && total <= this.vocabBuiltAt * 4 + 20000) return;
    const branch = Math.max(12, Math.min(128, Math.round(Math.sqrt(total / WORD_OCCUPANCY))));
    const live = [...this.entries.values()];
    let store = this.pending;
    if (this.lists) {
      store = new DescriptorChunks();
      for (const e of live) e.first = store.append(this.descriptorsOf(e));
      for (const e of live) e.words = e.pos = null;
      this.lists = null;
    }
    this.pending = new DescriptorChunks();
    const descs = live.map((e) => store.range(e.first, e.nDesc));
    yield;
    const vocab = Vocabulary.build(descs, branch);
    const words: Uint16Array[] = [];
    for (const d of descs) {
      yield;
      words.push(vocab.quantize(d));
    }
    yield;
    this.vocab = vocab;
    this.vocabVersion++;
    this.vocabBuiltAt = total;
    this.slots = [];
    for (const e of live) {
      e.slot = this.slots.length;
      this.slots.push(e);
    }
    this.lists = buildPostings(store, live.map((e) => ({ first: e.first, n: e.nDesc, slot: e.slot })), words, vocab.size);
  }

  /** The decoded thumbnail and its pin mask; null if the stored features are gone. */
  private async thumbOf(e: Entry): Promise<Thumb | null> {
    const c = this.thumbCache.get(e.imageId);
    if (c) return c;
    const pixels = await this.pixelsOf(e);
    const kept = pixels && storedThumb(pixels);
    if (kept) {
      const img = thumbnail(kept);
      this.thumbCache.set(e.imageId, img);
      return img;
    }
    let jpeg = e.thumb;
    if (!jpeg && this.loadFeatures) {
      const features = await this.loadFeatures(e.imageId);
      jpeg = features ? featureThumbnail(features) : null;
    }
    if (!jpeg) return null;
    const img = thumbnail(await decodeRGB(jpeg, THUMB_SIDE));
    this.thumbCache.set(e.imageId, img);
    return img;
  }

  /**
   * Starts the OpenCV runtime, reads its ORB pattern (brief.server.ts) and builds the vocabulary now
   * rather than on the first photo (the server calls it once the stored features are loaded; at 5,000
   * pins the build takes seconds).
   */
  async warmUp(pause?: () => Promise<void>): Promise<void> {
    orbPattern(await getCV());
    if (this.entries.size === 0) return;
    if (!pause) return this.ensureVocab();
    // the server's warm-up: nothing may change the index until it ends (index.server.ts holds back
    // additions and removals meanwhile); a pause about every 20 ms keeps requests answered
    let since = performance.now();
    for (const step of this.vocabSteps()) {
      void step;
      if (performance.now() - since < 20) continue;
      await pause();
      since = performance.now();
    }
  }

  /**
   * The photo's ORB keypoints. With the worker, it finds those of the pyramid's smaller levels while
   * this thread finds those of the two largest (about half the work each): the same keypoints, in the
   * same order, as one ORB over all levels (`runOrbLevels`). If the worker fails, its levels are found here.
   */
  private async queryOrb(cv: CV, gray: Uint8Array, width: number, height: number): Promise<OrbResult> {
    if (!this.detailWorker) return runOrb(cv, gray, width, height, QUERY_ORB);
    return this.splitOrb(this.detailWorker, cv, gray, width, height).finish();
  }

  /**
   * The photo's ORB shared with the worker: it starts on the levels from QUERY_NEAR_LEVELS on at once,
   * and `finish` finds those below it here and puts them all together in level order (the worker's
   * levels are found here too if it fails). `remote` settles when the worker has answered.
   */
  private splitOrb(worker: DetailWorker, cv: CV, gray: Uint8Array, width: number, height: number) {
    const levels = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => from + k);
    const first = QUERY_NEAR_LEVELS;
    const far = levels(first, QUERY_LEVELS);
    const remote = worker.orb({ gray, width, height, params: QUERY_ORB, levels: far }).catch(() => null);
    const finish = async () =>
      concatOrb([runOrbLevels(cv, gray, width, height, QUERY_ORB, levels(0, first)), (await remote) ?? runOrbLevels(cv, gray, width, height, QUERY_ORB, far)]);
    return { remote, finish };
  }

  /**
   * The photo's ORB keypoints, found on the photo with its motion blur undone when it shows one
   * (blur.server.ts): a smeared corner is an edge, and ORB finds few on the pin. With the worker, it
   * finds the keypoints of the smaller levels while this thread looks for a blur (about 16 ms), then
   * those of the two largest: when there is none, the same keypoints as `queryOrb`'s, sooner than
   * looking first. When there is one, the photo's levels are dropped and those of the photo with the
   * blur undone are found instead.
   */
  private async photoOrb(cv: CV, gray: Uint8Array, width: number, height: number): Promise<OrbResult> {
    if (!this.detailWorker) {
      const blur = estimateMotionBlur(cv, gray, width, height);
      return runOrb(cv, blur ? deblurGray(cv, gray, width, height, blur) : gray, width, height, QUERY_ORB);
    }
    const split = this.splitOrb(this.detailWorker, cv, gray, width, height);
    const blur = estimateMotionBlur(cv, gray, width, height);
    if (!blur) return split.finish();
    const clear = deblurGray(cv, gray, width, height, blur);
    await split.remote; // the worker is free for the new photo's levels once it has answered
    return this.queryOrb(cv, clear, width, height);
  }

  /**
   * `local` over the items, every other one given to the worker (`remote`) at the same time; without
   * the worker, or if it fails, all are done here. The items are independent and their functions
   * deterministic, so the results are those of one thread.
   */
  private async shared<I, O>(items: I[], local: (item: I) => O, remote: (worker: DetailWorker, items: I[]) => Promise<O[]>): Promise<O[]> {
    const worker = this.detailWorker;
    if (!worker || items.length < 2) return items.map(local);
    const theirs = items.filter((_, k) => k % 2 === 1);
    const sent = remote(worker, theirs).catch(() => null);
    const out: O[] = items.map((item, k) => (k % 2 === 0 ? local(item) : (undefined as O)));
    const got = (await sent) ?? theirs.map(local);
    got.forEach((o, j) => (out[j * 2 + 1] = o));
    return out;
  }

  /** `debug` (optional) receives per-candidate diagnostics; used by the benchmark only. */
  async match(photo: Buffer, opts?: { limit?: number; debug?: CandidateDebug[] }): Promise<MatchResult> {
    const limit = Math.max(1, Math.min(5, opts?.limit ?? 5));
    const timings: Record<string, number> = {};
    let t = performance.now();
    const lap = (name: string) => {
      const n = performance.now();
      timings[name] = Math.round((n - t) * 10) / 10;
      t = n;
    };
    const cv = await getCV();
    lap("init");
    const img = await decodeRGB(photo, QUERY_SIDE, QUERY_SIDE, true);
    lap("decode");
    const gray = toGray(img);
    const orb = await this.photoOrb(cv, gray, img.width, img.height);
    const qDesc = asWords(orb.desc);
    const qn = qDesc.length / 8;
    lap("orb");
    if (this.entries.size === 0 || qn < 8) {
      return { best: null, candidates: [], reason: "no_match", timings };
    }
    this.ensureVocab();
    const vocab = this.vocab as Vocabulary;
    const { words: qWords, second: qSecond } = vocab.quantizeSoft(qDesc, SECOND_WORD_SLACK);
    // approximate nearest neighbours inside each visual word: per (query descriptor, image) keep best and
    // second-best distance; accepted pairs (absolute + ratio test) are tentative correspondences.
    // the slots as they are now: the vote awaits the worker, and an image removed meanwhile is left out
    // below (its slot is emptied in place), one added meanwhile is not voted for (a rebuild makes new slots)
    const slots = this.slots;
    const alive = new Uint8Array(slots.length);
    slots.forEach((e, slot) => (alive[slot] = e ? 1 : 0));
    const helper = this.detailWorker;
    const remote = helper ? (task: VoteTask) => helper.vote(task) : undefined;
    const { votes, voted, acc, nAcc } = await vote(qDesc, qWords, qSecond, this.lists as PostingLists, alive, MAX_HAMMING, ACCEPT_HAMMING, RATIO, VOTE_MARGIN, remote);
    voted.sort((a, b) => votes[b] - votes[a]); // stable: equal votes keep first-vote order
    const ranked = voted.filter((slot) => slots[slot]).map((slot) => ({ e: slots[slot] as Entry, slot, votes: votes[slot], arr: [] as number[] }));
    // correspondences (query index, reference index) of the images that can make the shortlist
    const listed = new Map(ranked.slice(0, DEEPER_VOTED).map((r) => [r.slot, r.arr]));
    for (let k = 0; k < nAcc; k++) listed.get(acc[k * 3])?.push(acc[k * 3 + 1], acc[k * 3 + 2]);
    // a reference cut out of a phone photo (a pin added from a photo that found no match) is blurred,
    // enlarged and lit unlike the next photo of the pin, and the vote finds about half of the
    // correspondences that an exhaustive search finds (on the public set's photo-added pins): those
    // among the most-voted images, at most PHOTO_EXHAUSTIVE, are matched with every photo descriptor
    // (2,000 x 1,000, about 4 ms each; every other one in the worker)
    const exhaustive = ranked.slice(0, SHORTLIST_VOTED).filter((r) => r.e.photo).slice(0, PHOTO_EXHAUSTIVE);
    if (exhaustive.length > 0) {
      const found = await this.matchAll(qDesc, exhaustive.map((r) => r.e));
      exhaustive.forEach((r, k) => (r.arr = found[k]));
    }
    lap("shortlist");

    // geometric verification
    const topVotes = ranked[0]?.votes ?? 0;
    const countable = (r: (typeof ranked)[number]) => r.votes >= 6 && r.votes >= topVotes * 0.15;
    const counted = ranked.slice(0, SHORTLIST_VOTED).filter(countable);
    interface Verified {
      e: Entry;
      bow: number;
      bowRank: number;
      matches: number;
      inliers: number;
      H: number[] | null;
      resid?: number;
      tileP90?: number;
      tileMax?: number;
      localMax?: number;
      holes?: number;
      residTrim?: number;
      al?: Aligned;
      pairs: number[];
    }
    // Two passes. A quick RANSAC (ransac.wat) counts the inliers of the SHORTLIST_VOTED most-voted images
    // (OpenCV's estimator spends ~10 ms on an image with few inliers, and most have few; those below the
    // first SHORTLIST_IMAGES get fewer iterations, enough to rank them), and the SHORTLIST_IMAGES with the
    // most inliers are shortlisted: votes alone rank the right pin 9th-50th when pins at the photo's edge
    // or a blurred photo spread them (top-4 92.3 -> 93.5% on the public set). The shortlisted images that
    // can still reach the fine check get OpenCV's RANSAC homography, the one the colour and detail checks
    // were fitted with (with many inliers it needs few iterations). The confirmation bar is set below the
    // fine check's so that the quick count's own randomness does not keep a candidate out.
    // With the worker, every other candidate is counted, and every other homography fitted, there.
    const pointsOf = (s: (typeof ranked)[number]) => pairPoints(s.arr, orb.points, s.e);
    const countQuick = (items: (Correspondences & { iters: number })[]) =>
      this.shared(items, (p) => quickInliers(p, p.iters), (worker, some) => worker.quickInliers(some));
    const countedPoints = counted.map(pointsOf);
    const countedQuick = await countQuick(countedPoints.map((p, k) => ({ ...p, iters: k < SHORTLIST_IMAGES ? 1000 : RANK_ITERS })));
    // a small pin, or one that is blurred or far from square to the camera, gets few of the photo's
    // features, and the vote may rank it below the first SHORTLIST_VOTED: when none of those counts
    // DEEPEN_BELOW inliers, the next ones are counted too
    if (Math.max(0, ...countedQuick) < DEEPEN_BELOW) {
      const deeper = ranked.slice(SHORTLIST_VOTED, DEEPER_VOTED).filter(countable);
      const deeperPoints = deeper.map(pointsOf);
      const deeperQuick = await countQuick(deeperPoints.map((p) => ({ ...p, iters: RANK_ITERS })));
      counted.push(...deeper);
      countedPoints.push(...deeperPoints);
      countedQuick.push(...deeperQuick);
    }
    const order = counted
      .map((_, k) => k)
      .sort((x, y) => countedQuick[y] - countedQuick[x] || x - y)
      .slice(0, SHORTLIST_IMAGES)
      .sort((x, y) => x - y); // back in vote order
    const shortlist = order.map((k) => counted[k]);
    const points = order.map((k) => countedPoints[k]);
    const quick = order.map((k) => countedQuick[k]);
    if (Math.max(0, ...quick) < DEEPEN_BELOW) await this.matchStrongest(qDesc, orb.points, shortlist, points, quick, countQuick, ranked.slice(0, MOST_VOTED_EXHAUSTIVE));
    const bestQuick = Math.max(0, ...quick);
    // the full-resolution reference of the likely strongest candidate is read (stored decoded, or decoded
    // by sharp off the main thread) while the homographies are fitted, ready for its detail check
    const likely = quick.indexOf(bestQuick);
    if (likely >= 0 && bestQuick >= CONFIRM_MIN_INLIERS) {
      void this.detailOf(shortlist[likely].e);
      await new Promise((resolve) => setImmediate(resolve)); // lets its read reach sharp before the fits
    }

    // full-resolution detail checks, each started once (on the second core, or here), kept with the photo
    // warped onto the reference for the letter comparison of look-alikes
    const warps = new Map<Verified, Checked>();
    const checks = new Map<Verified, Promise<DetailResult | undefined>>();
    /** A detail check of reference `e` under homography H, with `ref` once read; in the worker when given one. */
    const runCheck = async (e: Entry, H: number[], pairs: number[], worker: DetailWorker | null, ref: ReferenceDetail | null = null) => {
      ref ??= await this.detailOf(e);
      if (!ref) return null;
      // a spinner or dangler moves on its own: the correspondences that the pin's homography leaves
      // out may agree on a second motion; tiles that do not match under the first get a second chance
      // letters printed in a colour as light as the enamel behind them are read on the reference's tint
      const tint = ref.tinted ? projectTint(img, ref.tinted.tint) : undefined;
      const task = { gray, width: img.width, height: img.height, H, leftover: leftoverPairs(pairs, orb.points, e.points, H), ref, tint };
      const outcome = (worker && (await worker.run(e.imageId, task).catch(() => null))) || runDetail(cv, task);
      return { outcome, ref };
    };
    const keep = (v: Verified, checked: Promise<{ outcome: DetailOutcome; ref: ReferenceDetail } | null>) =>
      checked.then((c) => {
        if (!c) return undefined;
        warps.set(v, { warped: c.outcome.warped, valid: c.outcome.valid, ref: c.ref, d: c.outcome.d });
        return c.outcome.d;
      });
    // a check started before its candidate was verified (below), taken up when that candidate is checked
    const started = new Map<Verified, Promise<{ outcome: DetailOutcome; ref: ReferenceDetail } | null>>();
    const detailFor = (v: Verified, inWorker = false): Promise<DetailResult | undefined> => {
      let p = checks.get(v);
      if (!p) {
        const run = started.get(v) ?? (v.H ? runCheck(v.e, v.H, v.pairs, inWorker ? this.detailWorker : null) : null);
        checks.set(v, (p = run ? keep(v, run) : Promise.resolve(undefined)));
      }
      return p;
    };

    const toFit = shortlist.map((_, rank) => rank).filter((rank) => quick[rank] >= CONFIRM_MIN_INLIERS && quick[rank] >= bestQuick * CONFIRM_SHARE);
    // With the worker, the likely strongest candidate's homography is fitted first and its detail check
    // (about 33 ms there) sent to the worker at once, with its reference when already read: it is usually
    // the strongest candidate, and otherwise the check is kept for when that candidate is checked. The
    // other homographies are then fitted here (a few ms), so that the worker is free for it. Without
    // the worker, or when the likely candidate's fit fails, the homographies are shared as before.
    let early: Promise<{ outcome: DetailOutcome; ref: ReferenceDetail } | null> | null = null;
    let fitted: PinFit[];
    const worker = this.detailWorker;
    const likelyFit = worker && toFit.includes(likely) ? fitPinHomography(cv, points[likely]) : null;
    if (worker && likelyFit?.H) {
      const e = shortlist[likely].e;
      const immediate = new Promise<null>((resolve) => setImmediate(() => resolve(null)));
      const ref = await Promise.race([this.detailOf(e), immediate]); // read already, or null: it is awaited in the check
      early = runCheck(e, likelyFit.H, shortlist[likely].arr, worker, ref);
      early.catch(() => undefined); // when it is not taken up; a failure surfaces where it is awaited
      fitted = toFit.map((rank) => (rank === likely ? likelyFit : fitPinHomography(cv, points[rank])));
    } else {
      fitted = await this.shared(
        toFit.map((rank) => points[rank]),
        (p) => (p === points[likely] && likelyFit ? likelyFit : fitPinHomography(cv, p)),
        (w, items) => w.fitPins(items),
      );
    }
    const fitOf = new Map(toFit.map((rank, j) => [rank, fitted[j]]));
    const verified: Verified[] = [];
    shortlist.forEach((s, rank) => {
      const fit = fitOf.get(rank);
      const v = fit
        ? verifyPairs(fit, s.arr, s.e, img.width, img.height)
        : { matches: s.arr.length / 2, inliers: quick[rank], H: null, holes: undefined };
      const one: Verified = { e: s.e, bow: s.votes, bowRank: rank, matches: v.matches, inliers: v.inliers, H: v.H, holes: v.holes, pairs: s.arr };
      if (rank === likely && early) started.set(one, early);
      verified.push(one);
    });
    verified.sort((a, b) => b.inliers - a.inliers);
    lap("verify");

    // fine comparison for the strongest geometric candidates
    const bestInl = verified[0]?.inliers ?? 0;
    const fine = verified.filter((v) => v.H && v.inliers >= MIN_INLIERS && v.inliers >= bestInl * 0.3).slice(0, FINE_MAX);
    if (fine.length > 0) {
      // the thumbnails are decoded (by sharp, off the main thread) all at once, while the first ones are compared
      const thumbs = fine.map((v) => this.thumbOf(v.e));
      // and the strongest is checked in detail on the second core while the colours are compared: it is
      // usually the winner, or else the pin checked on its own when the winner is not accepted
      if (this.detailWorker) detailFor(fine[0], true).catch(() => undefined); // a failure surfaces where it is awaited
      else void this.detailOf(fine[0].e); // its full-resolution reference, read while the colours are compared
      for (const p of thumbs) p.catch(() => undefined); // a failure surfaces where it is awaited
      for (const [k, v] of fine.entries()) {
        // between comparisons the event loop runs, so that the strongest candidate's reference, once
        // decoded, is handed to the worker at once rather than after the last comparison
        if (this.detailWorker && k > 0) await new Promise((resolve) => setImmediate(resolve));
        const thumb = await thumbs[k];
        if (!thumb) continue;
        const r = compareAligned(cv, img, v.H as number[], v.e, thumb);
        if (!r) continue;
        v.al = r;
        v.resid = r.resid;
        v.tileP90 = r.tileP90;
        v.tileMax = r.tileMax;
        v.localMax = r.localMax;
        v.residTrim = r.residTrim;
      }
    }
    lap("colour");
    // best aligned image per pin; pins that look alike duel on the pixels where their references differ
    const alignedPins = new Map<string, Verified>();
    for (const v of fine) {
      if (!v.al) continue;
      const cur = alignedPins.get(v.e.pinId);
      if (!cur || (v.resid ?? 99) < (cur.resid ?? 99)) alignedPins.set(v.e.pinId, v);
    }
    const plist = [...alignedPins.values()].sort((x, y) => (x.resid ?? 99) - (y.resid ?? 99));
    const plausible = plausibleRivals(plist, (a, b) => !!lookAlike(cv, a.e, b.e, (e) => this.descriptorsOf(e)));
    const wins = new Map<Verified, number>();
    const margin = new Map<Verified, number>();
    const duelErr = new Map<Verified, number>();
    for (const v of plausible) {
      wins.set(v, 0);
      margin.set(v, 1);
      duelErr.set(v, 0);
    }
    const losses = new Map<Verified, number>();
    // the pairs that no duel parted: too close to call, or look-alikes at one place with no pixels to compare
    const unparted: [Verified, Verified][] = [];
    const beaten: [Verified, Verified][] = []; // [winner, loser] of the duels that parted them
    const samePlace = (A: Verified, Bv: Verified) => overlapShare(A.al as Aligned, Bv.al as Aligned) >= SAME_PLACE_SHARE;
    const duels = plausible.flatMap((A, i) => plausible.slice(i + 1).map((Bv) => [A, Bv] as const));
    // each duel aligns the two references (cached once done): with the worker, two pairs at a time
    await this.alignPairs(cv, duels.map(([A, Bv]) => [A.e, Bv.e]));
    lap("align");
    for (const [A, Bv] of duels) {
      const p = pairwise(cv, A.al as Aligned, Bv.al as Aligned, A.e, Bv.e, (e) => this.descriptorsOf(e));
      if (p.area < PAIR_MIN_AREA) {
        // nothing to compare: two pins found at different places in the photo (a photo of several pins)
        // are no rivals; at the same place, their references agree there, and neither can be preferred
        if (!samePlace(A, Bv)) continue;
        margin.set(A, 0);
        margin.set(Bv, 0);
        unparted.push([A, Bv]);
        continue;
      }
      const rel = (p.errB - p.errA) / Math.max(p.errA, p.errB, 1);
      const w = rel >= 0 ? A : Bv;
      const l = rel >= 0 ? Bv : A;
      if (Math.abs(rel) < AMBIGUOUS_MARGIN) unparted.push([A, Bv]);
      else beaten.push([w, l]);
      wins.set(w, (wins.get(w) ?? 0) + 1);
      losses.set(l, (losses.get(l) ?? 0) + 1);
      margin.set(w, Math.min(margin.get(w) ?? 1, Math.abs(rel)));
      margin.set(l, 0);
      duelErr.set(w, Math.max(duelErr.get(w) ?? 0, Math.min(p.errA, p.errB)));
    }
    // the pins that lost no duel first, by their colour residual: pins found at different places in the
    // photo never duel, and the one whose colours agree best comes first; then the others by duels won
    const unbeaten = (v: Verified) => ((losses.get(v) ?? 0) === 0 ? 0 : 1);
    const ordered = [...plausible].sort(
      (x, y) =>
        unbeaten(x) - unbeaten(y) ||
        (unbeaten(x) === 0 ? 0 : (wins.get(y) ?? 0) - (wins.get(x) ?? 0)) ||
        (x.resid ?? 99) - (y.resid ?? 99),
    );
    const winner = ordered[0];
    lap("fine");
    // full-resolution detail check of the winner
    const d = winner ? await detailFor(winner) : undefined;
    lap("detail");

    // candidates: duel order first, then the remaining pins by geometric/colour score
    const pinBest = new Map<string, Verified>();
    for (const v of verified) {
      const cur = pinBest.get(v.e.pinId);
      if (!cur || pinScore(v) > pinScore(cur)) pinBest.set(v.e.pinId, v);
    }
    const rest = [...pinBest.values()]
      .filter((v) => !ordered.some((o) => o.e.pinId === v.e.pinId))
      .sort((x, y) => pinScore(y) - pinScore(x));
    const all = [...ordered, ...rest];
    let prev = 101;
    const candidates = all.slice(0, limit).map((v) => {
      const sc = Math.min(prev, Math.round(pinScore(v)));
      prev = sc;
      return { pinId: v.e.pinId, score: sc };
    });
    const unsure = () => candidates.map((c) => ({ pinId: c.pinId, score: Math.min(c.score, 49) }));
    /**
     * An "ambiguous" answer: the candidates, and among them the family to choose from: the favourite,
     * its rivals found at its place (the pins whose colours came close enough to duel), and any pin it
     * was not parted from (a duel too close to call, one it lost, or no pixels to compare). The other
     * candidates are only similar (on the public set, 32 of the 37 ambiguous answers also show pins
     * outside their family, mostly of other designs that share a template, which had all been offered
     * as near-identical; the photo's own pin is in the family for 26 of the 28 known photos answered
     * so, and for the other 2, whose colours or inliers fell short of a rival's, it is still shown).
     */
    const ambiguous = (): MatchResult => {
      const kin = new Set<string>([winner.e.pinId]);
      for (const v of plausible) if (v !== winner && samePlace(v, winner)) kin.add(v.e.pinId);
      for (const [A, Bv] of unparted) if (A === winner || Bv === winner) kin.add((A === winner ? Bv : A).e.pinId);
      for (const [w, l] of beaten) if (l === winner) kin.add(w.e.pinId);
      const family = candidates.map((c) => c.pinId).filter((id) => kin.has(id));
      return { best: null, candidates: unsure(), reason: "ambiguous", family: family.length > 1 ? family : candidates.map((c) => c.pinId), timings };
    };
    // no match: the closest pins are those with the most geometric evidence; once the colour
    // comparison's favourite is rejected, its order is no better a guess (on the public set the photo's
    // own pin came first among the suggestions for 65 of the 74 no-match photos that suggest it, in
    // duel order for 54)
    const closest = () => {
      const most = new Map<string, Verified>();
      for (const v of verified) {
        const cur = most.get(v.e.pinId);
        if (!cur || v.inliers > cur.inliers) most.set(v.e.pinId, v);
      }
      let top = 49;
      return [...most.values()]
        .sort((x, y) => y.inliers - x.inliers || pinScore(y) - pinScore(x))
        .slice(0, limit)
        .map((v) => {
          top = Math.min(top, Math.round(pinScore(v)));
          return { pinId: v.e.pinId, score: top };
        });
    };
    // B's reference aligned onto A's (the same design), or null: cached once aligned, as the duels did
    const lookAlikeOf = (a: Verified, b: Verified) => lookAlike(cv, a.e, b.e, (e) => this.descriptorsOf(e));
    const decide = async (): Promise<MatchResult> => {
      if (!winner) return { best: null, candidates: closest(), reason: "no_match", timings };
      const resid = winner.resid ?? 99;
      const allowed = allowedResid(winner.inliers);
      // two ways to accept: the aligned colours agree (thumbnail), or the full-resolution detail agrees
      // tile by tile (survives glare, blur and lighting that upset the colour residual)
      const colourOk = colourAccepts(winner, d);
      const detailOk = !!d && winner.inliers >= DETAIL_MIN_INLIERS && detailAccepts(d);
      // the colour check can favour a pin with little geometric evidence over one with much more (glare
      // or lighting raise the latter's residual, or the favourite was found on another pin of the photo);
      // when the favoured pin is not accepted, the pin with the most inliers, unless it is the favourite or
      // a plausible pin at the favourite's place (one it duelled with), is checked in detail on its own
      const noMatch = async (): Promise<MatchResult> => {
        const g = verified[0];
        const rival = plausible.find((p) => p.e.pinId === g?.e.pinId);
        if (g?.H && (!rival || (rival !== winner && !samePlace(rival, winner))) && g.inliers >= DETAIL_MIN_INLIERS) {
          const dg = await detailFor(g);
          lap("fallback");
          if (dg && detailAccepts(dg) && !detailVetoes(dg)) {
            return this.accept(g, g.resid ?? 99, allowedResid(g.inliers), 1, candidates, limit, timings);
          }
        }
        return { best: null, candidates: closest(), reason: "no_match", timings };
      };
      if (!colourOk && !detailOk) return noMatch();
      // look-alikes may print another year or team name: each is checked in detail and their differing
      // letters are compared with the photo (a pin that is no look-alike of another has no letters to
      // compare, and is not checked); the look-alike whose letters the photo shows, if its detail agrees
      const byLetters = async (refused?: Verified): Promise<MatchResult | null> => {
        await this.alignPairs(cv, plausible.flatMap((a) => plausible.filter((b) => b !== a).map((b) => [a.e, b.e] as const)));
        const others = plausible.filter((v) => v !== winner && plausible.some((o) => o !== v && lookAlikeOf(v, o) && lookAlikeOf(o, v)));
        lap("alike");
        // their references are read and decoded (by sharp, off the main thread) at once, and they are
        // checked two at a time: every other one on the second core
        for (const v of others) void this.detailOf(v.e);
        await Promise.all(others.map((v, k) => detailFor(v, k % 2 === 0)));
        lap("othersDetail");
        const read = readLetters(cv, ordered, warps, lookAlikeOf);
        lap("letters");
        const dv = read && warps.get(read.v)?.d;
        if (read && read.v !== refused && dv && read.v.inliers >= DETAIL_MIN_INLIERS && detailAccepts(dv) && !detailVetoes(dv)) {
          return this.accept(read.v, read.v.resid ?? 99, allowedResid(read.v.inliers), read.margin, candidates, limit, timings);
        }
        return null;
      };
      const m = plausible.length > 1 ? (margin.get(winner) ?? 0) : 1;
      // look-alikes that the colours cannot tell apart
      if (plausible.length > 1 && m < AMBIGUOUS_MARGIN) return (await byLetters()) ?? ambiguous();
      if (!detailOk && (duelErr.get(winner) ?? 0) > DUEL_ERR_MAX) return noMatch();
      // the colours' favourite whose letters differ from the photo's may be another year of a look-alike
      // that prints the photo's: the few pixels of a digit, at thumbnail size, can favour the wrong year by
      // far (three known photos of the public set), and its letters then tell. The favourite itself stays
      // refused even when its letters beat the look-alike's: they are compared only where the two differ,
      // and the letter that refused it may be where another year, not in the catalogue, differs
      const lettersOrNoMatch = async () => (plausible.length > 1 && (await byLetters(winner))) || noMatch();
      // a patch of lettering (or a large share of the pin) that is not close to the reference: most
      // likely another team name or year of the same design, which is not in the catalogue; unless the
      // colours agree, the disagreement is spread over the pin and its lettering was read and agrees
      // (`photoDamage`): it is then the photo's own (glare, blur, a spinner), not another name or year
      if (d && detailVetoes(d) && !(colourOk && photoDamage(d))) return lettersOrNoMatch();
      // a letter that differs inside a line passes for the pin's own damage only when no look-alike (the
      // same design: the references align) that differs from it in a year or an age group was found at
      // its place: between years of one design, it may be the digit that tells them apart. A look-alike
      // that prints another team name differs in more letters than YEAR_LETTERS, and those the photo
      // shows as the pin's own. (Each pair is looked up the way its duel aligned it.)
      // (when a reference cannot be read, the look-alike counts as a year apart)
      const yearApart = async (o: Verified): Promise<boolean> => {
        const [a, b] = plausible.indexOf(o) < plausible.indexOf(winner) ? [o, winner] : [winner, o];
        const hBA = lookAlikeOf(a, b);
        if (!hBA) return false;
        const [refA, refB] = await Promise.all([this.detailOf(a.e), this.detailOf(b.e)]);
        return !refA || !refB || lettersUnlike(cv, refA, refB, hBA) <= YEAR_LETTERS;
      };
      /** A look-alike a year apart from the winner, found at its place in the photo. */
      const yearApartHere = async (o: Verified) => o !== winner && samePlace(o, winner) && (await yearApart(o));
      if (d && d.wrongLetters > 0) {
        for (const o of plausible) if (await yearApartHere(o)) return lettersOrNoMatch();
      }
      // a look-alike a year apart found at the winner's place: the winner's letters may all pass (the
      // photo's 6 correlates 0.90 with the 8 of another year of a condensed font, and the thumbnails'
      // duel favoured that year), so their differing letters are compared with the photo in the
      // winner's frame; when the photo leans to the look-alike's, all are compared as for look-alikes
      // the colours cannot tell apart, and the one whose letters the photo shows is named instead (two
      // public photos of a 2016 pin were named 2018). The first comparison costs a few ms; the second
      // checks every look-alike in detail
      const checked = warps.get(winner);
      if (d && checked) {
        for (const o of plausible) {
          if (!(await yearApartHere(o))) continue;
          const hOW = lookAlikeOf(winner, o);
          const refO = hOW && (await this.detailOf(o.e));
          if (!hOW || !refO) continue;
          const lean = letterDuel(cv, checked.warped, checked.valid, checked.ref, refO, hOW, checked.d.sigma);
          if (lean.letters === 0 || lean.score >= 0) continue;
          const read = await byLetters();
          if (read?.best && read.best.pinId !== winner.e.pinId) return read;
          break;
        }
      }
      return this.accept(winner, resid, allowed, plausible.length > 1 ? m : 1, candidates, limit, timings);
    };
    const result = await decide();
    // the benchmark's diagnostics (`--trace`), with the detail check of every candidate that had one
    if (opts?.debug) {
      for (const v of verified) {
        const dv = warps.get(v)?.d;
        opts.debug.push({
          imageId: v.e.imageId,
          pinId: v.e.pinId,
          bow: v.bow,
          bowRank: v.bowRank,
          matches: v.matches,
          inliers: v.inliers,
          resid: v.resid,
          tileP90: v.tileP90,
          tileMax: v.tileMax,
          localMax: v.localMax,
          wins: wins.get(v),
          margin: margin.get(v),
          duelErr: duelErr.get(v),
          losses: losses.get(v),
          winner: v === winner,
          holes: v.holes,
          residTrim: v.residTrim,
          ...(dv
            ? { dTiles: dv.tiles, dMismatch: dv.mismatch, dCluster: dv.cluster, dMedian: dv.median, dSigma: dv.sigma, dNotClose: dv.notClose, dNotCloseCluster: dv.notCloseCluster, dLetters: dv.wrongLetters, dLineEnd: dv.lineEndLetters, dRead: dv.lettersRead, dHighlights: dv.highlights }
            : {}),
        });
      }
    }
    return result;
  }

  /**
   * The photo's descriptors matched with every descriptor of each image (`ratioMatches`): the
   * correspondences (photo index, reference index) of each, every other image's found in the worker.
   */
  private matchAll(qDesc: Uint32Array, entries: Entry[]): Promise<number[][]> {
    return this.shared(
      entries.map((e) => this.descriptorsOf(e)),
      (ref) => ratioMatches(qDesc, ref, ACCEPT_HAMMING, RATIO),
      (worker, refs) => worker.ratioMatches({ query: qDesc, refs, acceptHamming: ACCEPT_HAMMING, ratio: RATIO }),
    );
  }

  /**
   * When no shortlisted image counts DEEPEN_BELOW inliers (a small, soft or tilted pin), the vote has
   * found only part of the correspondences: a visual word holds one of an image's descriptors, seldom
   * its second, and a descriptor of a soft photo often falls in the word beside its match's. The
   * STRONGEST_EXHAUSTIVE images with the most inliers are then matched with every photo descriptor
   * (ratioMatches, about 4 ms an image; the second in the worker), and their inliers counted again; the
   * correspondences that count more replace the vote's (`shortlist`, `points` and `quick` are updated in
   * place). Engine alone on the public set: top-1 83.7 -> 85.2% at 300 pins, 80.2 -> 83.5% at 5,000
   * ("Figures"). So are the `mostVoted` images that their quick count left out of the shortlist: one
   * takes the place of the weakest when it then counts more (`shortlistPlace`; top-4 96.8 -> 97.0% at
   * 300 pins, 93.3 -> 93.7% at 5,000). A reference cut out of a photo was matched so already
   * (PHOTO_EXHAUSTIVE).
   */
  private async matchStrongest<S extends { e: Entry; arr: number[] }>(
    qDesc: Uint32Array,
    qPoints: Float32Array,
    shortlist: S[],
    points: Correspondences[],
    quick: number[],
    countQuick: (items: (Correspondences & { iters: number })[]) => Promise<number[]>,
    mostVoted: S[],
  ): Promise<void> {
    const strongest = quick
      .map((_, rank) => rank)
      .sort((x, y) => quick[y] - quick[x] || x - y)
      .slice(0, STRONGEST_EXHAUSTIVE)
      .filter((rank) => !shortlist[rank].e.photo);
    const outside = mostVoted.filter((r) => !r.e.photo && !shortlist.some((s) => s.e === r.e));
    if (strongest.length + outside.length === 0) return;
    const found = await this.matchAll(qDesc, [...strongest.map((rank) => shortlist[rank].e), ...outside.map((r) => r.e)]);
    const matched = [...strongest.map((rank) => shortlist[rank]), ...outside].map((s, k) => ({ ...s, arr: found[k] }));
    const matchedPoints = matched.map((m) => pairPoints(m.arr, qPoints, m.e));
    const counts = await countQuick(matchedPoints.map((p) => ({ ...p, iters: STRONGEST_ITERS })));
    const put = (place: number, k: number) => {
      shortlist[place] = matched[k];
      points[place] = matchedPoints[k];
      quick[place] = counts[k];
    };
    // fewer: the vote's kept (RANSAC's count is random near noise level, and the right pin of a photo
    // ORB barely finds must not drop out of the similar pins for it)
    strongest.forEach((rank, k) => counts[k] > quick[rank] && put(rank, k));
    // a most-voted image left out for its few quick inliers takes the place of the shortlist's weakest
    // when it counts more with its exhaustive correspondences
    outside.forEach((_, j) => {
      const k = strongest.length + j;
      const place = shortlistPlace(quick, counts[k], SHORTLIST_IMAGES);
      if (place >= 0) put(place, k);
    });
  }

  /**
   * Aligns the pairs of references (B onto A, each pair once in the list) that are not cached yet, so
   * that `lookAlike` finds them ready: with the worker, it takes pairs from the end of the list while
   * this thread takes them from the start, until none is left (the worker may still be busy with a
   * detail check when they are asked for). Both threads compute the same homography. Without the
   * worker, or when it fails, `lookAlike` aligns each pair when it is first needed.
   */
  private async alignPairs(cv: CV, pairs: (readonly [Entry, Entry])[]): Promise<void> {
    const worker = this.detailWorker;
    const todo = pairs.filter(([a, b]) => !refPairCache.has(pairKey(a, b)));
    if (!worker || todo.length < 2) return;
    const descriptorsOf = (e: Entry) => this.descriptorsOf(e);
    const inWorker = async (): Promise<void> => {
      for (let next = todo.pop(); next; next = todo.pop()) {
        const [a, b] = next;
        cachePair(a, b, await worker.pairHomography(referencePair(a, b, descriptorsOf)));
      }
    };
    const shared = inWorker().catch(() => undefined); // what it did not align, lookAlike aligns when needed
    for (let next = todo.shift(); next; next = todo.shift()) {
      lookAlike(cv, next[0], next[1], descriptorsOf);
      await new Promise((resolve) => setImmediate(resolve)); // the worker's answer is read, and its next pair sent
    }
    await shared;
  }

  private accept(
    winner: { e: Entry; inliers: number },
    resid: number,
    allowed: number,
    m: number,
    candidates: { pinId: string; score: number }[],
    limit: number,
    timings: Record<string, number>,
  ): MatchResult {
    const confidence = calibratedConfidence(winner.inliers, resid, allowed, m);
    const out = candidates.filter((c) => c.pinId !== winner.e.pinId).map((c) => ({ pinId: c.pinId, score: Math.min(c.score, confidence - 1) }));
    out.unshift({ pinId: winner.e.pinId, score: confidence });
    return { best: { pinId: winner.e.pinId, confidence }, candidates: out.slice(0, limit), reason: "match", timings };
  }
}

/**
 * Where an image that counts `count` inliers enters a shortlist whose images count `quick`: after them
 * while it holds fewer than `capacity`, else in place of the weakest (the last of equal ones) when it
 * counts more than that one; -1 when it does not enter.
 */
export function shortlistPlace(quick: number[], count: number, capacity: number): number {
  if (quick.length < capacity) return quick.length;
  const weakest = quick.reduce((w, q, rank) => (q <= quick[w] ? rank : w), 0);
  return count > quick[weakest] ? weakest : -1;
}

/** A pin counts this share of the strongest pin's inliers to rival it in the colour duels... */
const RIVAL_INLIERS = 0.4;

/**
 * The pins whose aligned colours (`resid`) rival the best (sorted by resid, as `aligned` is given), at
 * most four. A pin with fewer than RIVAL_INLIERS of the strongest's inliers is no rival, unless the
 * strongest's own colours are not the photo's and the pin is its look-alike (`lookAlike`: the references
 * align). A colour variant shares every feature of the design, and the one whose colours the photo shows
 * may count a third of the other's inliers (the die lines stand out better on a dark enamel): one public
 * photo was answered no match so. Between look-alikes whose colours both agree the bar stays: one found
 * with few inliers more often ties the duels than tells them apart (three photos at 5,000 pins).
 */
export function plausibleRivals<V extends { inliers: number; resid?: number }>(aligned: V[], lookAlike: (strongest: V, v: V) => boolean): V[] {
  const r0 = aligned[0]?.resid ?? 99;
  const i0 = Math.max(0, ...aligned.map((v) => v.inliers));
  const close = (v: V) => (v.resid ?? 99) <= r0 * PLAUSIBLE_FACTOR + PLAUSIBLE_ADD;
  const strongest = aligned.find((v) => v.inliers === i0);
  const offColour = !!strongest && !close(strongest);
  // (the strongest itself, off colour, is not close: it never reaches `rival`)
  const rival = (v: V) => v.inliers >= i0 * RIVAL_INLIERS || (offColour && lookAlike(strongest as V, v));
  return aligned.filter((v) => close(v) && rival(v)).slice(0, 4);
}

/** A candidate checked in detail: the photo warped onto its reference, the reference, and the result. */
interface Checked {
  warped: Uint8Array;
  valid: Uint8Array;
  ref: ReferenceDetail;
  d: DetailResult;
}

/**
 * A look-alike's letters beat another's when the photo correlates this much better with them (summed over
 * the letters, in both frames)... Two years whose differing digits look alike (a 3 and a 2, a 4 and a 6)
 * differ by little even in a sharp photo: on the public set a right year won by 0.065 where 0.1 was asked
 * (another by 0.036), while the one wrong year that won (its photo's year was not among the candidates)
 * did so by 0.24: a wider margin would not have kept it out. At 5,000 pins no answer changed.
 */
const LETTERS_MARGIN = 0.05;
/** ... and correlates at least this well with them on average (a blurred photo correlates with neither)... */
const LETTERS_MIN_NCC = 0.7;
/**
 * ... and not more than this below the letters the two print alike: a year that is in neither (a 7 under
 * a 9 and an 8) still correlates better with one of them, but less than the rest of the lettering does.
 */
const LETTERS_BELOW_ALIKE = 0.15;

/**
 * Among look-alike pins that the colour duel could not separate, the one whose lettering the photo shows:
 * against every other look-alike, letter by letter in both frames (its letters that the other prints
 * otherwise, and the other's that it prints otherwise), the photo correlates better with its letters by
 * LETTERS_MARGIN. Look-alikes printed alike (a year that is not on the pin, a colour variant) leave no
 * letter to compare: they stay for the user to choose. Returns the pin and its smallest margin.
 */
function readLetters<V>(
  cv: CV,
  candidates: V[],
  checked: Map<V, Checked>,
  lookAlikeOf: (a: V, b: V) => number[] | null,
): { v: V; margin: number } | null {
  const done = new Map<V, Map<V, LetterDuel | null>>();
  const duel = (a: V, b: V) => {
    const row = done.get(a) ?? new Map<V, LetterDuel | null>();
    done.set(a, row);
    if (!row.has(b)) {
      const A = checked.get(a), B = checked.get(b), hBA = lookAlikeOf(a, b);
      row.set(b, A && B && hBA ? letterDuel(cv, A.warped, A.valid, A.ref, B.ref, hBA, A.d.sigma) : null);
    }
    return row.get(b) ?? null;
  };
  for (const x of candidates) {
    let margin = Infinity;
    let beaten = false;
    for (const y of candidates) {
      if (y === x) continue;
      const xy = duel(x, y), yx = duel(y, x);
      if (!xy || !yx) continue; // not look-alikes: the colours told them apart
      const s = xy.score - yx.score;
      const unlike = xy.letters > 0 && (xy.meanA < LETTERS_MIN_NCC || (xy.alike >= 0 && xy.meanA < xy.alike - LETTERS_BELOW_ALIKE));
      if (xy.letters + yx.letters === 0 || s <= LETTERS_MARGIN || unlike) {
        beaten = true;
        break;
      }
      margin = Math.min(margin, s);
    }
    if (!beaten && Number.isFinite(margin)) return { v: x, margin };
  }
  return null;
}

/** The aligned colour residual the acceptance rule allows at this many inliers. */
function allowedResid(inliers: number): number {
  return ACCEPT_RESID + ACCEPT_RESID_PER_INLIER * (inliers - ACCEPT_INLIERS);
}

/** Enough textured tiles compared, few of them disagreeing, and no larger patch of disagreement. */
function detailAccepts(d: DetailResult): boolean {
  return d.tiles >= DETAIL_MIN_TILES && d.mismatch <= DETAIL_MAX_MISMATCH && d.cluster <= DETAIL_MAX_CLUSTER;
}

/**
 * A patch of lettering (or a large share of the pin) that is not close to the reference, or letters that
 * differ: a digit at the end of a line (another year), or several (another name).
 */
function detailVetoes(d: DetailResult): boolean {
  return d.notClose > DETAIL_VETO_SHARE || d.notCloseCluster > DETAIL_VETO_CLUSTER || lettersRefuse(d);
}

/** Letters that refuse the pin: a digit at the end of a line (another year), or several (another name). */
function lettersRefuse(d: DetailResult): boolean {
  return d.wrongLetters >= LETTERS_VETO || d.lineEndLetters > 0;
}

/**
 * The detail check's disagreement is the photo's own damage, not another team name or year: it is spread
 * over the pin (tiles that are not close on at least DAMAGE_SPREAD of it; glare, motion blur or a soft
 * corner leave a third of the tiles apart, where the letters of another name or year leave a patch the
 * size of a line), the pin's design still shows through it (tiles that do not correlate at all on at most
 * DETAIL_VETO_SHARE of it), enough textured tiles were compared, at least LETTERS_READ_MIN of the
 * reference's letters and digits were compared one by one, and none of them refuses the pin
 * (`lettersRefuse`). On the public set, the favourites refused by the patch rule alone while their colours
 * agreed were those of 10 photos, all of the right pin (8 of them meet this, the other two had 0 and 4
 * letters read): top-1 85.2 -> 86.5%, no false match more. At 5,000 pins two unknown photos were such
 * favourites: a look-alike whose letters missed the difference, with not-close tiles on a fifth of the
 * pin, and a novel pin whose tiles did not correlate at all on 57% of it; neither meets this.
 */
function photoDamage(d: DetailResult): boolean {
  return (
    d.notClose >= DAMAGE_SPREAD &&
    d.mismatch <= DETAIL_VETO_SHARE &&
    d.tiles >= DETAIL_MIN_TILES &&
    d.lettersRead >= LETTERS_READ_MIN &&
    !lettersRefuse(d)
  );
}

/** Highlights on the pin (a reflection), not a blown-out photo or a pin that is elsewhere. */
function highlighted(d: DetailResult): boolean {
  return d.highlights >= HIGHLIGHT_SHARE && d.highlights <= HIGHLIGHT_SHARE_MAX;
}

/**
 * The aligned colours agree; with highlights on the pin (its detail check `d`), those of its best 75% of
 * pixels will do: the reflections' share of the residual is not the pin's colour.
 */
function colourAccepts(v: { inliers: number; resid?: number; residTrim?: number }, d: DetailResult | undefined): boolean {
  if (v.inliers < ACCEPT_INLIERS) return false;
  const allowed = allowedResid(v.inliers);
  return (v.resid ?? 99) <= allowed || (!!d && highlighted(d) && (v.residTrim ?? 99) <= allowed);
}

/** 50..100 for accepted matches: how far inside the acceptance region the evidence lies. */
function calibratedConfidence(inliers: number, resid: number, allowed: number, margin: number): number {
  const g = Math.min(1, (inliers - ACCEPT_INLIERS) / 80);
  const f = Math.max(0, Math.min(1, (allowed - resid) / Math.max(allowed, 1)));
  const d = Math.min(1, margin / 0.5);
  return Math.max(50, Math.min(99, Math.round(50 + 49 * (0.4 * g + 0.4 * f + 0.2 * d))));
}

function pinScore(v: { inliers: number; resid?: number }): number {
  const g = Math.min(1, v.inliers / 60);
  const f = v.resid === undefined ? 0.3 : Math.max(0, 1 - v.resid / 40);
  return 100 * (0.4 * g + 0.6 * f);
}

/**
 * Share of the reference's feature-rich cells (4x4 grid over the pin) that are visible in the photo but got
 * no inlier at all. Text-only variants (other team name / year) leave the text cells empty.
 */
function coverageHoles(e: Entry, H: number[], inlierRef: number[], qW: number, qH: number): number {
  const G = 4;
  const kp = new Int32Array(G * G), hit = new Int32Array(G * G);
  const cell = (i: number) => {
    const x = e.points[i * 2] / e.width, y = e.points[i * 2 + 1] / e.height;
    return Math.min(G - 1, Math.floor(y * G)) * G + Math.min(G - 1, Math.floor(x * G));
  };
  const Hi = invert3(H); // reference -> photo
  const n = e.points.length / 2;
  for (let i = 0; i < n; i++) {
    const x = e.points[i * 2], y = e.points[i * 2 + 1];
    const w = Hi[6] * x + Hi[7] * y + Hi[8];
    const qx = (Hi[0] * x + Hi[1] * y + Hi[2]) / w, qy = (Hi[3] * x + Hi[4] * y + Hi[5]) / w;
    if (qx < 0 || qy < 0 || qx >= qW || qy >= qH) continue;
    kp[cell(i)]++;
  }
  for (const i of inlierRef) hit[cell(i)]++;
  let rich = 0, holes = 0;
  for (let c = 0; c < G * G; c++) {
    if (kp[c] < 12) continue;
    rich++;
    if (hit[c] === 0) holes++;
  }
  return rich ? holes / rich : 0;
}

/** The photo and reference coordinates of tentative correspondences (query index, reference index pairs). */
function pairPoints(pairs: number[], qPts: Float32Array, e: Entry): Correspondences {
  const src: number[] = [];
  const dst: number[] = [];
  for (let k = 0; k < pairs.length; k += 2) {
    const j = pairs[k], i = pairs[k + 1];
    src.push(qPts[j * 2], qPts[j * 2 + 1]);
    dst.push(e.points[i * 2], e.points[i * 2 + 1]);
  }
  return { src, dst };
}

function verifyPairs(
  fit: PinFit,
  pairs: number[],
  e: Entry,
  qW: number,
  qH: number,
): { matches: number; inliers: number; H: number[] | null; holes?: number } {
  const m = fit.mask.length;
  if (!fit.H) return { matches: m, inliers: 0, H: null };
  let inl = 0;
  const inlierRef: number[] = [];
  for (let i = 0; i < m; i++)
    if (fit.mask[i]) {
      inl++;
      inlierRef.push(pairs[i * 2 + 1]);
    }
  return { matches: m, inliers: inl, H: fit.H, holes: coverageHoles(e, fit.H, inlierRef, qW, qH) };
}

interface Aligned {
  W: number;
  H: number;
  M: number[]; // query -> thumbnail frame
  q: Uint8Array; // blurred warped query RGB
  r: Uint8Array; // blurred reference RGB
  mask: Uint8Array; // 1 = inside pin and inside photo
  a: number[];
  b: number[];
  resid: number;
  residTrim: number;
  tileP90: number;
  tileMax: number;
  localMax: number; // worst tile after a per-tile colour fit (text / art differences survive, lighting does not)
}

/** Per channel, over the selected pixels: sums of reference, photo, reference squared and their product. */
function channelSums(q: Uint8Array, r: Uint8Array, sel: Uint8Array): { n: number; sr: number[]; sq: number[]; srr: number[]; srq: number[] } {
  // one local per sum (a small array's elements cost a load and a store each): sums of bytes and of
  // their products, exact in any order
  let n = 0, r0 = 0, r1 = 0, r2 = 0, q0 = 0, q1 = 0, q2 = 0, rr0 = 0, rr1 = 0, rr2 = 0, rq0 = 0, rq1 = 0, rq2 = 0;
  for (let i = 0, j = 0; i < sel.length; i++, j += 3) {
    if (!sel[i]) continue;
    n++;
    const a0 = r[j], a1 = r[j + 1], a2 = r[j + 2], b0 = q[j], b1 = q[j + 1], b2 = q[j + 2];
    r0 += a0; r1 += a1; r2 += a2;
    q0 += b0; q1 += b1; q2 += b2;
    rr0 += a0 * a0; rr1 += a1 * a1; rr2 += a2 * a2;
    rq0 += a0 * b0; rq1 += a1 * b1; rq2 += a2 * b2;
  }
  return { n, sr: [r0, r1, r2], sq: [q0, q1, q2], srr: [rr0, rr1, rr2], srq: [rq0, rq1, rq2] };
}

/**
 * The photo's light on a reference: a gain per channel and one offset shared by the three (flare and
 * a lifted black level add about as much to each), least squares over the selected pixels; null with
 * fewer than PAIR_MIN_FIT of them.
 */
function fitLight(q: Uint8Array, r: Uint8Array, sel: Uint8Array): { a: number[]; b: number[] } | null {
  const { n, sr, sq, srr, srq } = channelSums(q, r, sel);
  if (n < PAIR_MIN_FIT) return null;
  // a_c = (srq_c - k sr_c) / srr_c for each channel, and k from the offset's own equation
  let den = 3 * n, num = 0;
  for (let c = 0; c < 3; c++) {
    if (srr[c] <= 0) return null;
    den -= (sr[c] * sr[c]) / srr[c];
    num += sq[c] - (srq[c] * sr[c]) / srr[c];
  }
  const k = Math.abs(den) > 1e-6 ? num / den : 0;
  const a = [0, 1, 2].map((c) => Math.max(0.3, Math.min(3, (srq[c] - k * sr[c]) / srr[c])));
  return { a, b: [k, k, k] };
}

/** The photo's light on a reference: a gain and an offset per channel, least squares over the mask. */
function fitGains(q: Uint8Array, r: Uint8Array, mask: Uint8Array): { a: number[]; b: number[]; n: number } {
  const { n: cnt, sr, sq, srr, srq } = channelSums(q, r, mask);
  const a = [1, 1, 1], b = [0, 0, 0];
  if (cnt < 2) return { a, b, n: cnt };
  for (let c = 0; c < 3; c++) {
    const mr = sr[c] / cnt, mq = sq[c] / cnt;
    const vr = srr[c] / cnt - mr * mr;
    const cov = srq[c] / cnt - mr * mq;
    a[c] = vr > 25 ? Math.max(0.3, Math.min(3, cov / vr)) : 1;
    b[c] = mq - a[c] * mr;
  }
  return { a, b, n: cnt };
}

function compareAligned(
  cv: CV,
  photo: RawImage,
  H: number[],
  e: Entry,
  thumb: Thumb,
): Aligned | null {
  const W = thumb.width, Hh = thumb.height;
  const s = W / e.width;
  const M = [H[0] * s, H[1] * s, H[2] * s, H[3] * s, H[4] * s, H[5] * s, H[6], H[7], H[8]];
  // the photo warped onto the thumbnail, and where it covers it (all of it when the whole frame comes
  // from inside the photo): OpenCV's bilinear warp, byte for byte (warp.server.ts)
  const inside = frameInsidePhoto(M, W, Hh, photo.width, photo.height);
  // (on and about the pin only: the softened photo is read on the pin alone, here and by `pairwise`)
  const warped = warpPerspective({ data: photo.data, width: photo.width, height: photo.height, channels: 3 }, M, W, Hh, inside ? undefined : "cover", thumb.around);
  // both softened alike (OpenCV's 5 x 5 Gaussian, its default mirrored border; in WebAssembly SIMD)
  const soften = { channels: 3, size: 5, border: "reflect101" } as const;
  const n = W * Hh;
  const qd = gaussianBlur(cv, warped.pixels, W, Hh, 1.2, soften), rd = gaussianBlur(cv, thumb.data, W, Hh, 1.2, soften);
  const vm = warped.nearest, hm = thumb.pin;
  const mask = new Uint8Array(n);
  let cnt = 0;
  for (let i = 0; i < n; i++) if (hm[i] && (!vm || vm[i] === 255)) { mask[i] = 1; cnt++; }
  if (cnt < 200) return null;
  const { a, b } = fitGains(qd, rd, mask);
  // one pass over the pin: global residual, its histogram (trimmed mean), and per 8x8 tile the residual
  // and the sums of a tile's own gain/offset fit; a second pass applies the tile fits
  const G = 8, T = G * G;
  const tileX = new Int32Array(W);
  for (let x = 0; x < W; x++) tileX[x] = Math.min(G - 1, Math.floor((x / W) * G));
  const tileCnt = new Int32Array(T), tileSum = new Float64Array(T);
  const tileStats = new Float64Array(T * 12); // per tile and channel: sum r, sum q, sum r*r, sum r*q
  const hist = new Int32Array(256);
  let tot = 0;
  // (the channels written out, the gains in locals: the same sums in the same order)
  const [a0, a1, a2] = a, [b0, b1, b2] = b;
  for (let y = 0; y < Hh; y++) {
    const ty = Math.min(G - 1, Math.floor((y / Hh) * G));
    for (let x = 0, i = y * W; x < W; x++, i++) {
      if (!mask[i]) continue;
      const t = ty * G + tileX[x];
      const j = i * 3;
      const rv0 = rd[j], rv1 = rd[j + 1], rv2 = rd[j + 2], qv0 = qd[j], qv1 = qd[j + 1], qv2 = qd[j + 2];
      let r = Math.abs(qv0 - (a0 * rv0 + b0));
      r += Math.abs(qv1 - (a1 * rv1 + b1));
      r += Math.abs(qv2 - (a2 * rv2 + b2));
      const o = t * 12;
      tileStats[o] += rv0;
      tileStats[o + 1] += qv0;
      tileStats[o + 2] += rv0 * rv0;
      tileStats[o + 3] += rv0 * qv0;
      tileStats[o + 4] += rv1;
      tileStats[o + 5] += qv1;
      tileStats[o + 6] += rv1 * rv1;
      tileStats[o + 7] += rv1 * qv1;
      tileStats[o + 8] += rv2;
      tileStats[o + 9] += qv2;
      tileStats[o + 10] += rv2 * rv2;
      tileStats[o + 11] += rv2 * qv2;
      hist[Math.min(255, Math.round(r / 3))]++;
      r /= 3;
      tot += r;
      tileSum[t] += r;
      tileCnt[t]++;
    }
  }
  // trimmed residual: mean of the best 75% of pixels (glare and dangling parts affect a minority)
  let keep = Math.floor(cnt * 0.75), sumT = 0, nT = 0;
  for (let v = 0; v < 256 && keep > 0; v++) {
    const take = Math.min(keep, hist[v]);
    sumT += take * v;
    nT += take;
    keep -= take;
  }
  const residTrim = nT ? sumT / nT : 99;
  const tiles: number[] = [];
  const tileGain = new Float64Array(T * 6); // per tile: a0..a2, b0..b2 of its own fit
  for (let t = 0; t < T; t++) {
    if (tileCnt[t] < 300) continue;
    tiles.push(tileSum[t] / tileCnt[t]);
    for (let c = 0; c < 3; c++) {
      const o = t * 12 + c * 4, n = tileCnt[t];
      const mr = tileStats[o] / n, mq = tileStats[o + 1] / n;
      const vr = tileStats[o + 2] / n - mr * mr;
      const cov = tileStats[o + 3] / n - mr * mq;
      const ga = vr > 25 ? Math.max(0.3, Math.min(3, cov / vr)) : 1; // as fitGains
      tileGain[t * 6 + c] = ga;
      tileGain[t * 6 + 3 + c] = mq - ga * mr;
    }
  }
  const localSum = new Float64Array(T);
  for (let y = 0; y < Hh; y++) {
    const ty = Math.min(G - 1, Math.floor((y / Hh) * G));
    for (let x = 0, i = y * W; x < W; x++, i++) {
      const t = ty * G + tileX[x];
      if (!mask[i] || tileCnt[t] < 300) continue;
      const j = i * 3, g = t * 6;
      let sum = localSum[t];
      sum += Math.abs(qd[j] - (tileGain[g] * rd[j] + tileGain[g + 3]));
      sum += Math.abs(qd[j + 1] - (tileGain[g + 1] * rd[j + 1] + tileGain[g + 4]));
      sum += Math.abs(qd[j + 2] - (tileGain[g + 2] * rd[j + 2] + tileGain[g + 5]));
      localSum[t] = sum;
    }
  }
  const local: number[] = [];
  for (let t = 0; t < T; t++) if (tileCnt[t] >= 300) local.push(localSum[t] / (3 * tileCnt[t]));
  tiles.sort((x, y) => x - y);
  local.sort((x, y) => x - y);
  return {
    W, H: Hh, M, q: qd, r: rd, mask, a, b,
    resid: tot / cnt,
    residTrim,
    tileP90: tiles.length ? tiles[Math.floor(tiles.length * 0.9)] : 99,
    tileMax: tiles.length ? tiles[tiles.length - 1] : 99,
    localMax: local.length ? local[local.length - 1] : 99,
  };
}

function mul3(x: number[], y: number[]): number[] {
  const o = new Array<number>(9).fill(0);
  for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) for (let k = 0; k < 3; k++) o[r * 3 + c] += x[r * 3 + k] * y[k * 3 + c];
  return o;
}

/** Two references' features, to align B onto A (`referencePairHomography`). */
function referencePair(a: Entry, b: Entry, descriptorsOf: (e: Entry) => Uint32Array): ReferencePair {
  return { pointsA: a.points, descA: descriptorsOf(a), pointsB: b.points, descB: descriptorsOf(b), acceptHamming: ACCEPT_HAMMING, ratio: RATIO };
}

const refPairCache = new Map<string, number[] | null>();

function pairKey(eA: Entry, eB: Entry): string {
  return `${eA.imageId}\u0000${eB.imageId}`;
}

function cachePair(eA: Entry, eB: Entry, Hba: number[] | null): void {
  if (refPairCache.size > 5000) refPairCache.clear();
  refPairCache.set(pairKey(eA, eB), Hba);
}

/** The homography reference B -> reference A when the two share a template (look-alikes), else null; cached. */
function lookAlike(cv: CV, eA: Entry, eB: Entry, descriptorsOf: (e: Entry) => Uint32Array): number[] | null {
  let Hba = refPairCache.get(pairKey(eA, eB));
  if (Hba === undefined) {
    Hba = referencePairHomography(cv, referencePair(eA, eB, descriptorsOf));
    cachePair(eA, eB, Hba);
  }
  return Hba;
}

/**
 * The larger of the two shares: of A's silhouette pixels that, placed in the photo by A's homography and
 * brought into B's thumbnail by B's, fall inside B's silhouette, and the same from B to A. Sampled on every
 * second pixel of each thumbnail (about 16,000 points).
 */
function overlapShare(A: Aligned, B: Aligned): number {
  const share = (X: Aligned, Y: Aligned) => {
    const T = mul3(Y.M, invert3(X.M)); // X's thumbnail -> photo -> Y's thumbnail
    let n = 0, hit = 0;
    for (let y = 0; y < X.H; y += 2) {
      for (let x = 0; x < X.W; x += 2) {
        if (!X.mask[y * X.W + x]) continue;
        n++;
        const w = T[6] * x + T[7] * y + T[8];
        if (w <= 0) continue;
        const u = Math.round((T[0] * x + T[1] * y + T[2]) / w), v = Math.round((T[3] * x + T[4] * y + T[5]) / w);
        if (u >= 0 && v >= 0 && u < Y.W && v < Y.H && Y.mask[v * Y.W + u]) hit++;
      }
    }
    return n ? hit / n : 0;
  };
  return Math.max(share(A, B), share(B, A));
}

/**
 * Pairwise test between two aligned candidates A and B: B's reference is brought into A's frame, the
 * pixels where the two references differ (text, year, colours) are compared with the photo.
 * Returns errA, errB on the differing region (same photo pixels, same gain fit) and its size.
 */
function pairwise(
  cv: CV,
  A: Aligned,
  B: Aligned,
  eA: Entry,
  eB: Entry,
  descriptorsOf: (e: Entry) => Uint32Array,
): { errA: number; errB: number; area: number } {
  // thumbnail B -> thumbnail A: direct reference-to-reference alignment when the two share the template,
  // otherwise through the photo (thumbnail B -> query -> thumbnail A)
  const Hba = lookAlike(cv, eA, eB, descriptorsOf);
  let T: number[];
  if (Hba) {
    const sa = A.W / eA.width, sb = B.W / eB.width;
    T = mul3(mul3([sa, 0, 0, 0, sa, 0, 0, 0, 1], Hba), [1 / sb, 0, 0, 0, 1 / sb, 0, 0, 0, 1]);
  } else T = mul3(A.M, invert3(B.M));
  // B warped onto A, and B's pin mask with it (OpenCV's warps, byte for byte: warp.server.ts)
  const { pixels: br, nearest: bm } = warpPerspective({ data: B.r, width: B.W, height: B.H, channels: 3 }, T, A.W, A.H, B.mask);
  const { q, r, mask } = A;
  // each reference explains the photo with its own light, fitted on the pixels both cover, with one
  // offset for the three channels: A's fit over its pin (the colour check's) has an offset per channel,
  // which can turn A's dark green banner into the photo's lifted black and favour A over the pin that
  // prints the banner black; a shared offset (flare, a lifted black level) cannot shift one colour
  const differs = new Uint8Array(mask.length); // 1: seen in both and differing, 2: agreeing
  for (let i = 0; i < mask.length; i++) {
    if (!mask[i] || !bm![i]) continue;
    let diff = 0;
    for (let c = 0; c < 3; c++) diff += Math.abs(r[i * 3 + c] - br[i * 3 + c]);
    differs[i] = diff < PAIR_DIFF ? 2 : 1;
  }
  const fa = fitLight(q, r, differs) ?? A, fb = fitLight(q, br, differs) ?? A;
  let sumA = 0, sumB = 0, area = 0;
  for (let i = 0; i < mask.length; i++) {
    if (differs[i] !== 1) continue;
    area++;
    for (let c = 0; c < 3; c++) {
      const qv = q[i * 3 + c];
      sumA += Math.abs(qv - (fa.a[c] * r[i * 3 + c] + fa.b[c]));
      sumB += Math.abs(qv - (fb.a[c] * br[i * 3 + c] + fb.b[c]));
    }
  }
  return { errA: area ? sumA / (3 * area) : 0, errB: area ? sumB / (3 * area) : 0, area };
}
