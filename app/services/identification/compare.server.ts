// The "compare details" stage of a match (engine.server.ts): the photo warped onto each verified
// candidate's thumbnail and compared in colour (`compareAligned`), look-alike candidates compared where
// their references differ (`pairwise`, with the references aligned once by `ReferencePairs`), and the
// letters of look-alikes read (`readLetters`). The full-resolution detail check is detail.server.ts's.
import type { CV } from "./opencv.server";
import { gaussianBlur } from "./pixels.server";
import type { RawImage } from "./raw-image";
import { BACKGROUND_STEP, dilated, letterDuel, pinMask, type DetailResult, type LetterDuel, type ReferenceDetail } from "./detail.server";
import { frameInsidePhoto, invert3, mul3, referencePairHomography, type ReferencePair } from "./geometry.server";
import { warpPerspective } from "./warp.server";
import { unpackPoints } from "./features.server";

/** What the comparisons read of a reference image: its size and its keypoints. */
export interface ReferenceImage {
  imageId: string;
  width: number;
  /** its keypoints, in 1/POINT_SCALE px (`packPoints`) */
  points: Uint16Array;
}

const PAIR_DIFF = 60; // summed RGB difference marking pixels where two references differ
const PAIR_MIN_FIT = 500; // pixels to fit the photo's light on for a duel
const ACCEPT_HAMMING = 50;
const RATIO = 0.8;

/**
 * A reference's colour thumbnail as the colour check reads it: its pin (`pinMask`) and the pixels
 * within 2 of the pin (`around`), which the check's 5 x 5 softening of the warped photo reaches from
 * the pin: the photo is warped there only.
 */
export interface Thumb extends RawImage {
  pin: Uint8Array;
  around: Uint8Array;
  /** softened as compared (`compareAligned`): made by the first comparison with it, kept for later photos */
  soft?: Uint8Array;
}

/** The pin's masks on a colour thumbnail, one byte a pixel: the pin (`pinMask`), and the pin grown by 2 px. */
export interface ThumbMasks {
  pin: Uint8Array;
  around: Uint8Array;
}

/** The masks of a colour thumbnail's pin: stored with it (reference-pixels.server.ts), or found here. */
export function thumbMasks(raw: RawImage): ThumbMasks {
  const pin = pinMask(raw, BACKGROUND_STEP);
  return { pin, around: dilated(pin, raw.width, raw.height, 2) };
}

/** A colour thumbnail as compared, with its pin's masks (found here when not stored). */
export function thumbnail(raw: RawImage, masks: ThumbMasks = thumbMasks(raw)): Thumb {
  return { ...raw, pin: masks.pin, around: masks.around };
}

