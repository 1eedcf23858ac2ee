// Fine detail check at the reference's full resolution: is the photo, once warped onto a candidate's
// reference image, the same pin down to its lettering? Near-identical pins (another team name, another
// year) share template and art, so their features and colours agree; only their text differs, in a
// small part of the pin. This compares the aligned photo with the reference tile by tile with a
// zero-mean normalised cross-correlation (immune to lighting, exposure and colour cast), after blurring
// the reference to the photo's own sharpness, with a small local search that absorbs the last pixels of
// misalignment. Glare (saturated photo pixels where the reference is not white) is left out, so a
// reflection does not count against the right pin. A spinner or dangler that has moved since the
// reference was taken is given a second chance under its own motion (found by the matcher).
import { gaussianBlur } from "./pixels.server";
import { shiftSums } from "./ncc.server";
import type { CV } from "./opencv.server";
import type { RawImage } from "./raw-image";
import { frameInsidePhoto, invert3, projectPoint, secondaryMotion, type Correspondences } from "./geometry.server";
import { smearGray, type MotionBlur } from "./blur.server";
import { warpPerspective } from "./warp.server";

/** A grayscale image with its blurred copies (index into BLUR_SIGMAS), made lazily. */
interface Gray {
  width: number;
  height: number;
  gray: Uint8Array;
  blurred: (Uint8Array | undefined)[];
}

/** A reference at its stored resolution (REF_SIDE), in grayscale. */
export interface ReferenceDetail extends Gray, ReferenceLayout {
  /** the same at half size (for choosing the blur), lazily */
  half?: Gray;
  /** the pin was cut out of a phone photo (added from a photo that found no match): see comparedPixels, chooseBlur */
  photo?: boolean;
  /** glitter enamel: `gray` is the reference with its specks of glitter flattened, and so is every photo compared with it (see specks) */
  glitter?: boolean;
  /** letters that stand out in colour more than in grayscale: the reference projected on that colour (see referenceTint) */
  tinted?: TintedGray;
  /** smeared by a photo's motion blur, this one in the reference's frame (`smearedReference`) */
  smear?: MotionBlur;
}

/** A reference projected on its tint (`projectTint`), one byte per pixel, with its blurred copies. */
export interface TintedGray extends Gray {
  tint: Tint;
}

/** A direction in RGB (a unit vector, its components float32 as stored), on which letters are compared (`referenceTint`). */
export type Tint = [number, number, number];

/** A part of the pin joined to the rest by a narrow neck: a dangler, which swings about that neck. */
export interface HangingPart {
  /** 1 where the part is (reference pixels) */
  region: Uint8Array;
  /** where it hangs from (reference pixels) */
  pivot: [number, number];
}

/** The photo warped under a second motion (a spinner's disc, a swung dangler) and the region it moves in. */
export interface SecondMotion {
  warped: Uint8Array;
  valid: Uint8Array;
  region: [number, number, number, number];
}

export interface DetailResult {
  /** textured tiles compared */
  tiles: number;
  /** share of textured tiles whose best correlation is below MISMATCH_NCC */
  mismatch: number;
  /** largest 8-connected group of mismatching tiles, in tiles */
  cluster: number;
  /** median tile correlation */
  median: number;
  /** the same two figures for tiles that are merely not close (correlation below CLOSE_NCC): a
   * text-only variant leaves a patch of those where its lettering differs */
  notClose: number;
  notCloseCluster: number;
  /** clear letters or digits of the reference that the photo shows otherwise (see wrongLetters) */
  wrongLetters: number;
  /** those of them that are among the last two glyphs of their line on the reference (where a year's digits are) */
  lineEndLetters: number;
  /** the boxes on the reference of the letters that differ (wrongLetters), [x, y, w, h] */
  wrongBoxes: number[][];
  /** the reference's clear letters and digits that were compared with the photo (seen, not glare) */
  lettersRead: number;
  /** blur (sigma) that made the reference look most like the photo */
  sigma: number;
  /** share of the pin's pixels in the photo that are a highlight (saturated where the pin predicts a mid-tone or darker) */
  highlights: number;
}

const TILE = 16;
const SATURATED = 245;
const GLARE_BELOW = 215; // a saturated pixel where the fit predicts less is glare
// ... and a highlight where it predicts a mid-tone or darker: an overexposed photo saturates the pin's
// light enamel and metal, a reflection saturates whatever it falls on
const HIGHLIGHT_BELOW = 170;
const SHIFT = 2;
const WIDE_SHIFT = 5;
const NEIGHBOUR_SHIFT = 3; // around the shift that close neighbouring tiles agree on
const WIDE_CHECK_SHARE = 0.35;
const BLUR_SIGMAS = [0, 1, 1.8, 2.8, 4];
const MIN_TILE_STD = 14;
/** On a reference cut out of a photo, a pixel this light that the photo shows this much darker than the fit predicts is glare. */
const REF_GLARE_FROM = 200;
const REF_GLARE_GAP = 40;
export const MISMATCH_NCC = 0.45;
export const CLOSE_NCC = 0.8;

/** Where things are on a reference, found once when its features are extracted and stored with them. */
export interface ReferenceLayout {
  /** 1 inside the pin silhouette (eroded): the tiles compared */
  pin: Uint8Array;
  /** 1 inside the pin's whole shape: its letters, and the parts that hang from it */
  shape: Uint8Array;
  /** parts hanging from the pin by a narrow neck (danglers) */
  parts: HangingPart[];
  /** boxes of the letters and digits printed on the pin (x, y, w, h) */
  glyphs: number[][];
}

/**
 * The layout of a reference (decoded at REF_SIDE, `gray` its grayscale): its plain silhouette (comparing
 * the light enamel that it leaves out tile by tile, as the stepped one does not, vetoed 25 more right pins
 * on the public set, where glare and overexposure wash that enamel out, for 2 fewer false matches), its
 * stepped silhouette (the pin's shape), its hanging parts and its letters. About 16 ms of work on the
 * main thread, so it is done at extraction and stored with the features, not at every photo.
 */
export function referenceLayout(cv: CV, img: RawImage, gray: Uint8Array): ReferenceLayout {
  const plain = pinMask(img);
  const shape = pinMask(img, BACKGROUND_STEP);
  // a pin of white or cream enamel inside a light outline: the plain silhouette runs on through the
  // outline into the enamel and keeps little more than the outline itself (2% of the shape for one pin
  // of the public set), so that no tile and no letter of it was ever compared and its right photos were
  // all refused; such a pin is compared over its whole shape
  const pin = maskArea(plain) < PLAIN_MIN_SHARE * maskArea(shape) ? shape : plain;
  return { pin, shape, parts: hangingParts(cv, shape, img.width, img.height), glyphs: glyphBoxes(cv, gray, pin, img.width, img.height) };
}

/** The plain silhouette is kept when it holds at least this share of the pin's whole shape. */
const PLAIN_MIN_SHARE = 0.25;

function maskArea(mask: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < mask.length; i++) n += mask[i];
  return n;
}

/** A reference prepared for the detail check: its grayscale (`gray`, at REF_SIDE) and its layout. */
export function makeReferenceDetail(gray: Uint8Array, width: number, height: number, layout: ReferenceLayout): ReferenceDetail {
  // counted first, and flattened only on a glitter pin: a copy of every reference decoded (240 KB) is
  // garbage for the collector
  const glitter = specks(gray, width, height, REF_SPECK_CONTRAST, null) >= GLITTER_SPECKS;
  return { width, height, gray: glitter ? despeckled(gray, width, height, REF_SPECK_CONTRAST) : gray, blurred: [], ...layout, glitter };
}

/**
 * Glitter enamel scatters specks of light over the pin, and no two pins (no photo and its reference)
 * carry them at the same places: on the public set's glitter banners a tile of lettering with specks
 * around it correlated below CLOSE_NCC with the right pin's reference, and the patch of such tiles
 * refused the pin as another team name would. A speck is a pixel brighter by `contrast` than every
 * pixel two away from it (the ring of its 5 x 5 block), and at least as bright as its four neighbours.
 * A letter's stroke or corner is not a speck: the stroke runs on through the ring. Returns how many
 * there are; with `flat` (a copy of `gray`), brings each speck's 3 x 3 block down to its ring's brightest there.
 */
function specks(gray: Uint8Array, W: number, H: number, contrast: number, flat: Uint8Array | null): number {
  let count = 0;
  for (let y = 2; y < H - 2; y++)
    for (let x = 2; x < W - 2; x++) {
      const i = y * W + x;
      const v = gray[i];
      const below = v - contrast; // every pixel of the ring stays under it
      if (gray[i - 2] >= below || gray[i + 2] >= below || gray[i - 2 * W] >= below || gray[i + 2 * W] >= below) continue;
      if (v < gray[i - 1] || v < gray[i + 1] || v < gray[i - W] || v < gray[i + W]) continue;
      let ring = 0;
      for (let d = -2; d <= 2; d++) ring = Math.max(ring, gray[i - 2 * W + d], gray[i + 2 * W + d], gray[i + d * W - 2], gray[i + d * W + 2]);
      if (v - ring <= contrast) continue;
      count++;
      if (flat) for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) if (flat[i + dy * W + dx] > ring) flat[i + dy * W + dx] = ring;
    }
  return count;
}

/** A copy of `gray` with its specks flattened (see specks). */
function despeckled(gray: Uint8Array, W: number, H: number, contrast: number): Uint8Array {
  const flat = new Uint8Array(gray);
  specks(gray, W, H, contrast, flat);
  return flat;
}

/** A speck of glitter on a reference stands this much above its ring (specks of a photo: PHOTO_SPECK_CONTRAST). */
const REF_SPECK_CONTRAST = 30;
const PHOTO_SPECK_CONTRAST = 20;
/**
 * A reference with at least this many specks is glitter enamel: the public set's glitter pins show 111
 * to 630 (three more show 2 to 5, their glitter on metal of its own colour), the others at most 26.
 */
const GLITTER_SPECKS = 60;

/** Half the width of the narrowest neck that still joins a part to the pin (reference pixels). */
const NECK = 11;
/** A hanging part's core (the part shrunk by NECK) covers at least this share of the pin's core. */
const PART_MIN_SHARE = 0.002;
/** ... and at most this share (a larger piece is the pin itself, cut by a faint outline). */
const PART_MAX_SHARE = 0.1;
/** Swing angles tried for a hanging part (degrees either way, in steps). */
const SWING_MAX = 30;
const SWING_STEP = 3;

