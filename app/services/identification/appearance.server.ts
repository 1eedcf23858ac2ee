// A pin's appearance as a whole: a small convolutional network trained on pins
// (`tests/bench/train-appearance.py`, on the public benchmark set only) turns a 64 px square around a
// pin into 128 numbers, such that two pictures of one pin lie close and pictures of two pins apart.
// ORB needs a pin's corners at a scale the references have; a small, soft or blurred pin has too few,
// and the engine never weighs it. Its whole shape, colours and art still show, and this finds it.
// Each reference's vector is computed once, at extraction (`referenceAppearance`). A photo that no
// pin was named for is looked at in windows of 64 px at a few scales (`photoAppearance`), and the
// pins whose vectors come closest to a window's are suggested beside the engine's (`engine.server.ts`).
// It names no pin: the lettering, which tells the pins of a family apart, is not seen at 64 px.
// onnxruntime-node is loaded on first use (the detail worker never loads it), two threads.
import { existsSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import type { InferenceSession, Tensor } from "onnxruntime-node";
import type { CV } from "./opencv.server";
import type { RawImage } from "./raw-image";

/** the network's input side */
export const APPEARANCE_SIDE = 64;
/** length of a vector */
export const APPEARANCE_DIM = 128;
/** a reference's square: its pin's box, this many times its longer side, on white */
const REF_MARGIN = 1.3;
/** the photo's windows: sides as shares of the photo's shorter side, and their step as a share of a side */
export const WINDOW_SCALES = [0.3, 0.4, 0.53, 0.7, 0.93];
export const WINDOW_STEP = 0.4;
/** windows run through the network at once: the arena keeps one batch's buffers (9 MB at 16, 34 at 64) */
const BATCH = 16;

type Ort = typeof import("onnxruntime-node");
let session: Promise<{ ort: Ort; s: InferenceSession }> | null = null;
let unavailable = false;

/** The network's file: beside this module, or (from the server's bundle in build/) in the app's sources. */
function modelPath(): URL {
  const here = new URL("./pin-appearance.onnx", import.meta.url);
  return existsSync(here) ? here : new URL("../app/services/identification/pin-appearance.onnx", import.meta.url);
}

function load(): Promise<{ ort: Ort; s: InferenceSession }> {
  session ??= (async () => {
    const mod = await import("onnxruntime-node");
    const ort = (mod as { default?: Ort }).default ?? mod;
    const s = await ort.InferenceSession.create(readFileSync(modelPath()), {
      // a no-match photo's windows on both cores (the engine's other threads are idle by then): 4 ms
      // less; its helper thread sleeps between runs rather than spinning, which would take a core
      intraOpNumThreads: Math.min(2, availableParallelism()),
      extra: { session: { intra_op: { allow_spinning: "0" } } },
      interOpNumThreads: 1,
      executionMode: "sequential",
      graphOptimizationLevel: "all",
      // an arena, which keeps one batch's buffers: without it, with the README's glibc settings for a
      // large catalogue, each buffer is a fresh mapping and a photo's windows took 46 ms instead of 17
      enableCpuMemArena: true,
    });
    return { ort, s };
  })();
  return session;
}

/** Whether the network could be loaded; without it no appearance is compared (said once). */
async function usable(): Promise<boolean> {
  if (unavailable) return false;
  try {
    await load();
    return true;
  } catch (error) {
    unavailable = true;
    console.warn(`[identify] pins are not compared by appearance: ${error instanceof Error ? error.message : String(error)}`);
    return false;
  }
}

/** Loads the network ahead of the first photo. */
export async function warmAppearance(): Promise<void> {
  await usable();
}

/** The vectors of n squares of 64 x 64 RGB pixels, one after another (the network reads B, G, R planes, as trained). */
async function embed(squares: Uint8Array[]): Promise<Float32Array> {
  const { ort, s } = await load();
  const out = new Float32Array(squares.length * APPEARANCE_DIM);
  const plane = APPEARANCE_SIDE * APPEARANCE_SIDE;
  for (let at = 0; at < squares.length; at += BATCH) {
    const part = squares.slice(at, at + BATCH);
    const input = new Float32Array(part.length * 3 * plane);
    part.forEach((sq, k) => {
      const base = k * 3 * plane;
      for (let i = 0; i < plane; i++) {
        input[base + i] = sq[i * 3 + 2];
        input[base + plane + i] = sq[i * 3 + 1];
        input[base + 2 * plane + i] = sq[i * 3];
      }
    });
    const res = await s.run({ [s.inputNames[0]]: new ort.Tensor("float32", input, [part.length, 3, APPEARANCE_SIDE, APPEARANCE_SIDE]) });
    out.set((res[s.outputNames[0]] as Tensor).data as Float32Array, at * APPEARANCE_DIM);
  }
  return out;
}

/** `img` in an OpenCV Mat, for `resized`; the caller deletes it. */
function toMat(cv: CV, img: RawImage): InstanceType<CV["Mat"]> {
  const src = new cv.Mat(img.height, img.width, cv.CV_8UC3);
  src.data.set(img.data.subarray(0, img.width * img.height * 3));
  return src;
}

/** `src` resized by OpenCV's INTER_AREA (INTER_LINEAR when enlarging) to w x h. */
function resized(cv: CV, src: InstanceType<CV["Mat"]>, w: number, h: number): RawImage {
  const dst = new cv.Mat();
  try {
    const enlarging = w > src.cols || h > src.rows;
    cv.resize(src, dst, new cv.Size(w, h), 0, 0, enlarging ? cv.INTER_LINEAR : cv.INTER_AREA);
    return { data: new Uint8Array(dst.data), width: w, height: h };
  } finally {
    dst.delete();
  }
}

/** The w x h part of `img` from (x0, y0); pixels outside are `fill` or, without it, the nearest edge's. */
function part(img: RawImage, x0: number, y0: number, w: number, h: number, fill?: number): Uint8Array {
  const out = new Uint8Array(w * h * 3);
  const { data, width, height } = img;
  for (let y = 0; y < h; y++) {
    const sy = y0 + y;
    for (let x = 0; x < w; x++) {
      const sx = x0 + x;
      const o = (y * w + x) * 3;
      if (fill !== undefined && (sx < 0 || sy < 0 || sx >= width || sy >= height)) {
        out[o] = out[o + 1] = out[o + 2] = fill;
        continue;
      }
      const j = ((Math.min(height - 1, Math.max(0, sy)) * width) + Math.min(width - 1, Math.max(0, sx))) * 3;
      out[o] = data[j];
      out[o + 1] = data[j + 1];
      out[o + 2] = data[j + 2];
    }
  }
  return out;
}

/** The box of a reference's pin: the bounds of its outline (`pinHull`'s points). */
function hullBox(hull: Float32Array): { x: number; y: number; w: number; h: number } {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let i = 0; i < hull.length; i += 2) {
    x0 = Math.min(x0, hull[i]);
    x1 = Math.max(x1, hull[i]);
    y0 = Math.min(y0, hull[i + 1]);
    y1 = Math.max(y1, hull[i + 1]);
  }
  return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
}

