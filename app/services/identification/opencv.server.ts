// Lazy, shared initialisation of the OpenCV WASM build (@opencvjs/node: OpenCV 4.13 compiled for
// Node.js with -O3 by a current Emscripten). It replaced the @techstark/opencv-js 4.12 build: the same
// stored features and the same answers on the benchmark, ORB about 43 -> 35 ms per photo at the median.
// Loaded through require: the package is CommonJS, and its loader is a plain function that returns
// a promise of the module (the module itself is not "thenable", so awaiting it settles).
import { createRequire } from "node:module";
import type { OpenCV } from "@opencvjs/node";

export type CV = typeof OpenCV;

let cvPromise: Promise<CV> | null = null;

/** Returns the initialised OpenCV module; the WASM runtime is started once, on first use. */
export function getCV(): Promise<CV> {
  if (!cvPromise) {
    const { loadOpenCV } = createRequire(import.meta.url)("@opencvjs/node") as { loadOpenCV: () => Promise<CV> };
    cvPromise = loadOpenCV();
  }
  return cvPromise;
}

/** Feature2D's `detect` and `compute`: OpenCV's build binds them, but its types leave them out. */
export interface Feature2DCalls {
  detect(image: unknown, keypoints: unknown, mask: unknown): void;
  compute(image: unknown, keypoints: unknown, descriptors: unknown): void;
}