/**
 * The parts of a reference's shape that hang from the rest by a neck narrower than 2 * NECK pixels:
 * shrinking the shape by NECK (distance transform) cuts the neck, the pieces other than the largest
 * are the parts, and each grows back by NECK within the shape. The pivot is where the part comes
 * closest to the rest of the pin.
 */
export function hangingParts(cv: CV, shape: Uint8Array, W: number, H: number): HangingPart[] {
  const n = W * H;
  const src = new cv.Mat(H, W, cv.CV_8UC1);
  const dist = new cv.Mat();
  const core = new cv.Mat();
  const labels = new cv.Mat();
  const stats = new cv.Mat();
  const centroids = new cv.Mat();
  try {
    src.data.set(shape);
    cv.distanceTransform(src, dist, cv.DIST_L2, 5);
    const dd = dist.data32F;
    const coreData = new Uint8Array(n);
    for (let i = 0; i < n; i++) coreData[i] = dd[i] > NECK ? 1 : 0;
    core.create(H, W, cv.CV_8UC1);
    core.data.set(coreData);
    const count = cv.connectedComponentsWithStats(core, labels, stats, centroids, 8, cv.CV_32S);
    if (count <= 2) return []; // background and one piece
    const area = (k: number) => stats.intAt(k, cv.CC_STAT_AREA);
    let body = 1, total = 0;
    for (let k = 1; k < count; k++) {
      total += area(k);
      if (area(k) > area(body)) body = k;
    }
    const lab = labels.data32S;
    const near = (k: number): Float32Array => {
      // distance of every pixel to component k's core
      const m = new cv.Mat(H, W, cv.CV_8UC1);
      const out = new cv.Mat();
      try {
        const md = m.data;
        for (let i = 0; i < n; i++) md[i] = lab[i] === k ? 0 : 255;
        cv.distanceTransform(m, out, cv.DIST_L2, 5);
        return new Float32Array(out.data32F);
      } finally {
        m.delete();
        out.delete();
      }
    };
    const parts: HangingPart[] = [];
    let toBody: Float32Array | null = null;
    for (let k = 1; k < count; k++) {
      // it hangs: below the rest of the pin (references are photographed upright)
      const below = stats.intAt(k, cv.CC_STAT_TOP) >= stats.intAt(body, cv.CC_STAT_TOP) + stats.intAt(body, cv.CC_STAT_HEIGHT);
      if (k === body || area(k) < total * PART_MIN_SHARE || area(k) > total * PART_MAX_SHARE || !below) continue;
      toBody ??= near(body);
      const toPart = near(k);
      const region = new Uint8Array(n);
      let closest = Infinity;
      for (let i = 0; i < n; i++)
        if (shape[i] && toPart[i] <= 3 * NECK && toPart[i] < toBody[i]) {
          region[i] = 1;
          if (toBody[i] < closest) closest = toBody[i];
        }
      let sx = 0, sy = 0, c = 0;
      for (let i = 0; i < n; i++)
        if (region[i] && toBody[i] <= closest + 2) {
          sx += i % W;
          sy += Math.floor(i / W);
          c++;
        }
      if (c) parts.push({ region, pivot: [sx / c, sy / c] });
    }
    return parts;
  } finally {
    src.delete();
    dist.delete();
    core.delete();
    labels.delete();
    stats.delete();
    centroids.delete();
  }
}

/** The image blurred with BLUR_SIGMAS[k] (scaled by `scale`, for the half-size copy), cached on it. */
function blurredRef(cv: CV, ref: Gray, k: number, scale = 1): Uint8Array {
  return (ref.blurred[k] ??= gaussianBlur(cv, ref.gray, ref.width, ref.height, BLUR_SIGMAS[k] * scale));
}

/** A grayscale image at half size (2x2 averages; an odd last row or column is dropped). */
function halve(gray: Uint8Array, W: number, H: number): { gray: Uint8Array; width: number; height: number } {
  const w = W >> 1, h = H >> 1;
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = 2 * y * W + 2 * x;
      out[y * w + x] = (gray[i] + gray[i + 1] + gray[i + W] + gray[i + W + 1] + 2) >> 2;
    }
  return { gray: out, width: w, height: h };
}

/**
 * Blur sigmas at half size: half the full-size sigma, a little more because the 2x2 averaging of the
 * photo (already warped with bilinear interpolation) and of the reference do not soften them alike
 * (fitted so that the half-size choice agrees with a full-size one as often as possible).
 */
const HALF_SIGMA = 0.53;

/**
 * The reference blur (index into BLUR_SIGMAS) that best explains the photo's sharpness, chosen at half
 * size: the mean correlation of the textured 8 px tiles, each at its best shift of up to 1 px. A
 * correlation over the whole pin without that shift favoured blurrier references whenever the
 * homography was a pixel or two off, and a blurred reference hides the stroke of a year digit (a sharp
 * "2015" photo was compared with a reference blurred so much that its "2017" still correlated).
 * Blurring the full-size reference five times was most of the detail check; only the chosen blur (and,
 * when tiles disagree, the next one) is made at full size.
 * A reference cut out of a phone photo may be the blurrier of the two (a small pin enlarged): when no
 * blur of the reference does better than none, blurs of the photo are tried the same way (`photo`).
 */
function chooseBlur(cv: CV, warped: Uint8Array, use: Uint8Array, ref: ReferenceDetail): { ref: number; photo: number } {
  const W = ref.width, H = ref.height;
  const half = (ref.half ??= { ...halve(ref.gray, W, H), blurred: [] });
  const q = halve(warped, W, H).gray;
  const w = half.width, h = half.height;
  const S = TILE >> 1;
  const T = S * S;
  const tiles: number[] = []; // x0, y0 pairs
  for (let y0 = S; y0 + S + 1 <= h; y0 += S)
    for (let x0 = S; x0 + S + 1 <= w; x0 += S) {
      let inside = 0, rs = 0, rss = 0;
      for (let y = y0; y < y0 + S; y++)
        for (let x = x0; x < x0 + S; x++) {
          const i = 2 * y * W + 2 * x;
          if (use[i] & use[i + 1] & use[i + W] & use[i + W + 1]) inside++;
          const v = half.gray[y * w + x];
          rs += v;
          rss += v * v;
        }
      const m = rs / T;
      if (inside >= T * 0.85 && rss / T - m * m >= MIN_TILE_STD * MIN_TILE_STD) tiles.push(x0, y0);
    }
  if (!tiles.length) return { ref: 0, photo: 0 };
  const score = (photo: Uint8Array, r: Uint8Array) => {
    let sum = 0;
    for (let j = 0; j < tiles.length; j += 2) sum += Math.max(0, tileNcc(photo, r, w, h, tiles[j], tiles[j + 1], 1, 0, 0, S));
    return sum;
  };
  let bestK = 0, bestScore = -Infinity;
  for (let k = 0; k < BLUR_SIGMAS.length; k++) {
    const sum = score(q, blurredRef(cv, half, k, HALF_SIGMA));
    if (sum > bestScore) {
      bestScore = sum;
      bestK = k;
    }
  }
  let photoK = 0;
  if (ref.photo && bestK === 0)
    for (let k = 1; k < BLUR_SIGMAS.length; k++) {
      const sum = score(gaussianBlur(cv, q, w, h, BLUR_SIGMAS[k] * HALF_SIGMA), half.gray);
      if (sum > bestScore) {
        bestScore = sum;
        photoK = k;
      }
    }
  return { ref: bestK, photo: photoK };
}

/**
 * Warps the photo (grayscale, as decoded for matching) into the reference frame with H (photo -> reference),
 * and marks where it covers the frame (255): all of it when the whole frame comes from inside the photo.
 * (OpenCV's warpPerspective: warp.server.ts.)
 */
export function warpToReference(
  cv: CV,
  qGray: Uint8Array,
  qW: number,
  qH: number,
  H: number[],
  ref: ReferenceDetail,
): { warped: Uint8Array; valid: Uint8Array } {
  const inside = frameInsidePhoto(H, ref.width, ref.height, qW, qH);
  const { pixels, nearest } = warpPerspective(cv, { data: qGray, width: qW, height: qH, channels: 1 }, H, ref.width, ref.height, inside ? undefined : "cover");
  return { warped: pixels, valid: nearest ?? new Uint8Array(ref.width * ref.height).fill(255) };
}

/**
 * One candidate's detail check, in plain data so that it can run in a worker thread
 * (detail-worker.server.ts) as well as on the main thread, with the same result.
 */
export interface DetailTask {
  /** the photo, grayscale, as decoded for matching */
  gray: Uint8Array;
  width: number;
  height: number;
  /** photo -> reference homography */
  H: number[];
  /** the correspondences H leaves out: a spinner's or dangler's own motion is looked for among them */
  leftover: Correspondences;
  ref: ReferenceDetail;
  /** the photo projected on the reference's tint (`ref.tinted`), as decoded for matching */
  tint?: Uint8Array;
  /** the photo's motion blur (`estimateMotionBlur`), when it shows one */
  motion?: MotionBlur;
}

export interface DetailOutcome {
  /** the photo warped onto the reference, and where it covers it (kept for the letter comparison) */
  warped: Uint8Array;
  valid: Uint8Array;
  d: DetailResult;
}

/** Warps the photo onto the reference (and under a moving part's own motion) and checks it in detail. */
export function runDetail(cv: CV, t: DetailTask): DetailOutcome {
  const ref = t.motion ? smearedReference(t.ref, t.H, t.motion) : t.ref;
  const w = flattenGlitter(warpToReference(cv, t.gray, t.width, t.height, t.H, ref), ref);
  const second = secondaryMotion(cv, t.leftover, t.H);
  const alt = second ? { ...flattenGlitter(warpToReference(cv, t.gray, t.width, t.height, second.H, ref), ref), region: second.region } : undefined;
  const tint = t.tint && ref.tinted ? warpToReference(cv, t.tint, t.width, t.height, t.H, ref).warped : undefined;
  return { warped: w.warped, valid: w.valid, d: detailCheck(cv, w.warped, w.valid, ref, alt, tint) };
}

/**
 * The reference smeared as the photo is: the photo's motion (a segment in photo pixels, about the pin's
 * centre) brought into the reference's frame by the homography, and the reference (and its tint)
 * smeared along it. A Gaussian blur of the reference, all the detail check tries otherwise, leaves the
 * photo's streaks uncorrelated with it.
 */