/** The 64 px square the network reads of a reference on white: its pin's box, 1.3 times its longer side. */
function referenceSquare(cv: CV, img: RawImage, hull: Float32Array): Uint8Array {
  const b = hullBox(hull);
  const side = Math.max(b.w, b.h) * REF_MARGIN;
  const n = Math.max(2, Math.round(side));
  const cut = toMat(cv, { data: part(img, Math.round(b.x + b.w / 2 - side / 2), Math.round(b.y + b.h / 2 - side / 2), n, n, 255), width: n, height: n });
  try {
    return resized(cv, cut, APPEARANCE_SIDE, APPEARANCE_SIDE).data;
  } finally {
    cut.delete();
  }
}

/** A reference's vector; null when the network cannot be loaded. */
export async function referenceAppearance(cv: CV, img: RawImage, hull: Float32Array): Promise<Float32Array | null> {
  if (!(await usable())) return null;
  return embed([referenceSquare(cv, img, hull)]);
}

/** The photo's 64 px windows: for each scale, the photo resized so that a window is 64 px, cut on a grid. */
export function photoWindows(cv: CV, img: RawImage, scales = WINDOW_SCALES, step = WINDOW_STEP): Uint8Array[] {
  const S = APPEARANCE_SIDE;
  const short = Math.min(img.width, img.height);
  const out: Uint8Array[] = [];
  // the photo first shrunk by a whole factor that every scale shrinks it by at least: OpenCV's
  // INTER_AREA is 3-4 times faster by a whole factor, and each scale then resizes a small image
  const shrink = Math.max(1, Math.floor((Math.min(...scales) * short) / S));
  const full = toMat(cv, img);
  const whole = full.roi(new cv.Rect(0, 0, img.width - (img.width % shrink), img.height - (img.height % shrink)));
  const src = new cv.Mat();
  try {
    cv.resize(whole, src, new cv.Size(whole.cols / shrink, whole.rows / shrink), 0, 0, cv.INTER_AREA);
    for (const sc of scales) {
      const f = S / (sc * short);
      let r = resized(cv, src, Math.max(1, Math.round(img.width * f)), Math.max(1, Math.round(img.height * f)));
      const px = Math.max(0, S - r.width), py = Math.max(0, S - r.height);
      // a window wider than the photo: the photo in its middle, its edge pixels repeated about it
      if (px || py) r = { data: part(r, -Math.floor(px / 2), -Math.floor(py / 2), r.width + px, r.height + py), width: r.width + px, height: r.height + py };
      const st = S * step;
      const grid = (L: number) => {
        const n = Math.floor((L - S) / st + 1e-9) + 1;
        const a = (L - S - (n - 1) * st) / 2;
        return Array.from({ length: n }, (_, k) => Math.round(a + k * st));
      };
      const row = r.width * 3;
      for (const y of grid(r.height)) {
        for (const x of grid(r.width)) {
          const w = new Uint8Array(S * S * 3);
          for (let k = 0; k < S; k++) w.set(r.data.subarray((y + k) * row + x * 3, (y + k) * row + (x + S) * 3), k * S * 3);
          out.push(w);
        }
      }
    }
  } finally {
    full.delete();
    whole.delete();
    src.delete();
  }
  return out;
}

