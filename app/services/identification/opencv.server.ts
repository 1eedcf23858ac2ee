// Lazy, shared initialisation of the OpenCV WASM build (@techstark/opencv-js).
// Loaded through require: the package is CommonJS, and importing it as an ES namespace makes some
// loaders (Vitest's) wait on the Emscripten module's own `then`, which never settles.
import { createRequire } from "node:module";
import type * as CvTypes from "@techstark/opencv-js";

export type CV = typeof CvTypes;

let cvPromise: Promise<CV> | null = null;

/** Returns the initialised OpenCV module; the WASM runtime is started once, on first use. */
export function getCV(): Promise<CV> {
  if (!cvPromise) {
    cvPromise = new Promise<CV>((resolve) => {
      const loaded = createRequire(import.meta.url)("@techstark/opencv-js") as { default?: unknown };
      const m = (loaded.default ?? loaded) as CV & { onRuntimeInitialized?: () => void; Mat?: unknown; then?: unknown };
      // The Emscripten module is "thenable" and resolves to itself; awaiting it directly never settles,
      // so wait for the runtime callback and drop `then` before handing the module out.
      const done = () => {
        try {
          delete m.then;
        } catch {
          /* ignore */
        }
        resolve(m as CV);
      };
      if (typeof m.Mat === "function") done();
      else m.onRuntimeInitialized = done;
    });
  }
  return cvPromise;
}