export function smearedReference(ref: ReferenceDetail, H: number[], motion: MotionBlur): ReferenceDetail {
  const [cx, cy] = projectPoint(invert3(H), ref.width / 2, ref.height / 2);
  const th = (motion.angle * Math.PI) / 180;
  const hx = (Math.cos(th) * motion.length) / 2, hy = (Math.sin(th) * motion.length) / 2;
  const [ax, ay] = projectPoint(H, cx - hx, cy - hy);
  const [bx, by] = projectPoint(H, cx + hx, cy + hy);
  const length = Math.hypot(bx - ax, by - ay);
  if (!(length >= 1)) return ref;
  const along: MotionBlur = { angle: (Math.atan2(by - ay, bx - ax) * 180) / Math.PI, length };
  const gray = smearGray(ref.gray, ref.width, ref.height, along);
  const tinted = ref.tinted && { ...ref.tinted, gray: smearGray(ref.tinted.gray, ref.tinted.width, ref.tinted.height, along), blurred: [] };
  return { ...ref, gray, blurred: [], half: undefined, tinted, smear: along };
}

/** The photo warped onto a glitter reference with its own specks flattened, as the reference's are. */
function flattenGlitter<T extends { warped: Uint8Array }>(w: T, ref: ReferenceDetail): T {
  return ref.glitter ? { ...w, warped: despeckled(w.warped, ref.width, ref.height, PHOTO_SPECK_CONTRAST) } : w;
}

/**
 * The pixels compared: inside the pin and the photo, and not glare. Glare is a saturated photo pixel
 * far brighter than the reference predicts (photo ~ a * reference + b, fitted over the unsaturated pin
 * pixels): an overexposed photo saturates light enamel that the reference shows light grey, and
 * leaving all of that out (the earlier rule: saturated where the reference is not white) left out the
 * lettering printed on it, so another team name there went unseen. A reference cut out of a phone
 * photo carries glare of its own: a light pixel of it that the photo shows far darker than the fit
 * predicts is left out too.
 */
function comparedPixels(warped: Uint8Array, valid: Uint8Array, ref: ReferenceDetail): { use: Uint8Array; a: number; b: number; highlights: number } {
  const n = ref.width * ref.height;
  const { a, b } = lightFit(ref.gray, warped, (i) => ref.pin[i] !== 0 && valid[i] === 255 && warped[i] < SATURATED);
  const use = new Uint8Array(n);
  let seen = 0, highlights = 0;
  for (let i = 0; i < n; i++) {
    if (!ref.pin[i] || valid[i] !== 255) continue;
    seen++;
    const predicted = a * ref.gray[i] + b;
    if (warped[i] >= SATURATED && predicted < GLARE_BELOW) {
      if (predicted < HIGHLIGHT_BELOW) highlights++;
      continue;
    }
    if (ref.photo && ref.gray[i] >= REF_GLARE_FROM && predicted - warped[i] > REF_GLARE_GAP) continue;
    use[i] = 1;
  }
  return { use, a, b, highlights: seen ? highlights / seen : 0 };
}

