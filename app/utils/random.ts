/** mulberry32: a small, fast, deterministic PRNG (same seed, same sequence) returning [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = mulberry32Step(a);
    return mulberry32Value(a);
  };
}

/**
 * mulberry32's generator spelled as its state (a 32-bit integer, the seed's `>>> 0` to start with),
 * the next state, and the value a state gives: the same sequence as `mulberry32`, for a hot loop that
 * keeps the state in a local variable. A number that a closure returns, or keeps above 2^31, is
 * stored boxed, one small allocation per draw; these two inline into their caller.
 */
export function mulberry32Step(state: number): number {
  return (state + 0x6d2b79f5) >>> 0;
}

export function mulberry32Value(state: number): number {
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
