// PinDex visual pin-identification engine: the index of reference images and the match of a photo.
//
// A match runs named stages, each a method or function with typed input and output:
//  1. features: decode + ORB keypoints (OpenCV WASM), motion blur undone first (`photoOrb`)
//  2. shortlist: each photo descriptor is compared only with the reference descriptors of its visual word
//     (two-level k-majority vocabulary, built lazily from the index and rebuilt when it grows 4x); per image
//     ratio-tested nearest neighbours are votes and, at the same time, tentative correspondences; a quick
//     RANSAC count picks the images to verify (`shortlist`)
//  3. verify: OpenCV's RANSAC homography of each, its inliers (`verify`)
//  4. compare details: the photo warped onto each surviving reference and compared in colour (after a
//     per-channel gain fit); look-alike pins "duel" on the pixels where their references differ
//     (`compareDetails`, compare.server.ts); the full-resolution detail check (detail.server.ts) runs when
//     the decision asks for it, the strongest candidate's on the second core from the start
//  5. score: the candidates ordered by their duels and scores (`score`, decision.server.ts)
//  6. decide: match, ambiguous or no match, and a confidence (`decide`, decision.server.ts; thresholds
//     fitted on the public benchmark set as a whole)
// Score and decide read no image: the evidence they ask for beyond the recorded one comes through
// `DecisionProbes`, so that they are tested on recorded candidates alone.
import { getCV, type CV } from "./opencv.server";
import { storedGray, storedThumb, storedThumbMasks, storedTint } from "./reference-pixels.server";
import { deblurGray, deblurSize, estimateMotionBlur, type MotionBlur } from "./blur.server";
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
  packPoints,
  rehearsalPhotos,
  unpackPoints,
  POINT_SCALE,
  THUMB_SIDE,
  type OrbParams,
  type OrbResult,
  type RawImage,
} from "./features.server";
import { asWords, buildPostings, DESCRIPTOR_BUDGET, DescriptorChunks, descriptorShare, gatherSlot, keepShare, MAX_IMAGE_DESCRIPTORS, Postings, ratioMatches, vote, Vocabulary, type PostingLists, type VoteTask } from "./vocab.server";
import {
  decodeLayout,
  letterDuel,
  makeReferenceDetail,
  lettersUnlike,
  projectTint,
  referenceLayout,
  tintedGray,
  runDetail,
  smearedReference,
  type DetailOutcome,
  type DetailResult,
  type ReferenceDetail,
} from "./detail.server";
import type { DetailWorker } from "./detail-worker.server";
import { linesBeside, readPhotoLines, warmTextReader, type LineReading, type TextLine } from "./text.server";
import { APPEARANCE_DIM, closestWindows, photoAppearance, warmAppearance } from "./appearance.server";
import { fitPinHomography, hullArea, inlierTargets, invert3, leftoverPairs, quickFit, type Correspondences, type PinFit, type QuickFit } from "./geometry.server";
import { compareAligned, overlapShare, pairwise, readLetters, ReferencePairs, thumbnail, type Aligned, type Checked, type Thumb } from "./compare.server";
import {
  decide,
  SIMILAR_PINS_LIMIT,
  suggestByAppearance,
  appearanceWanted,
  DETAIL_MIN_INLIERS,
  plausibleRivals,
  score,
  tallyDuels,
  type CandidateEvidence,
  type DecisionProbes,
  type DuelOutcome,
  type DuelTally,
  type MatchResult,
  type Scored,
} from "./decision.server";

export type { MatchResult } from "./decision.server";
export { plausibleRivals } from "./decision.server";

export type PinFeatures = Uint8Array;

/** An index entry's key: its image, for its pin. */
const entryKey = (e: { imageId: string; pinId: string }) => `${e.pinId}\n${e.imageId}`;