/** photo ~ a * reference + b, fitted by least squares over every other pixel that `keep` accepts (a = 1 when too few). */
function lightFit(ref: Uint8Array, photo: Uint8Array, keep: (i: number) => boolean): { a: number; b: number } {
  let m = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (let i = 0; i < ref.length; i += 2) {
    if (!keep(i)) continue;
    const x = ref[i], y = photo[i];
    m++;
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  const vx = m ? sxx / m - (sx / m) ** 2 : 0;
  const a = m > 100 && vx > 1 ? (sxy / m - (sx / m) * (sy / m)) / vx : 1;
  return { a, b: m ? sy / m - a * (sx / m) : 0 };
}

export function detailCheck(
  cv: CV,
  photo: Uint8Array,
  valid: Uint8Array,
  ref: ReferenceDetail,
  alt?: SecondMotion,
  tintPhoto?: Uint8Array,
): DetailResult {
  const W = ref.width, Hh = ref.height;
  const { use, a, b, highlights } = comparedPixels(photo, valid, ref);
  const blur = chooseBlur(cv, photo, use, ref);
  const bestK = blur.ref;
  // the photo as compared: blurred to the reference's sharpness when that is the blurrier (a photo-cut reference)
  const warped = gaussianBlur(cv, photo, W, Hh, BLUR_SIGMAS[blur.photo]);
  const r = blurredRef(cv, ref, bestK);
  const cols = Math.floor(W / TILE), rows = Math.floor(Hh / TILE);
  const ncc = new Float32Array(cols * rows).fill(NaN);
  const shiftX = new Int8Array(cols * rows), shiftY = new Int8Array(cols * rows);
  let compared = 0;
  const notCloseTiles: number[] = [];
  const T = TILE * TILE;
  for (let ty = 0; ty < rows; ty++) {
    for (let tx = 0; tx < cols; tx++) {
      const x0 = tx * TILE, y0 = ty * TILE;
      if (x0 < SHIFT || y0 < SHIFT || x0 + TILE + SHIFT > W || y0 + TILE + SHIFT > Hh) continue;
      let inside = 0;
      for (let y = y0; y < y0 + TILE; y++) for (let x = x0; x < x0 + TILE; x++) if (use[y * W + x]) inside++;
      if (inside < T * 0.85) continue;
      if (!textured(r, W, x0, y0)) continue; // flat enamel says nothing about identity
      const found = boxNccAt(warped, r, W, Hh, x0, y0, TILE, TILE, SHIFT);
      if (found.ncc < CLOSE_NCC) notCloseTiles.push(ty * cols + tx);
      ncc[ty * cols + tx] = found.ncc;
      shiftX[ty * cols + tx] = found.dx;
      shiftY[ty * cols + tx] = found.dy;
      compared++;
    }
  }
  // tiles that are not close: before counting them against the pin, allow a wider local shift (a
  // homography a few pixels off near the pin's edge) and a blurrier reference (depth-of-field
  // falloff). Only when few are left to explain: a pin that differs all over is not worth the time.
  let turned = new Map<HangingPart, Uint8Array>();
  if (notCloseTiles.length <= compared * WIDE_CHECK_SHARE) {
    const blurrier = bestK + 1 < BLUR_SIGMAS.length && notCloseTiles.length > 0 ? blurredRef(cv, ref, bestK + 1) : null;
    for (const t of notCloseTiles) {
      const x0 = (t % cols) * TILE, y0 = Math.floor(t / cols) * TILE;
      // misalignment is smooth: where close neighbours agree on a shift, search only around it (lettering
      // of another name would otherwise slide onto similar strokes a few pixels away)
      const around = neighbourShift(ncc, shiftX, shiftY, cols, rows, t);
      const [ox, oy, reach] = around ? [around.dx, around.dy, NEIGHBOUR_SHIFT] : [0, 0, WIDE_SHIFT];
      let best = Math.max(ncc[t], tileNcc(warped, r, W, Hh, x0, y0, reach, ox, oy));
      if (best < CLOSE_NCC && blurrier) best = Math.max(best, tileNcc(warped, blurrier, W, Hh, x0, y0, reach, ox, oy));
      // a part that moves on its own (spinner, dangler): the tile under the second motion
      if (best < CLOSE_NCC && alt && nearRegion(alt.region, x0, y0) && tileInside(alt.valid, W, x0, y0)) {
        best = Math.max(best, tileNcc(alt.warped, r, W, Hh, x0, y0, WIDE_SHIFT));
        if (best < CLOSE_NCC && blurrier) best = Math.max(best, tileNcc(alt.warped, blurrier, W, Hh, x0, y0, WIDE_SHIFT));
      }
      ncc[t] = best;
    }
    turned = swingParts(cv, warped, r, ref, ncc, cols, rows);
  }
  const scores = [...ncc].filter((v) => !Number.isNaN(v));
  const tiles = scores.length;
  if (!tiles) return { tiles: 0, mismatch: 1, cluster: 0, median: 0, sigma: BLUR_SIGMAS[bestK], notClose: 1, notCloseCluster: 0, wrongLetters: 0, lineEndLetters: 0, wrongBoxes: [], lettersRead: 0, highlights };
  let bad = 0;
  for (const s of scores) if (s < MISMATCH_NCC) bad++;
  scores.sort((a, b) => a - b);
  const tinted = tintPhoto && ref.tinted ? tintedLetters(cv, tintPhoto, use, ref.tinted, bestK, blur.photo) : undefined;
  const letters = wrongLetters(warped, valid, r, ref, a, b, turned, alt, tinted);
  return {
    tiles,
    mismatch: bad / tiles,
    cluster: largestCluster(ncc, cols, rows, MISMATCH_NCC),
    notClose: scores.filter((x) => x < CLOSE_NCC).length / tiles,
    notCloseCluster: largestCluster(ncc, cols, rows, CLOSE_NCC),
    median: scores[tiles >> 1],
    sigma: BLUR_SIGMAS[bestK],
    wrongLetters: letters.wrong.length,
    lineEndLetters: letters.lineEnd,
    wrongBoxes: letters.wrong,
    lettersRead: letters.read,
    highlights,
  };
}

/**
 * A dangler swings about its ring between photos: where tiles of a hanging part are not close, the
 * photo is turned about the part's pivot through the swing angles, and the part's tiles keep their
 * correlation at the angle that suits the part as a whole (one angle for all of them: a different
 * lettering does not turn into the reference's at any angle). Returns the photo turned so for each
 * part that was turned (its letters are compared there).
 */
function swingParts(
  cv: CV, warped: Uint8Array, r: Uint8Array, ref: ReferenceDetail, ncc: Float32Array, cols: number, rows: number,
): Map<HangingPart, Uint8Array> {
  const W = ref.width;
  const turnedParts = new Map<HangingPart, Uint8Array>();
  const centre = (t: number) => (Math.floor(t / cols) * TILE + (TILE >> 1)) * W + (t % cols) * TILE + (TILE >> 1);
  for (const part of ref.parts) {
    const tiles: number[] = [];
    let open = false;
    for (let t = 0; t < cols * rows; t++)
      if (!Number.isNaN(ncc[t]) && part.region[centre(t)]) {
        tiles.push(t);
        if (ncc[t] < CLOSE_NCC) open = true;
      }
    if (!open) continue;
    const swing = swingOf(cv, warped, r, ref, part, tiles, cols);
    if (!swing) continue;
    tiles.forEach((t, k) => (ncc[t] = Math.max(ncc[t], swing.scores[k])));
    turnedParts.set(part, swing.turned);
  }
  return turnedParts;
}

/**
 * The angle (degrees) through which a hanging part has swung in a photo warped onto the reference
 * (grayscale, in the reference's frame), as the detail check finds it (`swingOf`) over the part's
 * textured tiles: 0 when they correlate best as the part hangs in the reference, or none is textured.
 */
export function partSwing(cv: CV, warped: Uint8Array, ref: ReferenceDetail, part: HangingPart): number {
  const W = ref.width, H = ref.height;
  const cols = Math.floor(W / TILE), rows = Math.floor(H / TILE);
  const tiles: number[] = [];
  for (let ty = 0; ty < rows; ty++)
    for (let tx = 0; tx < cols; tx++) {
      const x0 = tx * TILE, y0 = ty * TILE;
      if (x0 < WIDE_SHIFT || y0 < WIDE_SHIFT || x0 + TILE + WIDE_SHIFT > W || y0 + TILE + WIDE_SHIFT > H) continue;
      if (part.region[(y0 + (TILE >> 1)) * W + x0 + (TILE >> 1)] && textured(ref.gray, W, x0, y0)) tiles.push(ty * cols + tx);
    }
  if (tiles.length === 0) return 0;
  const total = (scores: number[]) => scores.reduce((s, v) => s + Math.max(0, v), 0);
  const still = total(tiles.map((t) => tileNcc(warped, ref.gray, W, H, (t % cols) * TILE, Math.floor(t / cols) * TILE, WIDE_SHIFT)));
  const swing = swingOf(cv, warped, ref.gray, ref, part, tiles, cols);
  return swing && total(swing.scores) > still ? swing.angle : 0;
}

/** The reference's tile at (x0, y0) varies by MIN_TILE_STD or more: it shows more than flat enamel. */
function textured(r: Uint8Array, W: number, x0: number, y0: number): boolean {
  return boxStats(r, W, [x0, y0, TILE, TILE]).rsd >= MIN_TILE_STD;
}

/**
 * How a hanging part has swung in the photo (warped onto the reference, grayscale): the photo turned
 * about the part's pivot through the swing angles (not 0), the angle at which the part's `tiles`
 * correlate best with the reference `r` as a whole, their correlations there and the photo so turned.
 */
function swingOf(
  cv: CV, warped: Uint8Array, r: Uint8Array, ref: { width: number; height: number }, part: HangingPart, tiles: number[], cols: number,
): { angle: number; scores: number[]; turned: Uint8Array } | null {
  const W = ref.width, H = ref.height;
  // only the part's box is turned: the part's tiles and letters are read there, and the rest of the
  // frame stays 0
  const [bx, by, bw, bh] = partBox(part, W, H);
  const src = new cv.Mat(H, W, cv.CV_8UC1);
  const dst = new cv.Mat();
  let best: { angle: number; scores: number[]; turned: Uint8Array } | null = null, bestSum = -Infinity;
  try {
    src.data.set(warped);
    const size = new cv.Size(bw, bh);
    const pivot = new cv.Point(part.pivot[0], part.pivot[1]);
    for (let a = -SWING_MAX; a <= SWING_MAX; a += SWING_STEP) {
      if (a === 0) continue;
      const M = cv.getRotationMatrix2D(pivot, a, 1);
      try {
        // the box's corner is the output's (0, 0): M takes the photo to the output
        const m = M.data64F;
        m[2] -= bx;
        m[5] -= by;
        cv.warpAffine(src, dst, M, size, cv.INTER_LINEAR, cv.BORDER_CONSTANT, new cv.Scalar(0));
      } finally {
        M.delete();
      }
      // (a new image each angle: the correlation kernel keeps the images it was given by identity)
      const turned = new Uint8Array(W * H);
      for (let y = 0; y < bh; y++) turned.set(dst.data.subarray(y * bw, (y + 1) * bw), (by + y) * W + bx);
      const scores = tiles.map((t) => tileNcc(turned, r, W, H, (t % cols) * TILE, Math.floor(t / cols) * TILE, WIDE_SHIFT));
      const sum = scores.reduce((s, v) => s + Math.max(0, v), 0);
      if (sum > bestSum) {
        bestSum = sum;
        best = { angle: a, scores, turned };
      }
    }
  } finally {
    src.delete();
    dst.delete();
  }
  return best;
}

/**
 * A hanging part's box in its reference's frame: its region's bounds, SWING_MARGIN wider each way,
 * inside the frame (x, y, width, height). A tile or letter whose centre lies on the part, searched
 * about its place, lies in it. Found once a part.
 */
function partBox(part: HangingPart, W: number, H: number): [number, number, number, number] {
  let box = partBoxes.get(part);
  if (!box) {
    let x0 = W, y0 = H, x1 = -1, y1 = -1;
    for (let y = 0, i = 0; y < H; y++)
      for (let x = 0; x < W; x++, i++)
        if (part.region[i]) {
          if (x < x0) x0 = x;
          if (x > x1) x1 = x;
          if (y < y0) y0 = y;
          if (y > y1) y1 = y;
        }
    const left = Math.max(0, x0 - SWING_MARGIN), top = Math.max(0, y0 - SWING_MARGIN);
    box = x1 < 0 ? [0, 0, W, H] : [left, top, Math.min(W, x1 + 1 + SWING_MARGIN) - left, Math.min(H, y1 + 1 + SWING_MARGIN) - top];
    partBoxes.set(part, box);
  }
  return box;
}
const partBoxes = new WeakMap<HangingPart, [number, number, number, number]>();
// a tile (TILE) or a letter (GLYPH_MAX_H and its margin) with its centre on the part, searched
// WIDE_SHIFT about its place, reaches at most this far past the part's region
const SWING_MARGIN = 48;

// Letters and digits (glyphBoxes, wrongLetters)
const GLYPH_CONTRAST = 24; // a stroke differs from its surroundings (21 px box mean) by this much
const GLYPH_MIN_H = 8; // height of a letter (reference pixels)
const GLYPH_MAX_H = 48;
const LETTER_MIN_H = 10; // letters compared one by one: at least this tall...
const LETTER_MIN_STD = 20; // ... and this clear in the reference at the photo's blur
const LETTER_MARGIN = 2; // box around the letter's strokes
const LETTER_SEEN = 0.85; // share of the box that the photo shows (inside the pin, not glare)
const LETTER_SHIFT = 3;
const LETTER_NCC = 0.5; // a letter that correlates less is another letter
const LETTER_LIGHT = 1.5; // ... unless the photo is brighter or darker there than the pin predicts by this many of its contrasts
const LETTER_PEERS = 4; // with at least this many letters compared, a letter is also measured against the others:
const LETTER_BELOW_PEERS = 0.35; // it differs when it correlates this much less than their median
const LETTER_LIGHT_PEERS = 0.3; // ... and the light on it is within this many contrasts of the prediction
const LETTER_BELOW_ROW = 0.25; // or this much less than both the pin's other letters and those of its own row,
const LETTER_ROW_LIGHT = 0.5; // ... where the light on the row's letters is within this many contrasts (median)
const LETTER_ROW_SLACK = 4; // letters of one row: tops and heights within this many reference pixels
const ROW_SHIFT = 8; // a letter and its neighbours in a line are looked for this far away as one box (alignRows)...
const ROW_WINDOW = 5; // ... this many letters in all
const ROW_MIN_LETTERS = 3; // ... in a line of at least this many

/** The box compared around a letter (its strokes and a margin), or null when a local search would leave the image. */
function letterBox([x, y, w, h]: number[], W: number, H: number): [number, number, number, number] | null {
  const x0 = x - LETTER_MARGIN, y0 = y - LETTER_MARGIN, bw = w + 2 * LETTER_MARGIN, bh = h + 2 * LETTER_MARGIN;
  return x0 < WIDE_SHIFT || y0 < WIDE_SHIFT || x0 + bw + WIDE_SHIFT > W || y0 + bh + WIDE_SHIFT > H ? null : [x0, y0, bw, bh];
}

/**
 * The letters and digits printed on a reference: pieces of one polarity (darker or lighter than their
 * surroundings) of a letter's size and fill, standing in a line with a piece of like height beside them
 * (`nextInLine`: a row of text, or text along an arc). Art and outlines rarely make such lines.
 */
export function glyphBoxes(cv: CV, gray: Uint8Array, pin: Uint8Array, W: number, H: number): number[][] {
  const n = W * H;
  const src = new cv.Mat(H, W, cv.CV_8UC1);
  const mean = new cv.Mat();
  const bin = new cv.Mat(H, W, cv.CV_8UC1);
  const labels = new cv.Mat();
  const stats = new cv.Mat();
  const centroids = new cv.Mat();
  const found: number[][] = [];
  try {
    src.data.set(gray);
    cv.blur(src, mean, new cv.Size(21, 21), new cv.Point(-1, -1), cv.BORDER_REPLICATE);
    const g = gray, m = mean.data, b = bin.data;
    for (const sign of [1, -1]) {
      for (let i = 0; i < n; i++) b[i] = pin[i] && sign * (m[i] - g[i]) > GLYPH_CONTRAST ? 1 : 0;
      const count = cv.connectedComponentsWithStats(bin, labels, stats, centroids, 8, cv.CV_32S);
      const cand: number[][] = [];
      for (let k = 1; k < count; k++) {
        const x = stats.intAt(k, cv.CC_STAT_LEFT), y = stats.intAt(k, cv.CC_STAT_TOP);
        const w = stats.intAt(k, cv.CC_STAT_WIDTH), h = stats.intAt(k, cv.CC_STAT_HEIGHT), a = stats.intAt(k, cv.CC_STAT_AREA);
        const fill = a / (w * h);
        if (h < GLYPH_MIN_H || h > GLYPH_MAX_H || w < 2 || w > 1.6 * h || fill < 0.12 || fill > 0.9) continue;
        cand.push([x, y, w, h]);
      }
      for (const c of cand) if (cand.some((o) => o !== c && inRow(c, o))) found.push(c);
      // lettering along an arc: a chain of at least ARC_MIN_GLYPHS (pieces of art, an ear beside an eye,
      // make shorter ones)
      for (const chain of new Set(chainGlyphs(cand).values()))
        if (chain.length >= ARC_MIN_GLYPHS) for (const c of chain) if (!found.includes(c)) found.push(c);
    }
  } finally {
    src.delete();
    mean.delete();
    bin.delete();
    labels.delete();
    stats.delete();
    centroids.delete();
  }
  return found;
}

/** A channel letters are compared in: the photo warped onto the reference, the reference at the photo's blur, and the light fit (photo ~ a * reference + b). */
interface Channel {
  photo: Uint8Array;
  ref: Uint8Array;
  a: number;
  b: number;
}

interface Letter {
  glyph: number[];
  x0: number;
  y0: number;
  bw: number;
  bh: number;
  centre: number;
  rm: number;
  rsd: number;
  ncc: number;
  light: number;
  ch: Channel;
}

/** Mean and standard deviation of an image over a box. */
function boxStats(img: Uint8Array, W: number, [x0, y0, bw, bh]: readonly number[]): { rm: number; rsd: number } {
  let rs = 0, rss = 0;
  for (let yy = y0; yy < y0 + bh; yy++)
    for (let xx = x0; xx < x0 + bw; xx++) {
      const v = img[yy * W + xx];
      rs += v;
      rss += v * v;
    }
  const n = bw * bh;
  const rm = rs / n;
  return { rm, rsd: Math.sqrt(Math.max(0, rss / n - rm * rm)) };
}

/**
 * The tint channel as the letters are compared in it: the photo's projection (warped) blurred as the
 * photo is, the reference's at the chosen blur, and the light fitted over the compared pixels.
 */
function tintedLetters(cv: CV, photo: Uint8Array, use: Uint8Array, tinted: Gray, refK: number, photoK: number): Channel {
  const { a, b } = lightFit(tinted.gray, photo, (i) => use[i] !== 0);
  return { photo: gaussianBlur(cv, photo, tinted.width, tinted.height, BLUR_SIGMAS[photoK]), ref: blurredRef(cv, tinted, refK), a, b };
}

/** A letter is faint in grayscale below this standard deviation over its box (reference, unblurred)... */
const FAINT_GRAY = 30;
/** ... and stands out in colour when it spreads this many times more along its box's principal colour axis. */
const TINT_GAIN = 1.5;

/**
 * The colour direction in which the reference's faint letters stand out: teal letters on orange
 * enamel, red on green, are nearly one gray (a standard deviation of 3-6 over a letter once blurred
 * as a phone photo is), so another team name printed in them went unread. The principal axis of the
 * RGB covariance over the boxes of the letters that are faint in grayscale and spread TINT_GAIN times
 * more along their own principal axis; null when there are none.
 */
export function referenceTint(img: RawImage, gray: Uint8Array, glyphs: number[][]): Tint | null {
  const W = img.width, H = img.height, d = img.data;
  const cov = new Float64Array(9);
  let total = 0;
  for (const glyph of glyphs) {
    if (glyph[3] < LETTER_MIN_H) continue;
    const box = letterBox(glyph, W, H);
    if (!box) continue;
    const { rsd } = boxStats(gray, W, box);
    if (rsd >= FAINT_GRAY) continue;
    const [x0, y0, bw, bh] = box;
    const c = new Float64Array(9), mu = new Float64Array(3);
    const n = bw * bh;
    for (let yy = y0; yy < y0 + bh; yy++)
      for (let xx = x0; xx < x0 + bw; xx++) {
        const i = (yy * W + xx) * 3;
        for (let p = 0; p < 3; p++) {
          mu[p] += d[i + p];
          for (let q = 0; q < 3; q++) c[p * 3 + q] += d[i + p] * d[i + q];
        }
      }
    for (let p = 0; p < 3; p++) mu[p] /= n;
    for (let p = 0; p < 3; p++) for (let q = 0; q < 3; q++) c[p * 3 + q] = c[p * 3 + q] / n - mu[p] * mu[q];
    // the letter's spread in its own tint channel (which maps the axis' range onto 0-255, as gray does)
    const own = principal(c);
    const spread = Math.sqrt(Math.max(0, own.value)) / (Math.abs(own.vector[0]) + Math.abs(own.vector[1]) + Math.abs(own.vector[2]));
    if (spread < TINT_GAIN * Math.max(rsd, 1)) continue;
    for (let k = 0; k < 9; k++) cov[k] += c[k] * n;
    total += n;
  }
  if (!total) return null;
  const { vector } = principal(cov);
  // one sign for every reference: the largest component positive
  const big = [0, 1, 2].reduce((p, q) => (Math.abs(vector[q]) > Math.abs(vector[p]) ? q : p), 0);
  const s = Math.sign(vector[big]) || 1;
  // as stored (reference-pixels.server.ts), so that a stored reference and one decoded here project alike
  return [Math.fround(vector[0] * s), Math.fround(vector[1] * s), Math.fround(vector[2] * s)];
}

/** The largest eigenvalue of a symmetric 3 x 3 matrix and its unit eigenvector (power iteration). */
function principal(m: Float64Array): { value: number; vector: [number, number, number] } {
  let v = [1, 1, 1];
  let value = 0;
  for (let it = 0; it < 50; it++) {
    const w = [0, 1, 2].map((p) => m[p * 3] * v[0] + m[p * 3 + 1] * v[1] + m[p * 3 + 2] * v[2]);
    const norm = Math.hypot(w[0], w[1], w[2]);
    if (norm < 1e-12) return { value: 0, vector: [1, 0, 0] };
    value = norm;
    v = w.map((x) => x / norm);
  }
  return { value, vector: [v[0], v[1], v[2]] };
}

/** A reference's tint channel, or undefined when none of its letters needs one (`referenceTint`). */
export function tintedGray(img: RawImage, gray: Uint8Array, glyphs: number[][]): TintedGray | undefined {
  const tint = referenceTint(img, gray, glyphs);
  return tint ? { width: img.width, height: img.height, gray: projectTint(img, tint), blurred: [], tint } : undefined;
}

/** An RGB image projected on a tint, one byte per pixel. */
export function projectTint(img: RawImage, axis: Tint): Uint8Array {
  const n = img.width * img.height, d = img.data;
  const out = new Uint8Array(n);
  // the axis' range over RGB mapped onto 0-255
  const lo = 255 * (Math.min(0, axis[0]) + Math.min(0, axis[1]) + Math.min(0, axis[2]));
  const span = 255 * (Math.abs(axis[0]) + Math.abs(axis[1]) + Math.abs(axis[2]));
  const k0 = (255 * axis[0]) / span, k1 = (255 * axis[1]) / span, k2 = (255 * axis[2]) / span, k = (255 * lo) / span;
  for (let i = 0, j = 0; i < n; i++, j += 3) out[i] = k0 * d[j] + k1 * d[j + 1] + k2 * d[j + 2] - k + 0.5;
  return out;
}

/**
 * Clear letters and digits of the reference that the photo shows otherwise: each letter's box is
 * correlated with the photo on its own. A 16 px tile grid cuts one changed digit of a year into pieces
 * that each still correlate (another year of the same pin passed); a box around the digit does not
 * (0.4 where the right digit gives 0.9 and more). A letter is left out when the reference shows it too
 * faint or small to tell at the photo's blur, when part of it is glare, when the photo is brighter or
 * darker there than the rest of the pin predicts (a reflection that is not saturated, a shadow). A
 * letter on a spinner or dangler is also compared as that part has moved.
 * A letter also differs when it correlates far less than the pin's other letters do in the same photo
 * while the light on it is as predicted: in a sharp photo, where the right letters give 0.95 and more,
 * an 8 that became a 9 still correlates at about 0.6. With a row of letters beside it (a name, a
 * year: the same type, tilt and blur), a smaller gap tells: a 3 where the reference prints a 5, a 2
 * for its 3, give 0.66-0.70 where the rest of the pin and of the row give 0.97-0.98. A whole row that
 * blur or tilt lowers is not a letter of its own, and a row under a reflection is left to the rules above.
 * A letter printed in a colour about as light as the enamel around it (teal on orange) is too faint
 * to compare in grayscale: when the reference has a tint (`referenceTint`), it is compared there,
 * the photo projected on the same colour axis (`tinted`), with a light fit of its own.
 */
function wrongLetters(
  warped: Uint8Array, valid: Uint8Array, r: Uint8Array, ref: ReferenceDetail, a: number, b: number,
  turned: Map<HangingPart, Uint8Array>,
  alt?: SecondMotion,
  tinted?: Channel,
): { wrong: number[][]; lineEnd: number; read: number } {
  const W = ref.width, H = ref.height;
  const letters: Letter[] = [];
  for (const glyph of ref.glyphs) {
    const [x, y, w, h] = glyph;
    if (h < LETTER_MIN_H) continue;
    const box = letterBox([x, y, w, h], W, H);
    if (!box) continue;
    const [x0, y0, bw, bh] = box;
    const n = bw * bh;
    // inside the pin's whole shape (letters are often printed on light enamel, which the tiles' eroded
    // silhouette leaves out), seen by the photo, and not glare
    let inside = 0;
    for (let yy = y0; yy < y0 + bh; yy++)
      for (let xx = x0; xx < x0 + bw; xx++) {
        const i = yy * W + xx;
        if (ref.shape[i] && valid[i] === 255 && !(warped[i] >= SATURATED && a * ref.gray[i] + b < GLARE_BELOW)) inside++;
      }
    if (inside < n * LETTER_SEEN) continue;
    // a letter too faint in grayscale is compared in the reference's tint when it stands out there
    let ch: Channel = { photo: warped, ref: r, a, b };
    let { rm, rsd } = boxStats(r, W, box);
    if (rsd < LETTER_MIN_STD && tinted) {
      const t = boxStats(tinted.ref, W, box);
      if (t.rsd >= LETTER_MIN_STD) ({ ch, rm, rsd } = { ch: tinted, ...t });
    }
    if (rsd < LETTER_MIN_STD) continue;
    const { ncc, dx, dy } = boxNccAt(ch.photo, ch.ref, W, H, x0, y0, bw, bh, LETTER_SHIFT);
    // brighter or darker than the pin predicts there: a reflection that is not saturated, a shadow
    const light = letterLight(ch.photo, W, box, dx, dy, rm, rsd, ch.a, ch.b, ch.ref);
    letters.push({ glyph, x0, y0, bw, bh, centre: (y + (h >> 1)) * W + x + (w >> 1), rm, rsd, ncc, light, ch });
  }
  const lines = glyphLines(ref.glyphs);
  alignRows(W, H, letters, lines);
  const lowest = letters.length >= LETTER_PEERS ? median(letters.map((l) => l.ncc)) - LETTER_BELOW_PEERS : -Infinity;
  const wrong: number[][] = [];
  let lineEnd = 0;
  for (const l of letters) {
    const { x0, y0, bw, bh, centre, ncc, light } = l;
    if (!((ncc < LETTER_NCC && light <= LETTER_LIGHT) || (ncc < lowest && light <= LETTER_LIGHT_PEERS) || belowRow(l, letters, lines))) continue;
    if (!inLine(l, letters, lines)) continue;
    // on a part that moves on its own, the letter as that part has moved: a spinner under its own
    // motion, a dangler turned about its ring
    if (alt && nearRegion(alt.region, x0, y0) && boxNcc(alt.warped, r, W, H, x0, y0, bw, bh, WIDE_SHIFT) >= LETTER_NCC) continue;
    const part = ref.parts.find((p) => p.region[centre]);
    const swung = part && turned.get(part);
    if (swung && boxNcc(swung, r, W, H, x0, y0, bw, bh, WIDE_SHIFT) >= LETTER_NCC) continue;
    wrong.push(l.glyph.slice(0, 4));
    if (atLineEnd(l.glyph, lines)) lineEnd++;
  }
  return { wrong, lineEnd, read: letters.length };
}

/**
 * A line of lettering that the pin's homography leaves a few pixels off (where the pin is not flat, or
 * the fit leans on a spinner or on one side of the pin), beyond a letter's own search: a letter that is
 * not close is looked for again around the shift at which it and its nearest neighbours in the line
 * (ROW_WINDOW letters in all, as one box) fit best, up to ROW_SHIFT pixels away; the better of the two
 * is kept, with the light measured where it was found. Only in a line of at least ROW_MIN_LETTERS: one
 * digit that differs does not move the box, which the other letters anchor, so another year still
 * correlates poorly there. The shift is local because the misalignment grows along a line.
 */
function alignRows(W: number, H: number, letters: Letter[], lines: GlyphLines): void {
  const distance = (m: Letter, l: Letter) => Math.hypot(m.x0 + m.bw / 2 - (l.x0 + l.bw / 2), m.y0 + m.bh / 2 - (l.y0 + l.bh / 2));
  for (const l of letters) {
    if (l.ncc >= CLOSE_NCC) continue;
    const row = rowLetters(l, letters, lines);
    if (row.length < ROW_MIN_LETTERS) continue;
    const near = row.sort((p, q) => distance(p, l) - distance(q, l)).slice(0, ROW_WINDOW);
    const x0 = Math.min(...near.map((m) => m.x0)), y0 = Math.min(...near.map((m) => m.y0));
    const x1 = Math.max(...near.map((m) => m.x0 + m.bw)), y1 = Math.max(...near.map((m) => m.y0 + m.bh));
    const { photo, ref, a, b } = l.ch;
    const line = boxNccAt(photo, ref, W, H, x0, y0, x1 - x0, y1 - y0, ROW_SHIFT);
    if (line.ncc < 0) continue;
    if (Math.max(Math.abs(line.dx), Math.abs(line.dy)) <= LETTER_SHIFT) continue; // the letter's own search covered it
    const found = boxNccAt(photo, ref, W, H, l.x0, l.y0, l.bw, l.bh, LETTER_SHIFT, line.dx, line.dy);
    if (found.ncc <= l.ncc) continue;
    l.ncc = found.ncc;
    l.light = letterLight(photo, W, [l.x0, l.y0, l.bw, l.bh], found.dx, found.dy, l.rm, l.rsd, a, b, ref);
  }
}

/**
 * How far the photo's mean over a letter's box, shifted by (dx, dy), lies from what the pin predicts
 * there (a * the reference's mean `rm` + b), in the reference's contrasts (`rsd`); or, when it is
 * nearer, the same over the band of LIGHT_RING pixels around the box (the reference `r` there). A
 * reflection or a shadow lights the letter's surroundings too; another glyph changes the box alone:
 * an 8 printed where the reference has a 6 darkens its box by a third of its contrast, which read as
 * a shadow and excused it, while the band around it was lit as predicted.
 */
function letterLight(
  warped: Uint8Array, W: number, [x0, y0, bw, bh]: readonly number[], dx: number, dy: number, rm: number, rsd: number, a: number, b: number, r: Uint8Array,
): number {
  let qs = 0;
  for (let yy = y0; yy < y0 + bh; yy++) for (let xx = x0; xx < x0 + bw; xx++) qs += warped[(yy + dy) * W + xx + dx];
  const box = Math.abs(qs / (bw * bh) - (a * rm + b)) / (Math.abs(a) * rsd);
  const H = warped.length / W;
  let pq = 0, pr = 0, n = 0;
  for (let yy = y0 - LIGHT_RING; yy < y0 + bh + LIGHT_RING; yy++)
    for (let xx = x0 - LIGHT_RING; xx < x0 + bw + LIGHT_RING; xx++) {
      if (yy >= y0 && yy < y0 + bh && xx >= x0 && xx < x0 + bw) continue;
      const py = yy + dy, px = xx + dx;
      if (yy < 0 || yy >= H || xx < 0 || xx >= W || py < 0 || py >= H || px < 0 || px >= W) continue;
      pq += warped[py * W + px];
      pr += r[yy * W + xx];
      n++;
    }
  if (!n) return box;
  return Math.min(box, Math.abs(pq / n - (a * (pr / n) + b)) / (Math.abs(a) * rsd));
}
const LIGHT_RING = 3;

/**
 * Whether a glyph is one of the last two of its line on the reference (`glyphLines`, a line of at least
 * two), where a year's changing digits, or an age group's, are printed ("TWIN PEAKS 2014", "12U",
 * "SMOKY MOUNTAIN 2014" along a ring's arc).
 */
function atLineEnd(glyph: number[], lines: GlyphLines): boolean {
  const { line, chain } = lines.get(glyph)!;
  if (line.length < 2) return false;
  // in a row, the glyphs to its right; along an arc, those after it in reading order
  return (chain ? line.length - 1 - line.indexOf(glyph) : line.filter((g) => g[0] > glyph[0]).length) < 2;
}

/**
 * Whether a glyph that reads wrong is lettering: one of a line of at least LINE_MIN_GLYPHS glyphs on
 * the reference (`glyphLines`), or beside a letter of its line that the photo shows as the reference prints it. The
 * two seams of a baseball spinner are found as a row of two tall glyphs; the spinner turns, both read
 * wrong, and the right pin was refused (both public-set photos of one pin). A changed digit beside
 * one that agrees still counts, and so does a whole name that changed.
 */
function inLine(l: Letter, letters: Letter[], lines: GlyphLines): boolean {
  const { line } = lines.get(l.glyph)!;
  if (line.length >= LINE_MIN_GLYPHS) return true;
  return letters.some((m) => m !== l && m.ncc >= CLOSE_NCC && line.includes(m.glyph));
}
const LINE_MIN_GLYPHS = 3;

/** The letters among `letters` that stand in the line of `l`'s glyph (`glyphLines`). */
function rowLetters(l: Letter, letters: Letter[], lines: GlyphLines): Letter[] {
  const { line } = lines.get(l.glyph)!;
  return letters.filter((m) => line.includes(m.glyph));
}

/** Two letters (their tops and heights) stand in one row of lettering. */
function sameRow(topA: number, heightA: number, topB: number, heightB: number): boolean {
  return Math.abs(topA - topB) <= LETTER_ROW_SLACK && Math.abs(heightA - heightB) <= LETTER_ROW_SLACK;
}

/**
 * Two glyph boxes of like height that follow each other in a line of lettering: side by side in a row
 * (centres within 0.3 of a height, the gap under 0.8 of one), or along an arc, where each letter is
 * turned and the next one stands higher or lower (a ring's name or year): centres within 1.5 heights,
 * boxes less than half a height apart (the two seams of a baseball spinner stand a height apart), the
 * line no steeper than 50 degrees.
 */
function nextInLine(c: readonly number[], o: readonly number[]): boolean {
  if (inRow(c, o)) return true;
  if (!likeHeights(c, o)) return false;
  const dx = o[0] + o[2] / 2 - (c[0] + c[2] / 2), dy = o[1] + o[3] / 2 - (c[1] + c[3] / 2);
  const h = Math.max(c[3], o[3]);
  // the boxes of two turned letters touch or nearly do
  const gap = Math.max(o[0] - (c[0] + c[2]), c[0] - (o[0] + o[2]), o[1] - (c[1] + c[3]), c[1] - (o[1] + o[3]));
  return Math.hypot(dx, dy) < ARC_REACH * h && gap < ARC_GAP * h && Math.abs(dy) <= ARC_SLOPE * Math.abs(dx);
}

/** Two glyph boxes side by side in a row: like heights, centres within 0.3 of a height, the gap under 0.8 of one. */
function inRow(c: readonly number[], o: readonly number[]): boolean {
  const gap = Math.max(o[0] - (c[0] + c[2]), c[0] - (o[0] + o[2]));
  return likeHeights(c, o) && Math.abs(o[1] + o[3] / 2 - (c[1] + c[3] / 2)) < 0.3 * c[3] && gap < 0.8 * c[3];
}
/** Two glyph boxes whose heights are within 0.7-1.4 of each other. */
function likeHeights(c: readonly number[], o: readonly number[]): boolean {
  const ratio = o[3] / c[3];
  return ratio > 0.7 && ratio < 1.4;
}
const ARC_REACH = 1.5;
const ARC_GAP = 0.5;
const ARC_SLOPE = 1.2; // tan 50 degrees
const ARC_MIN_GLYPHS = 4;

/** Each glyph's line (`glyphLines`): its glyphs, itself included, and whether they are a chain along an arc in reading order. */
type GlyphLines = Map<number[], { line: number[][]; chain: boolean }>;

/**
 * The line each glyph is printed in: the glyphs of its row (tops and heights within LETTER_ROW_SLACK,
 * however far apart: "20 <plane> 19"), or, when it is longer, the chain of glyphs that follow one
 * another from it (`nextInLine`: lettering along an arc, whose letters share a row only by chance),
 * in reading order (`chain`: left to right along its main direction).
 */
function glyphLines(glyphs: number[][]): GlyphLines {
  const chains = chainGlyphs(glyphs);
  const lines: GlyphLines = new Map();
  for (const glyph of glyphs) {
    const row = glyphs.filter((g) => sameRow(g[1], g[3], glyph[1], glyph[3]));
    const chain = chains.get(glyph) ?? [glyph];
    lines.set(glyph, chain.length >= ARC_MIN_GLYPHS && chain.length > row.length ? { line: chain, chain: true } : { line: row, chain: false });
  }
  return lines;
}

/** Each glyph's chain of glyphs that follow one another (`nextInLine`), ordered along the chain's main direction. */
function chainGlyphs(glyphs: number[][]): Map<number[], number[][]> {
  const parent = glyphs.map((_, i) => i);
  const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i])));
  for (let i = 0; i < glyphs.length; i++)
    for (let j = i + 1; j < glyphs.length; j++) if (nextInLine(glyphs[i], glyphs[j])) parent[root(i)] = root(j);
  const groups = new Map<number, number[][]>();
  glyphs.forEach((g, i) => {
    const group = groups.get(root(i));
    if (group) group.push(g);
    else groups.set(root(i), [g]);
  });
  const out = new Map<number[], number[][]>();
  for (const group of groups.values()) {
    // the main direction: from the leftmost centre to the rightmost (an arc of lettering turns less than half a circle)
    const cx = (g: number[]) => g[0] + g[2] / 2, cy = (g: number[]) => g[1] + g[3] / 2;
    const first = group.reduce((p, q) => (cx(q) < cx(p) ? q : p)), last = group.reduce((p, q) => (cx(q) > cx(p) ? q : p));
    const ux = cx(last) - cx(first), uy = cy(last) - cy(first);
    const along = (g: number[]) => cx(g) * ux + cy(g) * uy;
    const ordered = group.slice().sort((p, q) => along(p) - along(q));
    for (const g of group) out.set(g, ordered);
  }
  return out;
}

