// Lazy, shared initialisation of the OpenCV WASM build (@opencvjs/node: OpenCV 4.13 compiled for
// Node.js with -O3 by a current Emscripten). It replaced the @techstark/opencv-js 4.12 build: the same
// stored features and the same answers on the benchmark, ORB about 43 -> 35 ms per photo at the median.
// Loaded through require: the package is CommonJS, and its loader is a plain function that returns
// a promise of the module (the module itself is not "thenable", so awaiting it settles).
//
// It is loaded lean. The package ships its WebAssembly inside its JavaScript, as an 11 MB base64
// string, and V8 keeps that text twice in every thread that loads it (the script's source, and the
// string literal): about 22 MB of heap in the main thread and in the worker. `splitOpenCV` cuts the
// binary out of the text before it is compiled: the glue left (135 KB) is compiled alone and the
// binary, decoded once, is instantiated through the module's `instantiateWasm` hook and not kept.
// The same code runs, and the answers are the same. A file laid out otherwise (no embedded binary)
// is loaded by the package's own loader. Those 22 MB a thread also counted as live heap when V8
// sized the room it leaves before its next full collection (`--heap-growing-percent`,
// `app/cli/server-flags.js`): without them the server collected more often and photos took 10-13 ms
// longer, until the flag gave that room back. With both, the server peaks about 40-50 MB lower at
// about the same CPU a photo (app/services/identification/README.md, "Threads and memory").
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { compileFunction } from "node:vm";
import type { OpenCV } from "@opencvjs/node";

export type CV = typeof OpenCV;

type Factory = (options: {
  instantiateWasm: (imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) => object;
}) => Promise<CV>;

const EMBEDDED = Buffer.from('"data:application/octet-stream;base64,');
const WASM_MAGIC_BASE64 = Buffer.from("AGFzbQ"); // "\0asm", the first bytes of any WebAssembly binary

/**
 * The package's file cut in two: its WebAssembly binary (decoded from the base64 string it embeds)
 * and the JavaScript around it, with an empty string in place of the binary's. Null when the file
 * holds no such string.
 */
export function splitOpenCV(file: Buffer): { wasm: Buffer; glue: string } | null {
  const at = file.indexOf(Buffer.concat([EMBEDDED, WASM_MAGIC_BASE64]));
  const end = at < 0 ? -1 : file.indexOf(0x22, at + EMBEDDED.length); // the closing quote
  if (end < 0) return null;
  const wasm = Buffer.from(file.subarray(at + EMBEDDED.length, end).toString("latin1"), "base64");
  // a new flat string: nothing of the 11 MB text stays reachable from the compiled glue
  const glue = Buffer.concat([file.subarray(0, at), Buffer.from('""'), file.subarray(end + 1)]).toString("latin1");
  return { wasm, glue };
}

/** OpenCV from the package's file split by `splitOpenCV`; null when the file cannot be split. */
function loadSplit(require: NodeRequire): Promise<CV> | null {
  const path = require.resolve("@opencvjs/node/lib/opencv_js.js");
  const parts = splitOpenCV(readFileSync(path));
  if (!parts) return null;
  // the glue is a CommonJS module that exports the module's factory
  const run = compileFunction(parts.glue, ["exports", "require", "module", "__filename", "__dirname"], { filename: path });
  const module = { exports: {} as unknown };
  run(module.exports, createRequire(path), module, path, dirname(path));
  let wasm: Buffer | null = parts.wasm;
  let fail: (error: unknown) => void = () => undefined;
  const failed = new Promise<never>((_, reject) => (fail = reject));
  const ready = (module.exports as Factory)({
    instantiateWasm(imports, done) {
      const bytes = wasm as Buffer as BufferSource; // a Buffer's bytes (its type names no ArrayBuffer kind)
      wasm = null; // instantiated once: the 8.5 MB go with the promise
      WebAssembly.instantiate(bytes, imports).then(({ instance, module: compiled }) => done(instance, compiled), fail);
      return {}; // instantiated asynchronously: the module waits for `done`
    },
  });
  // the module's own promise would wait for ever on a binary that does not instantiate
  return Promise.race([ready, failed]);
}

/** How this thread's OpenCV was loaded: "split" (`splitOpenCV`) or "package" (its own loader, for a file that cannot be split). */
export let openCVLoading: "split" | "package" | null = null;

let cvPromise: Promise<CV> | null = null;

/** Returns the initialised OpenCV module; the WASM runtime is started once, on first use. */
export function getCV(): Promise<CV> {
  if (!cvPromise) {
    const require = createRequire(import.meta.url);
    const split = loadSplit(require);
    openCVLoading = split ? "split" : "package";
    cvPromise = split ?? (require("@opencvjs/node") as { loadOpenCV: () => Promise<CV> }).loadOpenCV();
  }
  return cvPromise;
}

/** Feature2D's `detect` and `compute`: OpenCV's build binds them, but its types leave them out. */
export interface Feature2DCalls {
  detect(image: unknown, keypoints: unknown, mask: unknown): void;
  compute(image: unknown, keypoints: unknown, descriptors: unknown): void;
}