/** The vectors of a photo's windows, one after another (128 numbers each); empty when the network cannot be loaded. */
export async function photoAppearance(cv: CV, img: RawImage): Promise<Float32Array> {
  if (!(await usable())) return new Float32Array(0);
  return embed(photoWindows(cv, img));
}

// An ONNX graph of three operations: the references' vectors (m x 128) transposed, multiplied by the
// windows' (n x 128), and the largest of each column: how close any window comes to each reference
// (cosine similarity: the vectors have length 1). onnxruntime's matrix product takes about a tenth of
// the time of a loop in JavaScript at 5,000 references. Written by tests/bench/train-appearance.py.
const CLOSEST_GRAPH =
  "CAgSBnBpbmRleDrhAQoqCgpyZWZlcmVuY2VzEgJydCIJVHJhbnNwb3NlKg0KBHBlcm1AAUAAoAEHChsKB3dpbmRvd3MKAnJ0EgRzaW1zIgZNYXRNdWwKOAoEc2ltcxIHY2xvc2VzdCIJUmVkdWNlTWF4KgsKBGF4ZXNAAKABByoPCghrZWVwZGltcxgAoAECEgdjbG9zZXN0WhsKB3dpbmRvd3MSEAoOCAESCgoDEgFuCgMIgAFaHgoKcmVmZXJlbmNlcxIQCg4IARIKCgMSAW0KAwiAAWIWCgdjbG9zZXN0EgsKCQgBEgUKAxIBbUIECgAQDQ==";
let closestSession: Promise<InferenceSession> | null = null;

/** For each of m references (their vectors one after another), the closest any of the windows comes. */
export async function closestWindows(windows: Float32Array, references: Float32Array): Promise<Float32Array> {
  const n = windows.length / APPEARANCE_DIM, m = references.length / APPEARANCE_DIM;
  if (n === 0 || m === 0) return new Float32Array(m).fill(-1);
  const { ort } = await load();
  closestSession ??= ort.InferenceSession.create(Buffer.from(CLOSEST_GRAPH, "base64"), { intraOpNumThreads: 1, interOpNumThreads: 1, enableCpuMemArena: false });
  const s = await closestSession;
  const out = await s.run({
    windows: new ort.Tensor("float32", windows, [n, APPEARANCE_DIM]),
    references: new ort.Tensor("float32", references, [m, APPEARANCE_DIM]),
  });
  return (out.closest as Tensor).data as Float32Array;
}