/**
 * A letter that correlates LETTER_BELOW_ROW less than the median of the pin's other letters and of
 * the other letters of its line (`glyphLines`, at least two), where the light on it and on the line is as predicted.
 */
function belowRow(l: Letter, letters: Letter[], lines: GlyphLines): boolean {
  if (l.light > LETTER_LIGHT_PEERS || letters.length < LETTER_PEERS) return false;
  const others = letters.filter((m) => m !== l);
  if (l.ncc >= median(others.map((m) => m.ncc)) - LETTER_BELOW_ROW) return false;
  const row = rowLetters(l, others, lines);
  if (row.length < 2) return false;
  return l.ncc < median(row.map((m) => m.ncc)) - LETTER_BELOW_ROW && median(row.map((m) => m.light)) <= LETTER_ROW_LIGHT;
}

function median(values: number[]): number {
  const sorted = values.slice().sort((p, q) => p - q);
  return sorted[sorted.length >> 1];
}

/** Two look-alike references print a letter alike when its boxes correlate at least this well... */
const DUEL_SAME_LETTER = 0.9;
/**
 * ... and not more than this below the median of the letters they print alike (at least DUEL_ALIKE_MIN
 * of them). The public set's 2016 and 2018 of one design (a condensed font) correlate 0.91 on the last
 * digit where their other letters correlate 0.99: two photos of the 2016 pin were named 2018.
 */