export async function extractFeatures(image: Buffer): Promise<PinFeatures> {
  return extractFeaturesImpl(image);
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

/** An indexed reference image of a pin. */
export interface Entry {
  imageId: string;
  pinId: string;
  width: number;
  height: number;
  points: Uint16Array; // its keypoints in 1/POINT_SCALE px (`packPoints`)
  // the descriptors are stored only once, in the posting lists (or, until the vocabulary is built, in the
  // pending store): see descriptorsOf
  first: number; // index of its first descriptor in the pending store (until the lists are built from it)
  nDesc: number;
  words: Uint16Array | null; // images added since the lists were built: the visual word of each descriptor
  pos: Uint32Array | null; // ... and its position in that word's extra list
  hull: Float32Array;
  thumb: Uint8Array | null; // JPEG; null when the index reads it again (FeatureLoader)
  layout: Uint8Array | null; // the reference's stored layout (detail.server.ts); likewise
  cut: Uint8Array | null; // how its pin was cut out of a photo (decodeReference); likewise, and null when not stored
  photo: boolean; // its reference is a pin cut out of a photo (a pin added from a photo that found no match)
  text: TextLine[]; // the lines of lettering read on it at extraction (text.server.ts)
  look: Float32Array | null; // its appearance vector (appearance.server.ts); null when none was stored
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
// the second look (`zoom`): when no shortlisted image counts ZOOM_BELOW quick inliers (as DEEPEN_BELOW),
// the box of the strongest of ZOOM_FITS fits (with ZOOM_MIN_QUICK inliers or more; else the densest
// square of the shortlist's correspondences), ZOOM_MARGIN times its side (at least ZOOM_MIN_SIDE, at
// most ZOOM_MAX_SHARE of the photo's short side), is enlarged towards ZOOM_SIDE px (at most
// ZOOM_MAX_SCALE times) and its ORB features added to the photo's
const ZOOM_BELOW = 50;
const ZOOM_FITS = 3;
const ZOOM_MIN_QUICK = 6;
const ZOOM_MARGIN = 1.6;
const ZOOM_MIN_SIDE = 0.45;
const ZOOM_MAX_SHARE = 0.8;
const ZOOM_SIDE = 640;
const ZOOM_MAX_SCALE = 3;
const PHOTO_EXHAUSTIVE = 4; // photo-cut references among the SHORTLIST_VOTED whose correspondences are found exhaustively
const SHORTLIST_VOTED = 32; // images whose inliers are counted (quick RANSAC) to choose the SHORTLIST_IMAGES that are verified
const DEEPER_VOTED = 64; // ... and this many when none of them counts DEEPEN_BELOW inliers
const DEEPEN_BELOW = 50;
const STRONGEST_EXHAUSTIVE = 2; // ... and then this many, the shortlist's strongest, are matched exhaustively (matchStrongest)
const STRONGEST_ITERS = 1000; // RANSAC iterations for counting their inliers again
const MOST_VOTED_EXHAUSTIVE = 2; // ... and so are the most-voted images, which enter the shortlist when they then count more than its weakest
const RANK_ITERS = 250; // RANSAC iterations for counting the inliers of the images voted below the first SHORTLIST_IMAGES
// a quick fit whose inliers' hull covers less of the pin's area in the reference than this share ranks
// lower in the shortlist (`quickRank`): validation top-1 73.0 -> 73.5%, top-4 85.3 -> 86.5%, the
// public set's unchanged (EXPERIMENTS.md, "Changes tried"); a power of 0.5 named one more validation
// photo and showed two fewer pins of the public set
const QUICK_SPREAD = 0.05;
const QUICK_SPREAD_POWER = 0.35;
const RATIO = 0.8;
// a photo descriptor votes for an image only when that image's nearest is within this many bits of the
// nearest any image offers it (vote in vocab.server.ts): at 5,000 pins top-1 77.5 -> 80.2%, at 300 pins
// 83.3 -> 83.7%, top-4 96.8 -> 97.2% (engine alone, the whole public set; 8 and 16 bits: in the commit that made it)
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
// two candidates whose silhouettes, placed in the photo by their own homographies, share less than this
// share of either one's pixels were found on different objects (a photo of several pins): they do not duel
const SAME_PLACE_SHARE = 0.2;
/**
 * Look-alikes that print at most this many letters otherwise (lettersUnlike) differ in a year or an age
 * group, not a team name: on the public set, years of one design differ in 0 to 4 (a digit a pixel off
 * counts too), team names in 5 to 29 where their letters are found (0 to 2 where few are).
 */
const YEAR_LETTERS = 4;

/** The photo as the stages read it, and the clock of its stages. */
interface PhotoContext {
  cv: CV;
  img: RawImage;
  gray: Uint8Array;
  orb: OrbResult;
  /** its ORB descriptors, 8 words each */
  qDesc: Uint32Array;
  /** records the time spent since the last lap under this name (`MatchResult.timings`) */
  lap: (name: string) => void;
  /** the photo's motion blur, when it shows one (the detail check smears the reference alike) */
  motion?: MotionBlur;
}

/** An image the photo's descriptors voted for, with its tentative correspondences (photo index, reference index). */
interface Voted {
  e: Entry;
  slot: number;
  votes: number;
  arr: number[];
}

/** A shortlisted image: its correspondences' coordinates and their quick RANSAC inlier count. */
interface Shortlisted extends Voted {
  points: Correspondences;
  quick: number;
}

/** A verified candidate with the evidence gathered on it: geometry, then colours (compare stage). */
export interface Candidate extends CandidateEvidence {
  e: Entry;
  votes: number;
  /** its place in the shortlist (vote order) */
  voteRank: number;
  /** tentative correspondences */
  matches: number;
  /** share of the reference's feature-rich cells visible in the photo with no inlier */
  holes?: number;
  pairs: number[];
  /** the photo aligned onto its thumbnail (when the colours were compared) */
  al?: Aligned;
  tileP90?: number;
  tileMax?: number;
  /** worst tile after a per-tile colour fit */
  localMax?: number;
}

/** A match and what its stages found (`VisualIndex.inspect`). */
export interface MatchTrace {
  result: MatchResult;
  /** every verified candidate, most inliers first */
  verified: Candidate[];
  tally: DuelTally<Candidate>;
  winner: Candidate | undefined;
  /** a candidate's detail check, when one was made */
  detail: (v: Candidate) => DetailResult | undefined;
}

/** A detail check's outcome with the reference it was made on. */
interface CheckRun {
  outcome: DetailOutcome;
  /** the reference as the check compared it (smeared as the photo is, when it is), made when first asked for */
  ref: () => ReferenceDetail;
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
  private lookCache: { version: number; size: number; pins: string[]; vectors: Float32Array } | null = null;
  // the descriptors gathered from the posting lists for the last images matched exhaustively or paired
  // (`gatherSlot`, 2-3 ms an image at 5,000 pins): a photo's stages ask for the same few images again
  private descCache = new LruCache<Uint32Array>(4); // by entry key
  // the references aligned with each other (look-alikes), kept for later photos
  private pairs = new ReferencePairs<Entry>((e) => this.descriptorsOf(e));
  /** the descriptors the index holds at most, shared among its images (`descriptorShare`); the tests set a small one */
  descriptorBudget = DESCRIPTOR_BUDGET;
  private expectedImages = 0;

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
    // ORB keeps 1,000 per reference image; a large catalogue keeps its share of the budget
    const all = asWords(f.desc).subarray(0, MAX_IMAGE_DESCRIPTORS * 8);
    const share = descriptorShare(Math.max(this.entries.size + 1, this.expectedImages), this.descriptorBudget);
    const { desc, points } = keepShare(all, packPoints(f.points.subarray(0, all.length / 4)), share);
    const e: Entry = {
      imageId: entry.imageId,
      pinId: entry.pinId,
      width: f.width,
      height: f.height,
      points,
      first: -1,
      nDesc: desc.length / 8,
      words: null,
      pos: null,
      hull: f.hull,
      thumb: this.loadFeatures ? null : f.thumb.slice(), // kept: a copy, not a view of the whole blob
      layout: this.loadFeatures ? null : f.layout.slice(),
      cut: this.loadFeatures ? null : (f.cut?.slice() ?? null),
      photo: !!f.cut && f.cut.length > 0,
      text: f.text,
      look: f.appearance,
      vocabVersion: -1,
      slot: this.slots.length,
    };
    this.slots.push(e);
    this.entries.set(key, e);
    if (this.lists) this.indexEntry(e, desc);
    else e.first = this.pending.append(desc);
  }

  /**
   * Says how many images are about to be added (the server's load of the stored features), so that
   * each keeps its share of the descriptor budget from the first: the pending store then never holds
   * more than the budget (its memory grows a chunk at a time and never shrinks).
   */
  expectImages(images: number): void {
    this.expectedImages = images;
  }

  private removeEntry(key: string): void {
    const e = this.entries.get(key);
    if (!e) return;
    this.slots[e.slot] = null; // postings of dead slots are skipped, and dropped at the next rebuild
    this.entries.delete(key);
    this.thumbCache.delete(e.imageId);
    this.detailCache.delete(e.imageId);
    this.descCache.delete(key);
  }

  removePin(pinId: string): void {
    for (const [key, e] of [...this.entries]) if (e.pinId === pinId) this.removeEntry(key);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The descriptors the index holds, over all its images. */
  get descriptors(): number {
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

  /**
   * The entry's descriptors (8 words each, never written): a view of the pending store, or gathered
   * from the posting lists.
   */
  private descriptorsOf(e: Entry): Uint32Array {
    const lists = this.lists;
    if (!lists) return this.pending.range(e.first, e.nDesc);
    if (e.words && e.pos) {
      const out = new Uint32Array(e.nDesc * 8);
      for (let i = 0; i < e.nDesc; i++) {
        const p = lists.extra[e.words[i]] as Postings;
        out.set(p.desc.subarray(e.pos[i] * 8, e.pos[i] * 8 + 8), i * 8);
      }
      return out;
    }
    const key = entryKey(e);
    const hit = this.descCache.get(key);
    if (hit) return hit;
    const out = new Uint32Array(e.nDesc * 8);
    gatherSlot(lists, e.slot, out);
    this.descCache.set(key, out);
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
    const total = this.descriptors;
    if (this.vocab && total <= this.vocabBuiltAt * 4 + 20000) return;
    const branch = Math.max(12, Math.min(128, Math.round(Math.sqrt(total / WORD_OCCUPANCY))));
    const live = [...this.entries.values()];
    let store = this.pending;
    // every image keeps an equal share of the budget: those added while the catalogue was smaller
    // (or since the last build) are thinned as their descriptors are gathered into a new store
    const share = descriptorShare(live.length, this.descriptorBudget);
    if (this.lists || live.some((e) => e.nDesc > share)) {
      store = new DescriptorChunks();
      for (const e of live) {
        const kept = keepShare(this.descriptorsOf(e), e.points, share);
        if (kept.points !== e.points) {
          e.points = kept.points;
          e.nDesc = share;
          this.descCache.delete(entryKey(e));
        }
        e.first = store.append(kept.desc);
      }
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
      const img = thumbnail(kept, storedThumbMasks(pixels) ?? undefined);
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
   * Starts the OpenCV runtime (this thread's and the detail worker's), reads its ORB pattern
   * (brief.server.ts) and builds the vocabulary now rather than on the first photo (the server calls
   * it once the stored features are loaded; at 5,000 pins the build takes seconds).
   */
  async warmUp(pause?: () => Promise<void>): Promise<void> {
    // the worker loads its OpenCV meanwhile, in its own thread (a worker that fails is not waited for)
    const worker = this.detailWorker?.warmUp().catch(() => undefined);
    orbPattern(await getCV());
    await Promise.all([warmTextReader(), warmAppearance()]);
    if (this.entries.size > 0) await (pause ? this.buildVocabInSlices(pause) : this.ensureVocab());
    await worker;
  }

  /**
   * A rehearsal before the server's first photo: a few catalogue pictures made into photos
   * (`rehearsalPhotos`: one found, one found on a second look, one most often no match) go through the
   * whole match, so that the first users' photos are not the ones that compile the engine's code (V8's
   * optimising of its hot functions): without it a server's first ten photos took about 1.5 times as
   * long as its later ones (validation, engine alone). Answers are not stored, and nothing of it stays
   * but the caches of the last references, which hold a few.
   */
  async rehearse(pictures = 2): Promise<void> {
    if (!this.loadReference) return;
    const picked = [...this.entries.values()].filter((e) => !e.photo).slice(0, pictures);
    for (const e of picked) {
      const picture = await this.loadReference(e.imageId).catch(() => null);
      if (!picture) continue;
      for (const photo of await rehearsalPhotos(picture).catch(() => [])) await this.match(photo).catch(() => undefined);
    }
  }

  private async buildVocabInSlices(pause: () => Promise<void>): Promise<void> {
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
  private async queryOrb(cv: CV, gray: Uint8Array, width: number, height: number, params: OrbParams = QUERY_ORB): Promise<OrbResult> {
    if (!this.detailWorker) return runOrb(cv, gray, width, height, params);
    return this.splitOrb(this.detailWorker, cv, gray, width, height, params).finish();
  }

  /**
   * The photo's ORB shared with the worker: it starts on the levels from QUERY_NEAR_LEVELS on at once,
   * and `finish` finds those below it here and puts them all together in level order (the worker's
   * levels are found here too if it fails). `remote` settles when the worker has answered.
   */
  private splitOrb(worker: DetailWorker, cv: CV, gray: Uint8Array, width: number, height: number, params: OrbParams = QUERY_ORB) {
    const levels = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => from + k);
    const first = QUERY_NEAR_LEVELS;
    const far = levels(first, params.nlevels);
    const remote = worker.orb({ gray, width, height, params, levels: far }).catch(() => null);
    const finish = async () =>
      concatOrb([runOrbLevels(cv, gray, width, height, params, levels(0, first)), (await remote) ?? runOrbLevels(cv, gray, width, height, params, far)]);
    return { remote, finish };
  }

  /**
   * The photo's ORB keypoints, found on the photo with its motion blur undone when it shows one
   * (blur.server.ts): a smeared corner is an edge, and ORB finds few on the pin. With the worker, it
   * finds the keypoints of the smaller levels while this thread looks for a blur (about 16 ms), then
   * those of the two largest: when there is none, the same keypoints as `queryOrb`'s, sooner than
   * looking first. When there is one, the photo's levels are dropped and those of the photo with the
   * blur undone are found instead. A blur that is only possible is not undone here: it is returned as
   * `possible`, with the keypoints of the photo as taken (`deblurPossible`).
   */
  private async photoOrb(
    cv: CV, gray: Uint8Array, width: number, height: number,
  ): Promise<{ orb: OrbResult; seen: Uint8Array; blur: MotionBlur | null; possible: MotionBlur | null }> {
    if (!this.detailWorker) {
      const found = estimateMotionBlur(cv, gray, width, height);
      const blur = found?.possible ? null : found;
      const seen = blur ? await deblurGray(cv, gray, width, height, blur) : gray;
      return { orb: runOrb(cv, seen, width, height, QUERY_ORB), seen, blur, possible: found?.possible ? found : null };
    }
    const split = this.splitOrb(this.detailWorker, cv, gray, width, height);
    const found = estimateMotionBlur(cv, gray, width, height);
    if (!found || found.possible) return { orb: await split.finish(), seen: gray, blur: null, possible: found };
    // the blur's spectrum made in the worker (once its levels of the photo as taken are done) while this
    // thread transforms the photo
    const clear = await deblurGray(cv, gray, width, height, found, this.blurSpectrum(cv, found, width, height));
    await split.remote; // the worker is free for the new photo's levels once it has answered
    return { orb: await this.queryOrb(cv, clear, width, height), seen: clear, blur: found, possible: null };
  }

  /**
   * The spectrum of a blur's segment for `deblurGray`, made in the worker; none without a worker, and
   * null when the worker fails (`deblurGray` then makes it on this thread).
   */
  private blurSpectrum(cv: CV, blur: MotionBlur, width: number, height: number): Promise<Float32Array | null> | undefined {
    if (!this.detailWorker) return undefined;
    return this.detailWorker.kernelSpectrum({ blur, ...deblurSize(cv, width, height) }).catch(() => null);
  }

  /**
   * A possible motion blur (`MotionBlur.possible`) undone once the photo as taken found no pin strongly:
   * the photo's ORB found again with the blur undone, and the shortlist made again from it. The
   * stronger of the two shortlists is kept, so that a blur that is not there loses nothing; a sharp
   * photo whose pin is found strongly is never deblurred. Validation, engine alone: 5 more known photos
   * named (75.8 -> 77.0%), none lost, the same false matches; public: the same 700 answers.
   */
  private async deblurPossible(p: PhotoContext, seen: Uint8Array, shortlist: Shortlisted[], possible: MotionBlur) {
    const { cv, gray, img } = p;
    const clear = await deblurGray(cv, gray, img.width, img.height, possible, this.blurSpectrum(cv, possible, img.width, img.height));
    const orb = await this.queryOrb(cv, clear, img.width, img.height);
    const q: PhotoContext = { ...p, orb, qDesc: asWords(orb.desc), motion: possible };
    const again = await this.shortlist(q);
    p.lap("deblur");
    return strongestQuick(again) > strongestQuick(shortlist) ? { p: q, seen: clear, shortlist: again } : { p, seen, shortlist };
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

  /** Names the pin of a photo: the stages below, one after another (`inspect` for what each found). */
  async match(photo: Buffer, opts?: { limit?: number }): Promise<MatchResult> {
    return (await this.run(photo, opts)).result;
  }

  /**
   * The match with what its stages found: every verified candidate with its evidence, the duels and the
   * detail checks made. For the benchmark's diagnostics (`identify-engine.ts --trace`); the answer is
   * `match`'s.
   */
  async inspect(photo: Buffer, opts?: { limit?: number }): Promise<MatchTrace> {
    return this.run(photo, opts);
  }

  private async run(photo: Buffer, opts?: { limit?: number }): Promise<MatchTrace> {
    const limit = Math.max(1, Math.min(5, opts?.limit ?? 5));
    const timings: Record<string, number> = {};
    let t = performance.now();
    const lap = (name: string) => {
      const n = performance.now();
      timings[name] = Math.round(((timings[name] ?? 0) + n - t) * 10) / 10; // a stage run twice counts both
      t = n;
    };
    const cv = await getCV();
    lap("init");
    const img = await decodeRGB(photo, QUERY_SIDE, QUERY_SIDE, true);
    lap("decode");
    const gray = toGray(img);
    const { orb, seen: asSeen, blur, possible } = await this.photoOrb(cv, gray, img.width, img.height);
    const qDesc = asWords(orb.desc);
    lap("orb");
    const none: DuelTally<Candidate> = tallyDuels([], [], () => false);
    if (this.entries.size === 0 || qDesc.length / 8 < 8) {
      return { result: { best: null, candidates: [], reason: "no_match", timings }, verified: [], tally: none, winner: undefined, detail: () => undefined };
    }
    let p: PhotoContext = { cv, img, gray, orb, qDesc, lap, ...(blur ? { motion: blur } : {}) };
    let shortlist = await this.shortlist(p);
    let seen = asSeen;
    if (possible && strongestQuick(shortlist) < ZOOM_BELOW) ({ p, seen, shortlist } = await this.deblurPossible(p, seen, shortlist, possible));
    if (strongestQuick(shortlist) < ZOOM_BELOW) {
      const zoomed = await this.zoom(p, seen, shortlist);
      if (zoomed) {
        p = zoomed;
        shortlist = await this.shortlist(p);
      }
    }
    const seenBy = p;
    const checks = new DetailChecks((e, H, pairs, worker, ref) => this.runCheck(seenBy, e, H, pairs, worker, ref), this.detailWorker);
    const verified = await this.verify(p, shortlist, checks);
    // the lettering of a candidate read as text, once a photo; the strongest candidate's is started now,
    // and read on this thread between the colour comparisons (onnxruntime-node runs a session on the
    // thread that calls it) while the worker checks detail
    const reads = new Map<Entry, Promise<LineReading[]>>();
    // (with its reference's detail, read for its detail check anyway: a dangler's lines are read as it has swung)
    const linesOn = (e: Entry, H: number[], lines: TextLine[]) => this.detailOf(e).then((ref) => readPhotoLines(cv, p.img, H, e, lines, ref));
    const textReading = (v: Candidate): Promise<LineReading[]> => {
      let read = reads.get(v.e);
      if (!read) {
        const H = v.H;
        read = H
          ? (async () => {
              const own = await linesOn(v.e, H, v.e.text);
              if (own.some((l) => l.verdict === "refutes")) return own;
              // and the lines that another verified reference of the pin prints and this one's extraction
              // missed, read on that reference (their boxes are in its frame, not this one's)
              const beside: LineReading[] = [];
              let known = v.e.text;
              for (const o of verified) {
                if (o.pinId !== v.pinId || o.e === v.e || !o.H) continue;
                const extra = linesBeside(known, o.e.text);
                if (extra.length === 0) continue;
                known = [...known, ...extra];
                beside.push(...(await linesOn(o.e, o.H, extra)).map(({ box: _box, ...l }) => l));
              }
              return [...own, ...beside];
            })().catch(() => [])
          : Promise.resolve([]);
        reads.set(v.e, read);
      }
      return read;
    };
    const samePlace = (a: Candidate, b: Candidate) => overlapShare(a.al as Aligned, b.al as Aligned) >= SAME_PLACE_SHARE;
    // compare details, score and decide: once, and again when a pin of closest appearance is added
    const judge = async (weighed: Candidate[]) => {
      if (weighed[0] && weighed[0].inliers >= DETAIL_MIN_INLIERS) void textReading(weighed[0]);
      const { candidates, plausible, duels } = await this.compareDetails(p, weighed, checks);
      const tally = tallyDuels(plausible, duels, samePlace);
      lap("fine");
      const scored = score(candidates, tally, limit);
      const decision = await decide({ verified: candidates, tally, scored, limit }, this.probes(p, tally, scored, checks, samePlace, textReading));
      return { candidates, tally, scored, decision };
    };
    let judged = await judge(verified);
    if (judged.decision.reason === "no_match") {
      // the pins of closest appearance, for its suggestions: looked for only now, since looking at
      // once when the shortlist is weak (on onnxruntime's thread) slowed every such photo on 2 cores
      // (validation p50 139 -> 185 ms over HTTP), named or not; and not when the engine's own
      // suggestions that look alike fill every place
      const { candidates } = judged;
      const closest = appearanceWanted(judged.decision.candidates) ? await this.closestInAppearance(cv, img).catch(() => []) : [];
      const suggested = { ...judged.decision, candidates: suggestByAppearance(judged.decision.candidates, closest) };
      lap("appearance");
      // and weighed with the others when the vote missed one that the photo's features then find most strongly
      const found = await this.lookedFor(p, closest, shortlist, candidates[0]?.inliers ?? 0, checks);
      lap("looked");
      const again = found.length > 0 ? await judge([...candidates, ...found].sort((a, b) => b.inliers - a.inliers)) : null;
      judged = again && again.decision.reason !== "no_match" ? again : { ...judged, decision: suggested };
    }
    const { candidates, tally, scored, decision } = judged;
    return { result: { ...decision, timings }, verified: candidates, tally, winner: scored.winner, detail: (v) => checks.resultOf(v) };
  }

  /**
   * Second look by appearance, for a photo that found no match: the references of the pins of
   * closest appearance (as many as an answer suggests) that the vote left out of the shortlist are
   * matched with every photo descriptor (`matchAll`, as `matchStrongest` does), and those whose
   * inliers then outnumber every candidate's (`strongest`) are verified, to be weighed with the
   * candidates. The vote misses a small or tilted pin whose descriptors fall in the words beside their
   * matches', and the appearance network finds many such pins (it ranks the pin first for 9 of the
   * validation set's no-match photos whose pin the vote left out). Only when the strongest candidate
   * is weak (`looksAgain`).
   */
  private async lookedFor(p: PhotoContext, closest: { pinId: string }[], shortlist: Shortlisted[], strongest: number, checks: DetailChecks): Promise<Candidate[]> {
    if (!looksAgain(strongest)) return [];
    const entries = unlistedLooks(closest, this.entries.values(), new Set(shortlist.map((s) => s.e)));
    if (entries.length === 0) return [];
    const found = await this.matchAll(p.qDesc, entries);
    const matched = entries.map((e, k) => ({ e, slot: e.slot, votes: 0, arr: found[k], points: pairPoints(found[k], p.orb.points, e) }));
    const counts = await this.countQuick(matched.map((m) => ({ ...m.points, iters: STRONGEST_ITERS })));
    const stronger = matched.map((m, k) => ({ ...m, quick: counts[k] })).filter((m) => outnumbers(m.quick, strongest));
    return stronger.length > 0 ? this.verify(p, stronger, checks) : [];
  }

  /**
   * The pins whose appearance comes closest to the photo's (appearance.server.ts), closest first: for
   * each pin, the best similarity of any of its references to any of the photo's windows.
   */
  private async closestInAppearance(cv: CV, img: RawImage): Promise<{ pinId: string; similarity: number }[]> {
    const windows = await photoAppearance(cv, img);
    if (windows.length === 0) return [];
    const looks = this.looks();
    const near = await closestWindows(windows, looks.vectors);
    const best = new Map<string, number>();
    looks.pins.forEach((pinId, k) => {
      if (near[k] > (best.get(pinId) ?? -2)) best.set(pinId, near[k]);
    });
    return [...best]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, SIMILAR_PINS_LIMIT)
      .map(([pinId, similarity]) => ({ pinId, similarity }));
  }

  /** The references' appearance vectors in one array, with each one's pin; made again after the catalogue changes. */
  private looks(): { pins: string[]; vectors: Float32Array } {
    if (this.lookCache && this.lookCache.version === this.slots.length && this.lookCache.size === this.entries.size) return this.lookCache;
    const withLook = [...this.entries.values()].filter((e) => e.look);
    const vectors = new Float32Array(withLook.length * APPEARANCE_DIM);
    withLook.forEach((e, k) => vectors.set(e.look as Float32Array, k * APPEARANCE_DIM));
    this.lookCache = { version: this.slots.length, size: this.entries.size, pins: withLook.map((e) => e.pinId), vectors };
    return this.lookCache;
  }

  /**
   * Shortlist stage: the images the photo's descriptors vote for (visual words, then a ratio test: the
   * votes are also the tentative correspondences), their inliers counted by a quick RANSAC, and the
   * SHORTLIST_IMAGES with the most inliers, in vote order.
   */
  private async shortlist(p: PhotoContext): Promise<Shortlisted[]> {
    const { qDesc, orb } = p;
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
    const { votes, weighted, voted, acc, nAcc } = await vote(qDesc, qWords, qSecond, this.lists as PostingLists, alive, MAX_HAMMING, ACCEPT_HAMMING, RATIO, VOTE_MARGIN, remote);
    // ranked by votes weighted by the rarity (idf) of the photo descriptor's visual word, each word
    // counted once an image: common texture (background, enamel edges, lettering strokes every pin
    // has) weighs less. Engine alone, validation top-1 73.5 -> 74.5%, top-4 86.5 -> 86.8%, false
    // matches 17 -> 16% (EXPERIMENTS.md, "Changes tried"); the correspondences and the
    // vote counts the shortlist's bars read are unchanged. Stable: equal weights keep first-vote order
    voted.sort((a, b) => weighted[b] - weighted[a]);
    const ranked: Voted[] = voted.filter((slot) => slots[slot]).map((slot) => ({ e: slots[slot] as Entry, slot, votes: votes[slot], arr: [] as number[] }));
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
    p.lap("shortlist");

    const topVotes = Math.max(0, ...ranked.map((r) => r.votes));
    const countable = (r: Voted) => r.votes >= 6 && r.votes >= topVotes * 0.15;
    // A quick RANSAC (ransac.wat) counts the inliers of the SHORTLIST_VOTED most-voted images (OpenCV's
    // estimator spends ~10 ms on an image with few inliers, and most have few; those below the first
    // SHORTLIST_IMAGES get fewer iterations, enough to rank them), and the SHORTLIST_IMAGES with the most
    // inliers are shortlisted: votes alone rank the right pin 9th-50th when pins at the photo's edge or a
    // blurred photo spread them (top-4 92.3 -> 93.5% on the public set). With the worker, every other
    // candidate is counted there.
    const withPoints = (r: Voted) => ({ ...r, points: pairPoints(r.arr, orb.points, r.e) });
    const counted = ranked.slice(0, SHORTLIST_VOTED).filter(countable).map(withPoints);
    const countedFits = await this.fitQuick(counted.map((c, k) => ({ ...c.points, iters: k < SHORTLIST_IMAGES ? 1000 : RANK_ITERS })));
    // a small pin, or one that is blurred or far from square to the camera, gets few of the photo's
    // features, and the vote may rank it below the first SHORTLIST_VOTED: when none of those counts
    // DEEPEN_BELOW inliers, the next ones are counted too
    if (Math.max(0, ...countedFits.map((f) => f.inliers)) < DEEPEN_BELOW) {
      const deeper = ranked.slice(SHORTLIST_VOTED, DEEPER_VOTED).filter(countable).map(withPoints);
      const deeperFits = await this.fitQuick(deeper.map((c) => ({ ...c.points, iters: RANK_ITERS })));
      counted.push(...deeper);
      countedFits.push(...deeperFits);
    }
    const countedQuick = countedFits.map((f) => f.inliers);
    const countedRank = counted.map((c, k) => quickRank(c.points, countedFits[k], pinArea(c.e)));
    const listedImages: Shortlisted[] = counted
      .map((_, k) => k)
      .sort((x, y) => countedRank[y] - countedRank[x] || countedQuick[y] - countedQuick[x] || x - y)
      .slice(0, SHORTLIST_IMAGES)
      .sort((x, y) => x - y) // back in vote order
      .map((k) => ({ ...counted[k], quick: countedQuick[k] }));
    if (strongestQuick(listedImages) >= DEEPEN_BELOW) return listedImages;
    return this.matchStrongest(qDesc, orb.points, listedImages, ranked.slice(0, MOST_VOTED_EXHAUSTIVE));
  }

  /**
   * Second look at a photo whose first shortlist is weak: the pin is small, blurred or tilted, and the
   * photo's features fell mostly on the background or at scales the references hardly have. The
   * place of the pin is taken from the shortlist's strongest fit (the box of its inliers), or from where
   * its correspondences are densest (`zoomPlace`), that part
   * of the photo (as ORB saw it: with its motion blur undone) is enlarged towards the references'
   * scale, and its own ORB features are added to the photo's, in photo coordinates. The stages then
   * run again on all of them. Null when no place is found or the pin fills most of the photo.
   */
  private async zoom(p: PhotoContext, seen: Uint8Array, listed: Shortlisted[]): Promise<PhotoContext | null> {
    const { cv, img } = p;
    const strongest = [...listed].sort((a, b) => b.quick - a.quick).slice(0, ZOOM_FITS).filter((s) => s.quick >= ZOOM_MIN_QUICK);
    const fits = await this.shared(strongest.map((s) => s.points), (c) => fitPinHomography(cv, c), (w, items) => w.fitPins(items));
    let best = -1;
    let most = 0;
    fits.forEach((fit, k) => {
      const inl = fit.mask.reduce((n, m) => n + (m ? 1 : 0), 0);
      if (!fit.H || inl < ZOOM_MIN_QUICK || inl <= most) return;
      most = inl;
      best = k;
    });
    const region = zoomPlace(best >= 0 ? inlierBox(strongest[best].points, fits[best].mask) : null, listed, img.width, img.height);
    p.lap("zoomFind");
    if (!region) return null;
    const crop = cropEnlarged(cv, seen, img.width, img.height, region);
    const orb = await this.queryOrb(cv, crop.gray, crop.width, crop.height);
    const pts = orb.points;
    for (let i = 0; i < pts.length; i += 2) {
      pts[i] = region.x + pts[i] / region.scale;
      pts[i + 1] = region.y + pts[i + 1] / region.scale;
    }
    const all = concatOrb([p.orb, orb]);
    p.lap("zoomOrb");
    return { ...p, orb: all, qDesc: asWords(all.desc) };
  }

  /** Quick RANSAC inlier counts (ransac.wat), every other one in the worker. */
  private async countQuick(items: (Correspondences & { iters: number })[]): Promise<number[]> {
    return (await this.fitQuick(items)).map((f) => f.inliers);
  }

  /** Quick RANSAC fits (ransac.wat), every other one in the worker. */
  private fitQuick(items: (Correspondences & { iters: number })[]): Promise<QuickFit[]> {
    return this.shared(items, (c) => quickFit(c, c.iters), (worker, some) => worker.quickFits(some));
  }

  /**
   * Verify stage: the shortlisted images that can still reach the fine check get OpenCV's RANSAC
   * homography, the one the colour and detail checks were fitted with (with many inliers it needs few
   * iterations); the confirmation bar is set below the fine check's so that the quick count's own
   * randomness does not keep a candidate out. The candidates, most inliers first.
   */
  private async verify(p: PhotoContext, shortlist: Shortlisted[], checks: DetailChecks): Promise<Candidate[]> {
    const { cv, img } = p;
    const bestQuick = strongestQuick(shortlist);
    // the full-resolution reference of the likely strongest candidate is read (stored decoded, or decoded
    // by sharp off the main thread) while the homographies are fitted, ready for its detail check
    const likely = shortlist.findIndex((s) => s.quick === bestQuick);
    if (likely >= 0 && bestQuick >= CONFIRM_MIN_INLIERS) {
      void this.detailOf(shortlist[likely].e);
      await new Promise((resolve) => setImmediate(resolve)); // lets its read reach sharp before the fits
    }
    const toFit = shortlist.map((_, rank) => rank).filter((rank) => shortlist[rank].quick >= CONFIRM_MIN_INLIERS && shortlist[rank].quick >= bestQuick * CONFIRM_SHARE);
    // With the worker, the likely strongest candidate's homography is fitted first and its detail check
    // (about 33 ms there) sent to the worker at once, with its reference when already read: it is usually
    // the strongest candidate, and otherwise the check is kept for when that candidate is checked. The
    // other homographies are then fitted here (a few ms), so that the worker is free for it. Without
    // the worker, or when the likely candidate's fit fails, the homographies are shared (every other one
    // fitted in the worker).
    let fitted: PinFit[];
    const worker = this.detailWorker;
    const likelyFit = worker && toFit.includes(likely) ? fitPinHomography(cv, shortlist[likely].points) : null;
    if (worker && likelyFit?.H) {
      const { e, arr } = shortlist[likely];
      const immediate = new Promise<null>((resolve) => setImmediate(() => resolve(null)));
      const ref = await Promise.race([this.detailOf(e), immediate]); // read already, or null: it is awaited in the check
      checks.startEarly(e, this.runCheck(p, e, likelyFit.H, arr, worker, ref));
      fitted = toFit.map((rank) => (rank === likely ? likelyFit : fitPinHomography(cv, shortlist[rank].points)));
    } else {
      fitted = await this.shared(
        toFit.map((rank) => shortlist[rank].points),
        (c) => (c === shortlist[likely]?.points && likelyFit ? likelyFit : fitPinHomography(cv, c)),
        (w, items) => w.fitPins(items),
      );
    }
    const fitOf = new Map(toFit.map((rank, j) => [rank, fitted[j]]));
    const verified = shortlist.map((s, rank): Candidate => {
      const fit = fitOf.get(rank);
      const v = fit ? verifyPairs(fit, s.arr, s.e, img.width, img.height) : { matches: s.arr.length / 2, inliers: s.quick, H: null, holes: undefined };
      return { e: s.e, pinId: s.e.pinId, votes: s.votes, voteRank: rank, matches: v.matches, inliers: v.inliers, H: v.H, holes: v.holes, pairs: s.arr };
    });
    verified.sort((a, b) => b.inliers - a.inliers);
    p.lap("verify");
    return verified;
  }

  /**
   * Compare-details stage: the photo warped onto the thumbnails of the strongest candidates and
   * compared in colour (the strongest is checked in detail on the second core meanwhile), and the pins
   * whose colours come close (`plausibleRivals`) compared two by two where their references differ.
   * The candidates with their colour evidence, the plausible ones and their duels.
   */
  private async compareDetails(
    p: PhotoContext,
    verified: Candidate[],
    checks: DetailChecks,
  ): Promise<{ candidates: Candidate[]; plausible: Candidate[]; duels: DuelOutcome<Candidate>[] }> {
    const { cv, img } = p;
    const bestInl = verified[0]?.inliers ?? 0;
    const fine = verified.filter((v) => v.H && v.inliers >= MIN_INLIERS && v.inliers >= bestInl * 0.3).slice(0, FINE_MAX);
    const colours = new Map<Candidate, Aligned>();
    if (fine.length > 0) {
      // the thumbnails are decoded (by sharp, off the main thread) all at once, while the first ones are compared
      const thumbs = fine.map((v) => (v.al ? Promise.resolve(null) : this.thumbOf(v.e)));
      // and the strongest is checked in detail on the second core while the colours are compared: it is
      // usually the winner, or else the pin checked on its own when the winner is not accepted
      if (this.detailWorker) checks.detail(fine[0], true).catch(() => undefined); // a failure surfaces where it is awaited
      else void this.detailOf(fine[0].e); // its full-resolution reference, read while the colours are compared
      for (const t of thumbs) t.catch(() => undefined); // a failure surfaces where it is awaited
      for (const [k, v] of fine.entries()) {
        // between comparisons the event loop runs, so that the strongest candidate's reference, once
        // decoded, is handed to the worker at once rather than after the last comparison
        if (this.detailWorker && k > 0) await new Promise((resolve) => setImmediate(resolve));
        const thumb = await thumbs[k];
        if (!thumb) continue; // (or compared already: a candidate weighed again, `lookedFor`)
        const r = compareAligned(cv, img, v.H as number[], v.e, thumb);
        if (r) colours.set(v, r);
      }
    }
    p.lap("colour");
    const candidates = verified.map((v): Candidate => {
      const al = colours.get(v);
      return al ? { ...v, al, resid: al.resid, residTrim: al.residTrim, tileP90: al.tileP90, tileMax: al.tileMax, localMax: al.localMax } : v;
    });
    // best aligned image per pin; pins that look alike duel on the pixels where their references differ
    const alignedPins = new Map<string, Candidate>();
    for (const v of candidates) {
      if (!v.al) continue;
      const cur = alignedPins.get(v.pinId);
      if (!cur || (v.resid ?? 99) < (cur.resid ?? 99)) alignedPins.set(v.pinId, v);
    }
    const plist = [...alignedPins.values()].sort((x, y) => (x.resid ?? 99) - (y.resid ?? 99));
    const plausible = plausibleRivals(plist, (a, b) => !!this.pairs.lookAlike(cv, a.e, b.e));
    const pairs = plausible.flatMap((a, i) => plausible.slice(i + 1).map((b) => [a, b] as const));
    // each duel aligns the two references (kept once done): with the worker, two pairs at a time
    await this.alignPairs(cv, pairs.map(([a, b]) => [a.e, b.e]));
    p.lap("align");
    const duels = pairs.map(([a, b]) => ({ a, b, ...pairwise(cv, a.al as Aligned, b.al as Aligned, a.e, b.e, this.pairs.lookAlike(cv, a.e, b.e)) }));
    return { candidates, plausible, duels };
  }

  /** What the decision may ask of the photo beyond the recorded evidence (decision.server.ts). */
  private probes(
    p: PhotoContext,
    tally: DuelTally<Candidate>,
    scored: Scored<Candidate>,
    checks: DetailChecks,
    samePlace: (a: Candidate, b: Candidate) => boolean,
    textReading: (v: Candidate) => Promise<LineReading[]>,
  ): DecisionProbes<Candidate> {
    const { cv } = p;
    const { plausible } = tally;
    const winner = scored.winner;
    // B's reference aligned onto A's (the same design), or null: kept once aligned, as the duels did
    const lookAlikeOf = (a: Candidate, b: Candidate) => this.pairs.lookAlike(cv, a.e, b.e);
    return {
      samePlace,
      lap: p.lap,
      detail: (v) => checks.detail(v),
      readLetters: async () => {
        await this.alignPairs(cv, plausible.flatMap((a) => plausible.filter((b) => b !== a).map((b) => [a.e, b.e] as const)));
        const others = plausible.filter((v) => v !== winner && plausible.some((o) => o !== v && lookAlikeOf(v, o) && lookAlikeOf(o, v)));
        p.lap("alike");
        // their references are read and decoded (by sharp, off the main thread) at once, and they are
        // checked two at a time: every other one on the second core
        for (const v of others) void this.detailOf(v.e);
        await Promise.all(others.map((v, k) => checks.detail(v, k % 2 === 0)));
        p.lap("othersDetail");
        const read = readLetters(cv, scored.ordered, (v) => checks.checkedOf(v), lookAlikeOf);
        p.lap("letters");
        return read && { ...read, d: checks.resultOf(read.v) };
      },
      // (each pair is looked up the way its duel aligned it; when a reference cannot be read, the
      // look-alike counts as a year apart)
      yearApart: async (o, w) => {
        const [a, b] = plausible.indexOf(o) < plausible.indexOf(w) ? [o, w] : [w, o];
        const hBA = lookAlikeOf(a, b);
        if (!hBA) return false;
        const [refA, refB] = await Promise.all([this.detailOf(a.e), this.detailOf(b.e)]);
        return !refA || !refB || lettersUnlike(cv, refA, refB, hBA) <= YEAR_LETTERS;
      },
      textReads: async (v) => {
        const reading = await textReading(v);
        p.lap("text");
        return reading;
      },
      letterLean: async (w, o) => {
        const checked = checks.checkedOf(w);
        if (!checked) return null;
        const hOW = lookAlikeOf(w, o);
        const refO = hOW && (await this.detailOf(o.e));
        if (!hOW || !refO) return null;
        return letterDuel(cv, checked.warped, checked.valid, checked.ref, refO, hOW, checked.d.sigma);
      },
    };
  }

  /** A detail check of reference `e` under homography H, with `ref` once read; in the worker when given one. */
  private async runCheck(p: PhotoContext, e: Entry, H: number[], pairs: number[], worker: DetailWorker | null, ref: ReferenceDetail | null = null): Promise<CheckRun | null> {
    const { cv, img, gray, orb, motion } = p;
    ref ??= await this.detailOf(e);
    if (!ref) return null;
    // a spinner or dangler moves on its own: the correspondences that the pin's homography leaves
    // out may agree on a second motion; tiles that do not match under the first get a second chance
    // letters printed in a colour as light as the enamel behind them are read on the reference's tint
    const tint = ref.tinted ? projectTint(img, ref.tinted.tint) : undefined;
    const task = { gray, width: img.width, height: img.height, H, leftover: leftoverPairs(pairs, orb.points, unpackPoints(e.points), H), ref, tint, motion };
    const outcome = (worker && (await worker.run(e.imageId, task).catch(() => null))) || runDetail(cv, task);
    // the letters compared later are compared as the check did: with the reference smeared as the photo is
    const original = ref;
    return { outcome, ref: () => (motion ? smearedReference(original, H, motion) : original) };
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
   * correspondences that count more replace the vote's. Engine alone on the public set: top-1 83.7 ->
   * 85.2% at 300 pins, 80.2 -> 83.5% at 5,000 (the commit that made it). So are the `mostVoted` images that their
   * quick count left out of the shortlist: one takes the place of the weakest when it then counts more
   * (`shortlistPlace`; top-4 96.8 -> 97.0% at 300 pins, 93.3 -> 93.7% at 5,000). A reference cut out of
   * a photo was matched so already (PHOTO_EXHAUSTIVE). Returns the shortlist so changed.
   */
  private async matchStrongest(qDesc: Uint32Array, qPoints: Float32Array, listed: Shortlisted[], mostVoted: Voted[]): Promise<Shortlisted[]> {
    const shortlist = [...listed];
    const quick = shortlist.map((s) => s.quick);
    const strongest = quick
      .map((_, rank) => rank)
      .sort((x, y) => quick[y] - quick[x] || x - y)
      .slice(0, STRONGEST_EXHAUSTIVE)
      .filter((rank) => !shortlist[rank].e.photo);
    const outside = mostVoted.filter((r) => !r.e.photo && !shortlist.some((s) => s.e === r.e));
    if (strongest.length + outside.length === 0) return shortlist;
    const found = await this.matchAll(qDesc, [...strongest.map((rank) => shortlist[rank].e), ...outside.map((r) => r.e)]);
    const matched = [...strongest.map((rank) => shortlist[rank]), ...outside].map((s, k) => ({
      e: s.e,
      slot: s.slot,
      votes: s.votes,
      arr: found[k],
      points: pairPoints(found[k], qPoints, s.e),
    }));
    const counts = await this.countQuick(matched.map((m) => ({ ...m.points, iters: STRONGEST_ITERS })));
    const put = (place: number, k: number) => {
      shortlist[place] = { ...matched[k], quick: counts[k] };
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
    return shortlist;
  }

  /**
   * Aligns the pairs of references (B onto A, each pair once in the list) that are not aligned yet, so
   * that `lookAlike` finds them ready: with the worker, it takes pairs from the end of the list while
   * this thread takes them from the start, until none is left (the worker may still be busy with a
   * detail check when they are asked for). Both threads compute the same homography. Without the
   * worker, or when it fails, `lookAlike` aligns each pair when it is first needed.
   */
  private async alignPairs(cv: CV, pairs: (readonly [Entry, Entry])[]): Promise<void> {
    const worker = this.detailWorker;
    const todo = pairs.filter(([a, b]) => !this.pairs.has(a, b));
    if (!worker || todo.length < 2) return;
    const inWorker = async (): Promise<void> => {
      for (let next = todo.pop(); next; next = todo.pop()) {
        const [a, b] = next;
        this.pairs.set(a, b, await worker.pairHomography(this.pairs.pair(a, b)));
      }
    };
    const shared = inWorker().catch(() => undefined); // what it did not align, lookAlike aligns when needed
    for (let next = todo.shift(); next; next = todo.shift()) {
      this.pairs.lookAlike(cv, next[0], next[1]);
      await new Promise((resolve) => setImmediate(resolve)); // the worker's answer is read, and its next pair sent
    }
    await shared;
  }
}

/** The area of a reference's pin (the hull of its silhouette), found once for each entry. */
const pinAreas = new WeakMap<Entry, number>();
/** The most quick inliers any image of a shortlist counts. */
function strongestQuick(shortlist: Shortlisted[]): number {
  return Math.max(0, ...shortlist.map((s) => s.quick));
}

function pinArea(e: Entry): number {
  let a = pinAreas.get(e);
  if (a === undefined) {
    a = e.hull.length >= 6 ? hullArea(e.hull) : 0;
    if (!(a > 0)) a = e.width * e.height;
    pinAreas.set(e, a);
  }
  return a;
}

/**
 * What a quick fit counts for the shortlist: its inliers, discounted when their hull in the reference
 * covers less than QUICK_SPREAD of the pin's area (times that share of QUICK_SPREAD to the power
 * QUICK_SPREAD_POWER). A chance fit on another pin gathers its inliers in a corner or along a line of
 * the reference, the right pin's spread over it: on the validation set the right pin's inliers cover
 * a median 28% of its area, the other counted images' 4%.
 */
export function quickRank(c: Correspondences, fit: QuickFit, area: number): number {
  if (!fit.H || fit.inliers === 0) return 0;
  const spread = hullArea(inlierTargets(c, fit.H)) / area;
  return fit.inliers * Math.min(1, spread / QUICK_SPREAD) ** QUICK_SPREAD_POWER;
}

/**
 * The references a no-match photo's second look matches (`lookedFor`): those of the pins of closest
 * appearance, as many as an answer suggests (SIMILAR_PINS_LIMIT), that the shortlist left out.
 */
export function unlistedLooks<E extends { pinId: string }>(closest: { pinId: string }[], entries: Iterable<E>, listed: ReadonlySet<E>): E[] {
  const wanted = new Set(closest.slice(0, SIMILAR_PINS_LIMIT).map((c) => c.pinId));
  return [...entries].filter((e) => wanted.has(e.pinId) && !listed.has(e));
}

/**
 * Whether a no-match photo's second look is taken: when its strongest candidate counts fewer than
 * DEEPEN_BELOW inliers, the bar under which the vote is taken to have found the photo's pin weakly
 * (the shortlist then counts more images and matches its strongest exhaustively). Past a stronger
 * pin, 32 of the validation set's 115 looks named nothing, engine alone (nor did any at 300 or
 * 5,000 pins of the public set).
 */
export function looksAgain(strongest: number): boolean {
  return strongest < DEEPEN_BELOW;
}

/**
 * A reference the second look matched is weighed with the candidates when its quick count reaches the
 * fine check's MIN_INLIERS and outnumbers the `strongest` candidate's inliers: the photo's features
 * then find it more strongly than any pin the vote found. One found less strongly than a candidate
 * the decision refused is left to the suggestions.
 */
export function outnumbers(quick: number, strongest: number): boolean {
  return quick >= MIN_INLIERS && quick > strongest;
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

/**
 * The detail checks of one photo's candidates, each started once (on the second core, or here) and
 * kept with the photo warped onto the reference for the letter comparison of look-alikes. A check
 * may be started before its candidate is verified (`startEarly`): it is taken up when that candidate
 * is checked.
 */
class DetailChecks {
  private results = new Map<string, Promise<DetailResult | undefined>>();
  private runs = new Map<string, CheckRun>();
  private checked = new Map<string, Checked>();
  private started = new Map<string, Promise<CheckRun | null>>();

  constructor(
    private readonly check: (e: Entry, H: number[], pairs: number[], worker: DetailWorker | null, ref?: ReferenceDetail | null) => Promise<CheckRun | null>,
    private readonly worker: DetailWorker | null,
  ) {}

  startEarly(e: Entry, run: Promise<CheckRun | null>): void {
    run.catch(() => undefined); // when it is not taken up; a failure surfaces where it is awaited
    this.started.set(entryKey(e), run);
  }

  /** The candidate's detail check (undefined: no homography, or its reference cannot be read); in the worker when `inWorker`. */
  detail(v: { e: Entry; H: number[] | null; pairs: number[] }, inWorker = false): Promise<DetailResult | undefined> {
    const key = entryKey(v.e);
    let p = this.results.get(key);
    if (!p) {
      const run = this.started.get(key) ?? (v.H ? this.check(v.e, v.H, v.pairs, inWorker ? this.worker : null) : null);
      p = run
        ? run.then((c) => {
            if (!c) return undefined;
            this.runs.set(key, c);
            return c.outcome.d;
          })
        : Promise.resolve(undefined);
      this.results.set(key, p);
    }
    return p;
  }

  /** The candidate's detail check, once it has ended. */
  resultOf(v: { e: Entry }): DetailResult | undefined {
    return this.runs.get(entryKey(v.e))?.outcome.d;
  }

  /** The candidate as checked in detail, once its check has ended. */
  checkedOf(v: { e: Entry }): Checked | undefined {
    const key = entryKey(v.e);
    const run = this.runs.get(key);
    if (!run) return undefined;
    let c = this.checked.get(key);
    if (!c) this.checked.set(key, (c = { warped: run.outcome.warped, valid: run.outcome.valid, ref: run.ref(), d: run.outcome.d }));
    return c;
  }
}

/**
 * Share of the reference's feature-rich cells (4x4 grid over the pin) that are visible in the photo but got
 * no inlier at all. Text-only variants (other team name / year) leave the text cells empty.
 */
function coverageHoles(e: Entry, H: number[], inlierRef: number[], qW: number, qH: number): number {
  const G = 4;
  const kp = new Int32Array(G * G), hit = new Int32Array(G * G);
  const cell = (i: number) => {
    const x = e.points[i * 2] / POINT_SCALE / e.width, y = e.points[i * 2 + 1] / POINT_SCALE / e.height;
    return Math.min(G - 1, Math.floor(y * G)) * G + Math.min(G - 1, Math.floor(x * G));
  };
  const Hi = invert3(H); // reference -> photo
  const n = e.points.length / 2;
  for (let i = 0; i < n; i++) {
    const x = e.points[i * 2] / POINT_SCALE, y = e.points[i * 2 + 1] / POINT_SCALE;
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

/** A box in the photo (pixels). */
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** The box of a fit's inliers in the photo. */
function inlierBox({ src }: Correspondences, mask: Uint8Array): Box {
  const box = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };
  for (let i = 0; i < mask.length; i++) {
    if (!mask[i]) continue;
    box.x0 = Math.min(box.x0, src[i * 2]);
    box.x1 = Math.max(box.x1, src[i * 2]);
    box.y0 = Math.min(box.y0, src[i * 2 + 1]);
    box.y1 = Math.max(box.y1, src[i * 2 + 1]);
  }
  return box;
}

/** A square part of a photo (its corner and side, photo pixels) and how much it is enlarged to be looked at again. */
export interface ZoomRegion {
  x: number;
  y: number;
  side: number;
  scale: number;
}

/**
 * The square part of a W x H photo to look at again around a pin found in `box`, and how much it is
 * enlarged (towards ZOOM_SIDE pixels, at most ZOOM_MAX_SCALE times); null when that part would be
 * most of the photo (nothing to gain).
 */
function zoomRegion(box: Box, W: number, H: number): ZoomRegion | null {
  const side = Math.round(Math.max(ZOOM_MIN_SIDE * Math.min(W, H), Math.max(box.x1 - box.x0, box.y1 - box.y0) * ZOOM_MARGIN));
  if (side > ZOOM_MAX_SHARE * Math.min(W, H)) return null;
  const cx = (box.x0 + box.x1) / 2, cy = (box.y0 + box.y1) / 2;
  const x = Math.round(Math.max(0, Math.min(W - side, cx - side / 2)));
  const y = Math.round(Math.max(0, Math.min(H - side, cy - side / 2)));
  return { x, y, side, scale: Math.min(ZOOM_MAX_SCALE, ZOOM_SIDE / side) };
}

/**
 * The part of a W x H photo to look at again (`zoom`): around the strongest fit's inliers (`fitBox`), or
 * else where the shortlist's correspondences are densest: also when the fit's inliers spread over most
 * of the photo, the chance inliers of a pin that is not there (a small pin elsewhere was then never
 * looked at again: validation, engine alone, 2 more known photos named, none lost, the public set's
 * answers the same; 45 more validation photos are looked at again, each about 100 ms slower). Null
 * when neither gives a part smaller than most of the photo.
 */
export function zoomPlace(fitBox: Box | null, listed: { points: Correspondences }[], W: number, H: number): ZoomRegion | null {
  const fitted = fitBox && zoomRegion(fitBox, W, H);
  if (fitted) return fitted;
  const dense = densestBox(listed, W, H);
  return dense && zoomRegion(dense, W, H);
}

/**
 * Where the shortlisted images' tentative correspondences are densest in the photo: the square of
 * ZOOM_MIN_SIDE of the photo's short side that holds most of their photo points (on a grid of 32 px).
 */
function densestBox(listed: { points: Correspondences }[], W: number, H: number): Box | null {
  const cell = 32;
  const gw = Math.ceil(W / cell), gh = Math.ceil(H / cell);
  const grid = new Float64Array(gw * gh);
  let n = 0;
  for (const s of listed)
    for (let i = 0; i < s.points.src.length; i += 2) {
      const gx = Math.min(gw - 1, Math.floor(s.points.src[i] / cell)), gy = Math.min(gh - 1, Math.floor(s.points.src[i + 1] / cell));
      grid[gy * gw + gx]++;
      n++;
    }
  if (n < ZOOM_MIN_QUICK) return null;
  const k = Math.max(1, Math.round((ZOOM_MIN_SIDE * Math.min(W, H)) / cell));
  let best = -1, bx = 0, by = 0;
  for (let y = 0; y + k <= gh; y++)
    for (let x = 0; x + k <= gw; x++) {
      let sum = 0;
      for (let yy = y; yy < y + k; yy++) for (let xx = x; xx < x + k; xx++) sum += grid[yy * gw + xx];
      if (sum > best) [best, bx, by] = [sum, x, y];
    }
  const half = (k * cell) / 2, cx = bx * cell + half, cy = by * cell + half;
  return { x0: cx - half / ZOOM_MARGIN, y0: cy - half / ZOOM_MARGIN, x1: cx + half / ZOOM_MARGIN, y1: cy + half / ZOOM_MARGIN };
}

/** A square part of a grayscale image, enlarged (bilinear). */
function cropEnlarged(cv: CV, gray: Uint8Array, W: number, H: number, r: { x: number; y: number; side: number; scale: number }): { gray: Uint8Array; width: number; height: number } {
  const src = new cv.Mat(H, W, cv.CV_8UC1);
  const dst = new cv.Mat();
  const out = Math.round(r.side * r.scale);
  try {
    src.data.set(gray);
    const roi = src.roi(new cv.Rect(r.x, r.y, r.side, r.side));
    try {
      cv.resize(roi, dst, new cv.Size(out, out), 0, 0, cv.INTER_LINEAR);
    } finally {
      roi.delete();
    }
    return { gray: new Uint8Array(dst.data), width: out, height: out };
  } finally {
    src.delete();
    dst.delete();
  }
}

/** The photo and reference coordinates of tentative correspondences (query index, reference index pairs). */
function pairPoints(pairs: number[], qPts: Float32Array, e: Entry): Correspondences {
  const src: number[] = [];
  const dst: number[] = [];
  for (let k = 0; k < pairs.length; k += 2) {
    const j = pairs[k], i = pairs[k + 1];
    src.push(qPts[j * 2], qPts[j * 2 + 1]);
    dst.push(e.points[i * 2] / POINT_SCALE, e.points[i * 2 + 1] / POINT_SCALE);
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