/** A candidate checked in detail: the photo warped onto its reference, the reference, and the result. */
export interface Checked {
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
export function readLetters<V>(
  cv: CV,
  candidates: V[],
  checkedOf: (v: V) => Checked | undefined,
  lookAlikeOf: (a: V, b: V) => number[] | null,
): { v: V; margin: number } | null {
  const done = new Map<V, Map<V, LetterDuel | null>>();
  const duel = (a: V, b: V) => {
    const row = done.get(a) ?? new Map<V, LetterDuel | null>();
    done.set(a, row);
    if (!row.has(b)) {
      const A = checkedOf(a), B = checkedOf(b), hBA = lookAlikeOf(a, b);
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

export interface Aligned {
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

export function compareAligned(
  cv: CV,
  photo: RawImage,
  H: number[],
  e: ReferenceImage,
  thumb: Thumb,
): Aligned | null {
  const W = thumb.width, Hh = thumb.height;
  const s = W / e.width;
  const M = [H[0] * s, H[1] * s, H[2] * s, H[3] * s, H[4] * s, H[5] * s, H[6], H[7], H[8]];
  // the photo warped onto the thumbnail, and where it covers it (all of it when the whole frame comes
  // from inside the photo): OpenCV's bilinear warp (warp.server.ts)
  const inside = frameInsidePhoto(M, W, Hh, photo.width, photo.height);
  // (on and about the pin only: the softened photo is read on the pin alone, here and by `pairwise`)
  const warped = warpPerspective(cv, { data: photo.data, width: photo.width, height: photo.height, channels: 3 }, M, W, Hh, inside ? undefined : "cover", thumb.around);
  // both softened alike (OpenCV's 5 x 5 Gaussian, its default mirrored border; in WebAssembly SIMD)
  const soften = { channels: 3, size: 5, border: "reflect101" } as const;
  const n = W * Hh;
  const qd = gaussianBlur(cv, warped.pixels, W, Hh, 1.2, soften);
  const rd = (thumb.soft ??= gaussianBlur(cv, thumb.data, W, Hh, 1.2, soften)); // (read, never written)
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

/**
 * The homographies that align one reference onto another (B onto A) when the two share a template
 * (look-alikes), else null, each pair aligned once and kept (up to 5,000 pairs) for the index's later
 * photos: the duels, the letters of look-alikes and the worker (which aligns pairs too: `set`) use them.
 */
export class ReferencePairs<E extends ReferenceImage> {
  private cache = new Map<string, number[] | null>();
  constructor(private readonly descriptorsOf: (e: E) => Uint32Array) {}

  private key(eA: E, eB: E): string {
    return `${eA.imageId}\u0000${eB.imageId}`;
  }

  /** Two references' features, to align B onto A (`referencePairHomography`). */
  pair(a: E, b: E): ReferencePair {
    return { pointsA: unpackPoints(a.points), descA: this.descriptorsOf(a), pointsB: unpackPoints(b.points), descB: this.descriptorsOf(b), acceptHamming: ACCEPT_HAMMING, ratio: RATIO };
  }

  has(eA: E, eB: E): boolean {
    return this.cache.has(this.key(eA, eB));
  }

  set(eA: E, eB: E, Hba: number[] | null): void {
    if (this.cache.size > 5000) this.cache.clear();
    this.cache.set(this.key(eA, eB), Hba);
  }

  /** The homography reference B -> reference A when the two share a template (look-alikes), else null; aligned once. */
  lookAlike(cv: CV, eA: E, eB: E): number[] | null {
    let Hba = this.cache.get(this.key(eA, eB));
    if (Hba === undefined) {
      Hba = referencePairHomography(cv, this.pair(eA, eB));
      this.set(eA, eB, Hba);
    }
    return Hba;
  }
}

/**
 * The larger of the two shares: of A's silhouette pixels that, placed in the photo by A's homography and
 * brought into B's thumbnail by B's, fall inside B's silhouette, and the same from B to A. Sampled on every
 * second pixel of each thumbnail (about 16,000 points).
 */
export function overlapShare(A: Aligned, B: Aligned): number {
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
export function pairwise(
  cv: CV,
  A: Aligned,
  B: Aligned,
  eA: ReferenceImage,
  eB: ReferenceImage,
  /** reference B -> reference A when the two share the template (`ReferencePairs.lookAlike`), else null */
  Hba: number[] | null,
): { errA: number; errB: number; area: number } {
  // thumbnail B -> thumbnail A: direct reference-to-reference alignment when the two share the template,
  // otherwise through the photo (thumbnail B -> query -> thumbnail A)
  let T: number[];
  if (Hba) {
    const sa = A.W / eA.width, sb = B.W / eB.width;
    T = mul3(mul3([sa, 0, 0, 0, sa, 0, 0, 0, 1], Hba), [1 / sb, 0, 0, 0, 1 / sb, 0, 0, 0, 1]);
  } else T = mul3(A.M, invert3(B.M));
  // B warped onto A, and B's pin mask with it (OpenCV's warps: warp.server.ts)
  const { pixels: br, nearest: bm } = warpPerspective(cv, { data: B.r, width: B.W, height: B.H, channels: 3 }, T, A.W, A.H, B.mask);
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