const DUEL_BELOW_ALIKE = 0.05;
const DUEL_ALIKE_MIN = 3;

/** What the photo says about the letters in which reference A differs from its look-alike B. */
export interface LetterDuel {
  /** letters of A that B prints otherwise and the photo shows (not glare, inside the photo) */
  letters: number;
  /** sum over those letters of (photo against A) - (photo against B) correlations: > 0, the photo shows A's */
  score: number;
  /** mean correlation of the photo with A on those letters */
  meanA: number;
  /** median correlation of the photo with A on the letters that A and B print alike (-1 if none) */
  alike: number;
}

/**
 * Which of two look-alike references (one design, another year or team name) the photo shows, letter by
 * letter at full resolution. B's reference is brought into A's frame (hBA: B -> A, reference pixels),
 * both are blurred alike to the photo's sharpness (`sigma`, as the detail check of A chose it), and each
 * letter of A that B prints otherwise is correlated with the photo (warped into A's frame) under both.
 * The thumbnail duel compares colours at 256 px, where an 8 and a 9 of a year are the same few pixels;
 * here they correlate 0.96 and 0.88 with a photo of the 8.
 */
export function letterDuel(
  cv: CV, warped: Uint8Array, valid: Uint8Array, refA: ReferenceDetail, refB: ReferenceDetail, hBA: number[], sigma: number,
): LetterDuel {
  const W = refA.width, H = refA.height;
  const k = Math.max(0, BLUR_SIGMAS.indexOf(sigma));
  const rA = blurredRef(cv, refA, k);
  const rB = refInto(cv, refA, refB, hBA, k);
  let letters = 0, score = 0, sumA = 0;
  const same: number[] = [];
  const boxes: { box: number[]; ab: number }[] = [];
  for (const glyph of refA.glyphs) {
    const box = letterBox(glyph, W, H);
    if (!box) continue;
    const [x0, y0, bw, bh] = box;
    let seen = 0;
    for (let yy = y0; yy < y0 + bh; yy++)
      for (let xx = x0; xx < x0 + bw; xx++) if (valid[yy * W + xx] === 255 && warped[yy * W + xx] < SATURATED) seen++;
    if (seen < bw * bh * LETTER_SEEN) continue;
    boxes.push({ box, ab: boxNcc(rB, rA, W, H, x0, y0, bw, bh, 2) });
  }
  // where the two references align well, a letter printed otherwise may still correlate above
  // DUEL_SAME_LETTER (an 8 and a 6 of a condensed font, 0.91): it differs when it falls DUEL_BELOW_ALIKE
  // below the median of the letters they print alike
  const alikeAb = boxes.filter((b) => b.ab >= DUEL_SAME_LETTER).map((b) => b.ab);
  const sameBar = alikeAb.length >= DUEL_ALIKE_MIN ? Math.max(DUEL_SAME_LETTER, median(alikeAb) - DUEL_BELOW_ALIKE) : DUEL_SAME_LETTER;
  for (const { box, ab } of boxes) {
    const [x0, y0, bw, bh] = box;
    const pA = boxNcc(warped, rA, W, H, x0, y0, bw, bh, LETTER_SHIFT);
    if (ab >= sameBar) {
      same.push(pA);
      continue;
    }
    const pB = boxNcc(warped, rB, W, H, x0, y0, bw, bh, LETTER_SHIFT);
    letters++;
    score += pA - pB;
    sumA += pA;
  }
  same.sort((p, q) => p - q);
  return { letters, score, meanA: letters ? sumA / letters : 0, alike: same.length ? same[same.length >> 1] : -1 };
}

