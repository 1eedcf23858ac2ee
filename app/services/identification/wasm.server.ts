// The memories of the engine's WebAssembly kernels (hamming.wat, pixels.wat, ncc.wat, ransac.wat,
// brief.wat, words.wat). Each is shared (a SharedArrayBuffer): growing it leaves the views already
// made valid and detaches no buffer.
// Detaching one, as growing an unshared memory does, makes V8 check every typed array access of the
// thread from then on (the vocabulary's build at 5,000 pins took 8 s longer so).

export const WASM_PAGE = 65536;
/** The most a kernel's memory may grow to (4 GiB, WebAssembly's limit): only reserved, not used. */
const MAX_PAGES = 65536;

/** A shared memory of `initialPages` pages for a kernel. */
export function kernelMemory(initialPages: number): WebAssembly.Memory {
  return new WebAssembly.Memory({ initial: initialPages, maximum: MAX_PAGES, shared: true });
}

/** Grows the memory, when needed, to hold at least `bytes`. */
export function reserve(memory: WebAssembly.Memory, bytes: number): void {
  const have = memory.buffer.byteLength;
  if (bytes > have) memory.grow(Math.ceil((bytes - have) / WASM_PAGE));
}

/** An instance of a compiled kernel working in `memory` (imported as env.memory), its exports typed `T`. */
export function instantiate<T>(module: WebAssembly.Module, memory: WebAssembly.Memory): T {
  return new WebAssembly.Instance(module, { env: { memory } }).exports as unknown as T;
}

/**
 * A kernel made once a thread, on first use: `get(bytes)` returns its instance (compiled from the
 * base64 bytes, in a memory of its own of `initialPages` to start with, given `imports` beside that
 * memory) with at least `bytes` of its memory, where each call lays its data out from the first byte.
 */
export function threadKernel<T>(base64: string, initialPages: number, imports: Record<string, unknown> = {}): (bytes: number) => { memory: WebAssembly.Memory; exports: T } {
  let kernel: { memory: WebAssembly.Memory; exports: T } | null = null;
  return (bytes) => {
    if (!kernel) {
      const memory = kernelMemory(initialPages);
      const module = new WebAssembly.Module(Buffer.from(base64, "base64"));
      kernel = { memory, exports: new WebAssembly.Instance(module, { env: { memory, ...imports } }).exports as unknown as T };
    }
    reserve(kernel.memory, bytes);
    return kernel;
  };
}
