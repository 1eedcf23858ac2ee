/**
 * The engine's random draws (RANSAC samples, the vocabulary's sample) come from mulberry32 with a
 * fixed seed, so that a photo always gets the same answer. The generator is also spelled as a state
 * and two functions (`mulberry32Step`, `mulberry32Value`) for hot loops: both must give the sequence
 * the answers were fitted with.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32, mulberry32Step, mulberry32Value } from '~/utils/random';

describe('mulberry32', () => {
  it('gives the sequence it always gave', () => {
    const rnd = mulberry32(0x5eed);
    expect([rnd(), rnd(), rnd()]).toEqual([0.7100320369936526, 0.286336648510769, 0.9519026265479624]);
    const other = mulberry32(12345);
    let last = 0;
    for (let i = 0; i < 1000; i++) last = other();
    expect(last).toBe(0.47708073002286255);
  });

  it('spelled as a state stepped in a loop, gives the same draws', () => {
    for (const seed of [0, 1, 0x5eed, 12345, 0x7fffffff, 0xffffffff]) {
      const rnd = mulberry32(seed);
      let state = seed >>> 0;
      for (let i = 0; i < 10000; i++) {
        state = mulberry32Step(state);
        expect(mulberry32Value(state)).toBe(rnd());
      }
    }
  });
});