/** B's reference, blurred with BLUR_SIGMAS[k], brought into A's frame (hBA: B -> A, reference pixels). */
function refInto(cv: CV, refA: ReferenceDetail, refB: ReferenceDetail, hBA: number[], k: number): Uint8Array {
  const src = new cv.Mat(refB.height, refB.width, cv.CV_8UC1);
  const out = new cv.Mat();
  const Hm = cv.matFromArray(3, 3, cv.CV_64FC1, hBA);
  try {
    src.data.set(blurredRef(cv, refB, k));
    cv.warpPerspective(src, out, Hm, new cv.Size(refA.width, refA.height), cv.INTER_LINEAR, cv.BORDER_REPLICATE);
    const into = new Uint8Array(out.data);
    // A smeared as the photo is, B not yet: B smeared alike once in A's frame
    return refA.smear && !refB.smear ? smearGray(into, refA.width, refA.height, refA.smear) : into;
  } finally {
    src.delete();
    out.delete();
    Hm.delete();
  }
}

/**
 * How many letters of reference A its look-alike B prints otherwise (hBA: B -> A, reference pixels),
 * both a little blurred so that a pixel of misalignment counts less: a year or an age group differs in
 * a few (up to four on the public set, a digit a pixel off counting too), another team name in more.
 */
export function lettersUnlike(cv: CV, refA: ReferenceDetail, refB: ReferenceDetail, hBA: number[]): number {
  const W = refA.width, H = refA.height;
  const rA = blurredRef(cv, refA, 1);
  const rB = refInto(cv, refA, refB, hBA, 1);
  let unlike = 0;
  for (const glyph of refA.glyphs) {
    const box = letterBox(glyph, W, H);
    if (box && boxNcc(rB, rA, W, H, box[0], box[1], box[2], box[3], 2) < DUEL_SAME_LETTER) unlike++;
  }
  return unlike;
}

/** Median shift of the close tiles within two tiles of t, when at least three agree enough to say. */
function neighbourShift(ncc: Float32Array, sx: Int8Array, sy: Int8Array, cols: number, rows: number, t: number): { dx: number; dy: number } | null {
  const x = t % cols, y = (t - x) / cols;
  const xs: number[] = [], ys: number[] = [];
  for (let j = Math.max(0, y - 2); j <= Math.min(rows - 1, y + 2); j++)
    for (let i = Math.max(0, x - 2); i <= Math.min(cols - 1, x + 2); i++) {
      const k = j * cols + i;
      if (ncc[k] >= CLOSE_NCC) {
        xs.push(sx[k]);
        ys.push(sy[k]);
      }
    }
  if (xs.length < 3) return null;
  xs.sort((a, b) => a - b);
  ys.sort((a, b) => a - b);
  return { dx: xs[xs.length >> 1], dy: ys[ys.length >> 1] };
}

/** The tile overlaps the region, widened by a tile on every side. */
function nearRegion([x0, y0, x1, y1]: [number, number, number, number], tx: number, ty: number): boolean {
  return tx + TILE > x0 - TILE && tx < x1 + TILE && ty + TILE > y0 - TILE && ty < y1 + TILE;
}

function tileInside(valid: Uint8Array, W: number, x0: number, y0: number): boolean {
  for (let y = y0; y < y0 + TILE; y++) for (let x = x0; x < x0 + TILE; x++) if (valid[y * W + x] !== 255) return false;
  return true;
}

