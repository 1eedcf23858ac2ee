/**
 * The motion-blur estimate's mean power spectrum with its windowing and power sums in plain
 * JavaScript, in doubles (the halved photo is the engine's own): the unit test holds the engine's
 * spectrum, windowed and summed by OpenCV in floats, close to this.
 */
import { halvedWindows } from '~/services/identification/blur.server';
import type { CV } from '~/services/identification/opencv.server';

const WIN = 128;

export function javascriptPowerSpectrum(cv: CV, gray: Uint8Array, width: number, height: number): { power: Float64Array; count: number } | null {
  const w = width >> 1, h = height >> 1;
  if (w < WIN || h < WIN) return null;
  const N = WIN, NN = N * N;
  const h1 = new Float32Array(N);
  for (let i = 0; i < N; i++) h1[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (N - 1));
  const hann = new Float32Array(NN);
  for (let y = 0; y < N; y++) for (let x = 0; x < N; x++) hann[y * N + x] = h1[y] * h1[x];
  const half = new Float32Array(w * h);
  const windows = halvedWindows(gray, width, height, half); // unchanged: the windows' arithmetic is compared
  const power = new Float64Array(NN);
  const patch = new cv.Mat(N, N, cv.CV_32F);
  const spec = new cv.Mat();
  try {
    for (const { x0, y0, mean } of windows) {
      const p = patch.data32F as Float32Array;
      for (let y = 0; y < N; y++) {
        const row = (y0 + y) * w + x0;
        for (let x = 0; x < N; x++) p[y * N + x] = (half[row + x] - mean) * hann[y * N + x];
      }
      cv.dft(patch, spec, cv.DFT_COMPLEX_OUTPUT);
      const s = spec.data32F as Float32Array;
      for (let i = 0, end = (N / 2 + 1) * N; i < end; i++) power[i] += s[2 * i] * s[2 * i] + s[2 * i + 1] * s[2 * i + 1];
    }
  } finally {
    patch.delete();
    spec.delete();
  }
  for (let y = N / 2 + 1; y < N; y++) for (let x = 0; x < N; x++) power[y * N + x] = power[(N - y) * N + ((N - x) % N)];
  return { power, count: windows.length };
}