/** Best zero-mean normalised correlation of a reference tile (`size` px) with the photo shifted by up to `shift` px. */
function tileNcc(
  warped: Uint8Array, r: Uint8Array, W: number, H: number, x0: number, y0: number, shift: number, ox = 0, oy = 0, size = TILE,
): number {
  return boxNcc(warped, r, W, H, x0, y0, size, size, shift, ox, oy);
}

/** The same for a w x h box of the reference. */
function boxNcc(
  warped: Uint8Array, r: Uint8Array, W: number, H: number, x0: number, y0: number, w: number, h: number, shift: number, ox = 0, oy = 0,
): number {
  return boxNccAt(warped, r, W, H, x0, y0, w, h, shift, ox, oy).ncc;
}

/** A box's best correlation with the photo, and the shift of the photo at which it was found. */
interface Found {
  ncc: number;
  dx: number;
  dy: number;
}

/**
 * The same with the shift at which it was found ((ox, oy) when no shift could be compared). The sums
 * over the box at each shift are integers, counted in WebAssembly SIMD (`shiftSums`, ncc.wat); the
 * correlation is computed from them here.
 */
function boxNccAt(
  warped: Uint8Array, r: Uint8Array, W: number, H: number, x0: number, y0: number, w: number, h: number, shift: number, ox = 0, oy = 0,
): Found {
  const found: Found = { ncc: -1, dx: ox, dy: oy };
  const T = w * h;
  // the shifts that keep the box inside the photo
  const dy0 = Math.max(oy - shift, -y0), dy1 = Math.min(oy + shift, H - h - y0);
  const dx0 = Math.max(ox - shift, -x0), dx1 = Math.min(ox + shift, W - w - x0);
  if (dx0 > dx1 || dy0 > dy1) return found;
  const sums = shiftSums(warped, r, W, x0, y0, w, h, dx0, dx1, dy0, dy1);
  const rm = sums[0] / T;
  const rv = sums[1] / T - rm * rm;
  if (rv < 1) return found;
  for (let dy = dy0, k = 2; dy <= dy1; dy++)
    for (let dx = dx0; dx <= dx1; dx++, k += 3) {
      const qs = sums[k], qss = sums[k + 1], qr = sums[k + 2];
      const qm = qs / T;
      const qv = qss / T - qm * qm;
      if (qv < 4) continue;
      const c = (qr / T - qm * rm) / Math.sqrt(qv * rv);
      if (c > found.ncc) {
        found.ncc = c;
        found.dx = dx;
        found.dy = dy;
      }
    }
  return found;
}

function largestCluster(ncc: Float32Array, cols: number, rows: number, threshold: number): number {
  const seen = new Uint8Array(ncc.length);
  let best = 0;
  const stack: number[] = [];
  for (let s = 0; s < ncc.length; s++) {
    if (seen[s] || !(ncc[s] < threshold)) continue;
    let size = 0;
    stack.push(s);
    seen[s] = 1;
    while (stack.length) {
      const i = stack.pop() as number;
      size++;
      const x = i % cols, y = (i - x) / cols;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx, ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= cols || ny >= rows) continue;
          const j = ny * cols + nx;
          if (!seen[j] && ncc[j] < threshold) {
            seen[j] = 1;
            stack.push(j);
          }
        }
    }
    if (size > best) best = size;
  }
  return best;
}

/** A near-white pixel: the studio background of a catalogue shot (and light enamel or silver, too). */
export function nearWhite(r: number, g: number, b: number): boolean {
  const mx = r > g ? (r > b ? r : b) : g > b ? g : b;
  const mn = r < g ? (r < b ? r : b) : g < b ? g : b;
  return mn > 175 && mx - mn < 30;
}

export const BACKGROUND_STEP = 20; // colour change between neighbouring background pixels of a reference (pinMask)

/** How far `pinMask` erodes the silhouette, in pixels. */
export const PIN_MASK_ERODED = 3;

/**
 * Pin silhouette in a reference image: everything not reachable from the border through near-white
 * background pixels (keeps white enamel enclosed by the metal outline, drops the background between star
 * points, pennant tails etc.), eroded by a few pixels.
 *
 * With `step`, the background grows only between neighbours whose colours differ by at most `step`
 * (summed over R, G, B): the studio background and its soft shadow change smoothly, while the edge of a
 * silver outline does not. Without it, a light silver outline (near-white itself) lets the fill run on into
 * cream or white enamel, and everything printed on that enamel (often the team name) drops out of the comparison:
 * 129 of the 356 public reference images lost part of their face that way. The colour check and the duels
 * use the stepped silhouette; the full-resolution detail check keeps the plain one (see `referenceLayout`).
 */
export function pinMask(img: RawImage, step = 0): Uint8Array {
  const { data, width: W, height: H } = img;
  const n = W * H;
  // 0: near-white, not reached yet; 1: background (near-white, reached from the border); 2: not near-white
  const state = new Uint8Array(n);
  for (let i = 0, j = 0; i < n; i++, j += 3) if (!nearWhite(data[j], data[j + 1], data[j + 2])) state[i] = 2;
  // flood fill from the border; a pixel is marked when it is pushed, so the stack never holds more than n
  // (the set reached does not depend on the order: a neighbour joins by its own colour and the pixel's)
  const stack = new Int32Array(n);
  let top = 0;
  const limit = step > 0 ? step : Infinity;
  const seed = (i: number) => {
    if (state[i] === 0) {
      state[i] = 1;
      stack[top++] = i;
    }
  };
  for (let x = 0; x < W; x++) {
    seed(x);
    seed((H - 1) * W + x);
  }
  for (let y = 0; y < H; y++) {
    seed(y * W);
    seed(y * W + W - 1);
  }
  while (top > 0) {
    const i = stack[--top];
    const x = i % W;
    const a = i * 3;
    // left, right, up, down: each joins when near-white, not reached yet and of a colour close enough
    if (x > 0 && state[i - 1] === 0 && colourStep(data, a, a - 3) <= limit) {
      state[i - 1] = 1;
      stack[top++] = i - 1;
    }
    if (x < W - 1 && state[i + 1] === 0 && colourStep(data, a, a + 3) <= limit) {
      state[i + 1] = 1;
      stack[top++] = i + 1;
    }
    if (i >= W && state[i - W] === 0 && colourStep(data, a, a - 3 * W) <= limit) {
      state[i - W] = 1;
      stack[top++] = i - W;
    }
    if (i < n - W && state[i + W] === 0 && colourStep(data, a, a + 3 * W) <= limit) {
      state[i + W] = 1;
      stack[top++] = i + W;
    }
  }
  // erode the pin by R pixels (distance to background along rows/cols, cheap two-pass box test)
  const R = PIN_MASK_ERODED;
  const pin = new Uint8Array(n);
  for (let y = R; y < H - R; y++)
    for (let x = R, i = y * W + R; x < W - R; x++, i++) {
      if (state[i] === 1 || state[i - R] === 1 || state[i + R] === 1 || state[i - R * W] === 1 || state[i + R * W] === 1) continue;
      pin[i] = 1;
    }
  return pin;
}

/** The mask grown by `r` pixels every way (the (2r+1) x (2r+1) square about each pixel that is set). */
export function dilated(mask: Uint8Array, W: number, H: number, r: number): Uint8Array {
  const rows = new Uint8Array(W * H); // set where a pixel of the mask is within r along the row
  for (let y = 0; y < H; y++) {
    const o = y * W;
    let last = -Infinity; // the last set pixel at or left of x + r
    for (let x = 0; x < W + r; x++) {
      if (x < W && mask[o + x]) last = x;
      const at = x - r;
      if (at >= 0 && at - last <= r) rows[o + at] = 1;
    }
  }
  const out = new Uint8Array(W * H);
  for (let x = 0; x < W; x++) {
    let last = -Infinity;
    for (let y = 0; y < H + r; y++) {
      if (y < H && rows[y * W + x]) last = y;
      const at = y - r;
      if (at >= 0 && at - last <= r) out[at * W + x] = 1;
    }
  }
  return out;
}

/** The colour difference of two RGB pixels (byte offsets a and c), summed over R, G and B. */
function colourStep(data: Uint8Array, a: number, c: number): number {
  return Math.abs(data[a] - data[c]) + Math.abs(data[a + 1] - data[c + 1]) + Math.abs(data[a + 2] - data[c + 2]);
}

// The layout's binary form (stored after the thumbnail in a feature blob): 16-bit little-endian words.
// Glyph count and boxes; part count and, per part, its pivot (in eighths of a pixel) and its region; the
// silhouette; the shape. A mask is stored row by row as its runs of 1: run count, then start and end.

function pushMask(out: number[], mask: Uint8Array, W: number, H: number): void {
  for (let y = 0; y < H; y++) {
    const at = out.length;
    out.push(0);
    const row = y * W;
    for (let x = 0; x < W; ) {
      if (!mask[row + x]) {
        x++;
        continue;
      }
      const start = x;
      while (x < W && mask[row + x]) x++;
      out.push(start, x);
      out[at]++;
    }
  }
}

export function encodeLayout(layout: ReferenceLayout, W: number, H: number): Uint8Array {
  const words: number[] = [layout.glyphs.length];
  for (const g of layout.glyphs) words.push(...g);
  words.push(layout.parts.length);
  for (const p of layout.parts) {
    words.push(Math.round(p.pivot[0] * 8), Math.round(p.pivot[1] * 8));
    pushMask(words, p.region, W, H);
  }
  pushMask(words, layout.pin, W, H);
  pushMask(words, layout.shape, W, H);
  const out = new Uint8Array(words.length * 2);
  const dv = new DataView(out.buffer);
  words.forEach((w, i) => dv.setUint16(i * 2, w, true));
  return out;
}

export function decodeLayout(bytes: Uint8Array, W: number, H: number): ReferenceLayout {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let i = 0;
  const next = () => {
    const v = dv.getUint16(i, true);
    i += 2;
    return v;
  };
  const mask = () => {
    const m = new Uint8Array(W * H);
    for (let y = 0; y < H; y++) for (let k = next(); k > 0; k--) m.fill(1, y * W + next(), y * W + next());
    return m;
  };
  const glyphs: number[][] = [];
  for (let k = next(); k > 0; k--) glyphs.push([next(), next(), next(), next()]);
  const parts: HangingPart[] = [];
  for (let k = next(); k > 0; k--) {
    const pivot: [number, number] = [next() / 8, next() / 8];
    parts.push({ pivot, region: mask() });
  }
  const pin = mask();
  return { glyphs, parts, pin, shape: mask() };
}
