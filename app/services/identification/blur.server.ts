// Motion blur of a photo: found from its spectrum, and undone for the photo's features.
//
// A phone that moves while the shutter is open smears the photo along a line: the photo is the sharp
// scene convolved with a segment of length L at an angle. ORB then finds few corners on the pin (a
// corner smeared along a line is an edge): on the public set, 18 of the 33 photos whose pin never
// reached the answer's candidates were smeared. The segment leaves a clear mark on the spectrum: its transform is a
// sinc along the motion, zero at every multiple of 1/L cycles per pixel, so the log power spectrum
// has parallel dark stripes 1/L apart, and its cepstrum (the transform of the log spectrum) a deep
// minimum at distance L in the direction of the motion. This is the classical cepstral estimate of
// motion blur (Cannon, 1976); the segment found is then undone by a Wiener filter (OpenCV's DFT) on the
// grayscale the features are found on. The colour and detail checks still compare the photo as it was
// taken: their thresholds were fitted on photos as they are, and a deconvolved photo carries ringing.
import type { CV } from "./opencv.server";
/** A straight motion blur: the segment's direction in degrees (image axes, y down) and its length in pixels. */
export interface MotionBlur {
  angle: number;
  length: number;
  /**
   * The cepstral minimum stands out by less than CEPS_Z, though by more than CEPS_Z_POSSIBLE: a
   * possible blur, undone only when the photo as taken finds no pin strongly (engine.server.ts)
   */
  possible?: boolean;
}

/** Spectrum windows (on the photo halved) and their step: half a window, so that a window is 2 x 2 blocks of STEP. */
const WIN = 128;
const STEP = WIN / 2;
/** Cepstral minimum searched between these distances (pixels of the halved photo). */
const CEPS_MIN = 1.5;
const CEPS_MAX = 22.5;
/** A blur is taken for one when all three hold (fitted on the public set: 80 of its 118 smeared photos pass, 1 of its 582 sharp ones):
 * the cepstral minimum stands out (robust z below), the power along the motion is lower than across
 * it (mean log power, natural log), and the log spectrum dips at 1/L and 2/L along the motion more than
 * across it. Textures and lettering make cepstral minima of their own, but seldom all three. */
const CEPS_Z = -6;
const ANISOTROPY = 0.5;
const DIP = 1;
/**
 * A possible blur (`MotionBlur.possible`): its cepstral minimum stands out less than CEPS_Z asks, by
 * more than this. Noise and low light flatten a smear's cepstrum: at CEPS_Z the tests find 92 of the
 * validation set's 154 photos smeared by 4 px or more, at -5 102 and at -4 111, but they then take
 * 5 and 10 of the public set's 582 sharp photos for smeared instead of 1, and undoing a blur that is
 * not there loses a sharp photo's pin (2 of those 5). So a possible blur is undone only when the photo
 * as taken finds no pin strongly (engine.server.ts, `deblurPossible`). The other two tests keep
 * their bars: a weaker anisotropy bar takes a striped lanyard for a smear.
 */
const CEPS_Z_POSSIBLE = -4;
/** When the stripes of a segment half as long as the cepstral minimum's distance dip this many times as deep, it is that one. */
const HARMONIC = 2;
/** Shortest blur worth undoing (pixels of the photo). */
const MIN_LENGTH = 3;
/** The cepstral distance overestimates the segment (about 1.1x on the public set); the filter undoes 0.9 of it. */
const LENGTH_SCALE = 0.9;
/** Wiener filter's noise-to-signal ratio. */
const WIENER_K = 0.01;

/** Tables of the N x N spectrum, made once: the Hann window, and each frequency bin's signed offsets, radius and angle. */
interface Tables {
  hann: Float32Array;
  /** bins of the cepstral search (off the axes, between CEPS_MIN and CEPS_MAX) */
  ring: Int32Array;
  /** bins of the anisotropy band, and the angle (degrees, 0..180) of each */
  band: Int32Array;
  bandAngle: Float32Array;
}
let tables: Tables | null = null;
const signed = (i: number) => (i > WIN / 2 ? i - WIN : i);
function spectrumTables(): Tables {
  if (tables) return tables;
  const N = WIN;
  const h = new Float32Array(N);
  for (let i = 0; i < N; i++) h[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (N - 1));
  const hann = new Float32Array(N * N);
  const ring: number[] = [], band: number[] = [], bandAngle: number[] = [];
  for (let yi = 0; yi < N; yi++) {
    for (let xi = 0; xi < N; xi++) {
      hann[yi * N + xi] = h[yi] * h[xi];
      const x = signed(xi), y = signed(yi), r = Math.hypot(x, y);
      if (r >= CEPS_MIN && r <= CEPS_MAX && Math.abs(x) > 1 && Math.abs(y) > 1) ring.push(yi * N + xi);
      if (r >= (10 * N) / 256 && r <= (110 * N) / 256) {
        band.push(yi * N + xi);
        bandAngle.push(degrees(Math.atan2(y, x)));
      }
    }
  }
  tables = { hann, ring: Int32Array.from(ring), band: Int32Array.from(band), bandAngle: Float32Array.from(bandAngle) };
  return tables;
}

/** An angle in degrees, folded into 0..180 (a direction, not an orientation). */
const degrees = (rad: number) => ((((rad * 180) / Math.PI) % 180) + 180) % 180;

const median = (v: Float32Array): number => {
  const s = Float32Array.from(v).sort();
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
};

/**
 * The photo halved (2 x 2 means) into `half` ((width >> 1) x (height >> 1) floats), and its
 * overlapping 128 px windows, STEP apart, row by row: each one's top left and mean. The means come
 * from the sums of STEP x STEP blocks, four to a window (the values are quarters below 256: every
 * sum is exact, in any order).
 */
export function halvedWindows(gray: Uint8Array, width: number, height: number, half: Float32Array): { x0: number; y0: number; mean: number }[] {
  const w = width >> 1, h = height >> 1;
  const bw = Math.floor(w / STEP), bh = Math.floor(h / STEP);
  const blocks = new Float64Array(bw * bh);
  for (let y = 0; y < h; y++) {
    const r0 = 2 * y * width, r1 = r0 + width;
    for (let x = 0; x < w; x++) half[y * w + x] = (gray[r0 + 2 * x] + gray[r0 + 2 * x + 1] + gray[r1 + 2 * x] + gray[r1 + 2 * x + 1]) * 0.25;
    if (y >= bh * STEP) continue;
    const row = Math.floor(y / STEP) * bw;
    for (let b = 0; b < bw; b++) {
      let sum = 0;
      for (let x = b * STEP, end = x + STEP; x < end; x++) sum += half[y * w + x];
      blocks[row + b] += sum;
    }
  }
  const windows: { x0: number; y0: number; mean: number }[] = [];
  for (let y0 = 0; y0 + WIN <= h; y0 += STEP)
    for (let x0 = 0; x0 + WIN <= w; x0 += STEP) {
      const b = (y0 / STEP) * bw + x0 / STEP;
      windows.push({ x0, y0, mean: (blocks[b] + blocks[b + 1] + blocks[b + bw] + blocks[b + bw + 1]) / (WIN * WIN) });
    }
  return windows;
}

/**
 * The mean power spectrum of a grayscale photo, halved (2 x 2 means), over its overlapping 128 px
 * windows (STEP apart), each less its mean and times the Hann window: N x N values, unshifted, and
 * how many windows; null when the halved photo is smaller than a window. OpenCV windows (`multiply`),
 * transforms (`dft`) and sums the powers.
 */
export function powerSpectrum(cv: CV, gray: Uint8Array, width: number, height: number): { power: Float64Array; count: number } | null {
  const w = width >> 1, h = height >> 1;
  if (w < WIN || h < WIN) return null;
  const N = WIN, NN = N * N;
  const half = new cv.Mat(h, w, cv.CV_32F);
  const hann = new cv.Mat();
  const windowed = new cv.Mat();
  const spec = new cv.Mat();
  const squares = new cv.Mat();
  const sum = new cv.Mat(N, N, cv.CV_32FC2, new cv.Scalar(0, 0, 0, 0));
  try {
    // a view of OpenCV's memory, filled before its next allocation
    const windows = halvedWindows(gray, width, height, half.data32F as Float32Array);
    hann.create(N, N, cv.CV_32F);
    (hann.data32F as Float32Array).set(spectrumTables().hann);
    for (const { x0, y0, mean } of windows) {
      const roi = half.roi(new cv.Rect(x0, y0, N, N));
      try {
        roi.convertTo(windowed, cv.CV_32F, 1, -mean);
      } finally {
        roi.delete();
      }
      cv.multiply(windowed, hann, windowed);
      cv.dft(windowed, spec, cv.DFT_COMPLEX_OUTPUT);
      // re * re and im * im, summed over the windows; the two are added below
      cv.multiply(spec, spec, squares);
      cv.add(sum, squares, sum);
    }
    const s = sum.data32F as Float32Array;
    const power = new Float64Array(NN);
    for (let i = 0; i < NN; i++) power[i] = s[2 * i] + s[2 * i + 1];
    return { power, count: windows.length };
  } finally {
    for (const m of [half, hann, windowed, spec, squares, sum]) m.delete();
  }
}

/**
 * The straight motion blur of a grayscale photo, or null when it shows none (or too little to undo).
 * Measured on the photo halved: the log of its mean power spectrum (`powerSpectrum`), its cepstrum,
 * and the three tests above.
 */
export function estimateMotionBlur(cv: CV, gray: Uint8Array, width: number, height: number): MotionBlur | null {
  const spectrum = powerSpectrum(cv, gray, width, height);
  if (!spectrum) return null;
  const { power, count } = spectrum;
  const N = WIN, NN = N * N;
  const logPower = new Float32Array(NN);
  for (let i = 0; i < NN; i++) logPower[i] = Math.log(power[i] / count + 1e-2);
  const patch = new cv.Mat(N, N, cv.CV_32F);
  const spec = new cv.Mat();
  try {
    (patch.data32F as Float32Array).set(logPower);
    // the cepstrum: the log spectrum is real and even, so its forward transform's real part is its
    // inverse transform (times N^2, which no test below depends on)
    cv.dft(patch, spec, cv.DFT_COMPLEX_OUTPUT);
    const s = spec.data32F as Float32Array;
    const ceps = new Float32Array(NN);
    for (let i = 0; i < NN; i++) ceps[i] = s[2 * i];
    return judge(logPower, ceps);
  } finally {
    patch.delete();
    spec.delete();
  }
}

/** The three tests on a log power spectrum and its cepstrum (both N x N, unshifted). */
function judge(logPower: Float32Array, ceps: Float32Array): MotionBlur | null {
  const N = WIN;
  const { ring, band, bandAngle } = spectrumTables();
  // the cepstrum's deepest minimum off the axes (a JPEG's 8 x 8 blocks and the photo's edges mark the axes)
  const vals = new Float32Array(ring.length);
  let best = Infinity, at = 0;
  for (let k = 0; k < ring.length; k++) {
    const c = (vals[k] = ceps[ring[k]]);
    if (c < best) [best, at] = [c, ring[k]];
  }
  const med = median(vals);
  const mad = median(vals.map((v) => Math.abs(v - med))) * 1.4826 + 1e-9;
  const z = (best - med) / mad;
  if (z >= CEPS_Z_POSSIBLE) return null;
  const bx = signed(at % N), by = signed(Math.floor(at / N));
  const angle = degrees(Math.atan2(by, bx));
  const len = Math.hypot(bx, by); // pixels of the halved photo
  if (2 * len < MIN_LENGTH) return null;
  // anisotropy: mean log power within 10 degrees of the motion (frequency direction) against across it
  const sector = (dir: number) => {
    let sum = 0, n = 0;
    for (let k = 0; k < band.length; k++) {
      if (Math.abs(((((bandAngle[k] - dir + 90) % 180) + 180) % 180) - 90) >= 10) continue;
      sum += logPower[band[k]];
      n++;
    }
    return n ? sum / n : 0;
  };
  if (sector(angle + 90) - sector(angle) <= ANISOTROPY) return null;
  // the dips: log power at the first two zeros of a segment's sinc against the sidelobes between them,
  // along the motion less across it (each averaged over a strip 0.12 cycles wide)
  const dips = (length: number) => {
    const lc = Math.max(length, 1.5);
    const along = (dir: number) => {
      const th = (dir * Math.PI) / 180, c = Math.cos(th), s = Math.sin(th);
      const at = (t: number) => {
        let sum = 0;
        for (let k = 0; k <= 12; k++) {
          const q = -0.06 + 0.01 * k;
          const x = Math.round((t * c - q * s) * N), y = Math.round((t * s + q * c) * N);
          sum += logPower[(((y % N) + N) % N) * N + (((x % N) + N) % N)];
        }
        return sum / 13;
      };
      return at(1.5 / lc) - at(1 / lc) + (at(2.5 / lc) - at(2 / lc));
    };
    return along(angle) - along(angle + 90);
  };
  const dip = dips(len);
  if (dip <= DIP) return null;
  // the cepstrum of the stripes also dips at twice their period, at times more deeply: the segment is
  // then half as long, and the stripes at its length dip far deeper
  const length = dips(len / 2) > HARMONIC * dip ? len / 2 : len;
  if (2 * length < MIN_LENGTH) return null;
  return { angle, length: 2 * length * LENGTH_SCALE, ...(z >= CEPS_Z ? { possible: true } : {}) };
}

/**
 * Draws the segment's kernel into `k`, a W x H plane that wraps (for the DFT), centred on (0, 0):
 * points along it, splatted bilinearly.
 */
function drawKernel(k: Float32Array, blur: MotionBlur, W: number, H: number): void {
  k.fill(0);
  const th = (blur.angle * Math.PI) / 180, c = Math.cos(th), s = Math.sin(th);
  const n = Math.floor(blur.length * 8) + 1;
  const add = (x: number, y: number, v: number) => (k[(((y % H) + H) % H) * W + (((x % W) + W) % W)] += v);
  for (let i = 0; i < n; i++) {
    const d = -blur.length / 2 + (blur.length * i) / (n - 1);
    const x = d * c, y = d * s;
    const x0 = Math.floor(x), y0 = Math.floor(y), fx = x - x0, fy = y - y0;
    add(x0, y0, (1 - fx) * (1 - fy));
    add(x0 + 1, y0, fx * (1 - fy));
    add(x0, y0 + 1, (1 - fx) * fy);
    add(x0 + 1, y0 + 1, fx * fy);
  }
  for (let i = 0; i < k.length; i++) k[i] /= n;
}

/**
 * The grayscale smeared along the segment of `blur` (in this image's pixels), as a photo taken while
 * the phone moved that far: a reference made to look as the photo was taken (rounded, edges
 * replicated). A segment nearer the horizontal is a box filter along the rows of the image sheared by
 * its slope: each column is shifted by the slope (linear interpolation), the rows are box-filtered by
 * running sums, and the columns shifted back; a steeper one is done on the transposed image. Its time
 * does not grow with the length: for a 512 px reference, about that of OpenCV's filter2D with the
 * segment's kernel, which grew each thread's OpenCV heap by some 40 MB that stayed.
 */
export function smearGray(gray: Uint8Array, width: number, height: number, blur: MotionBlur): Uint8Array {
  const th = (blur.angle * Math.PI) / 180, c = Math.cos(th), s = Math.sin(th);
  if (Math.abs(c) >= Math.abs(s)) return toBytes(smearRows(widen(gray), width, height, s / c, (blur.length / 2) * Math.abs(c)));
  const t = transpose(widen(gray), width, height);
  return toBytes(transpose(smearRows(t, height, width, c / s, (blur.length / 2) * Math.abs(s)), height, width));
}

/** Along lines of slope m (|m| <= 1) through each pixel, the mean over x - h .. x + h (see smearGray). */
function smearRows(img: Float32Array, W: number, H: number, m: number, h: number): Float32Array {
  // Q's row j follows a line of slope m: Q[j][u] = img at (u, j + off + m u)
  const off = m > 0 ? -Math.ceil(m * (W - 1)) - 1 : -1;
  const HQ = H + Math.ceil(Math.abs(m) * (W - 1)) + 3;
  const Q = new Float32Array(HQ * W);
  shiftColumns(img, H, Q, HQ, W, (u) => off + m * u);
  // each row of Q box-filtered: a box of half-width h sampled with linear interpolation weighs the
  // whole pixels within h - 1/2 by 1 and the next one on each side by what is left
  const hh = Math.max(0, h - 0.5), k = Math.floor(hh), f = hh - k, norm = 2 * k + 1 + 2 * f;
  const B = new Float32Array(HQ * W);
  for (let j = 0; j < HQ; j++) {
    const row = j * W;
    const at = (u: number) => Q[row + (u < 0 ? 0 : u >= W ? W - 1 : u)];
    let sum = 0;
    for (let u = -k; u <= k; u++) sum += at(u);
    for (let x = 0; x < W; x++) {
      B[row + x] = (sum + f * (at(x - k - 1) + at(x + k + 1))) / norm;
      sum += at(x + k + 1) - at(x - k);
    }
  }
  // back: pixel (x, y) lies on row y - m x - off of Q
  const out = new Float32Array(W * H);
  shiftColumns(B, HQ, out, H, W, (x) => -m * x - off);
  return out;
}

/** dst[j][u] = src at row j + shift(u) of column u (linear interpolation, rows clamped). */
function shiftColumns(src: Float32Array, srcRows: number, dst: Float32Array, dstRows: number, W: number, shift: (u: number) => number): void {
  const base = new Int32Array(W), frac = new Float32Array(W);
  for (let u = 0; u < W; u++) {
    const v = shift(u);
    base[u] = Math.floor(v);
    frac[u] = v - base[u];
  }
  const last = srcRows - 1;
  for (let j = 0; j < dstRows; j++) {
    const row = j * W;
    for (let u = 0; u < W; u++) {
      let y0 = j + base[u], y1 = y0 + 1;
      if (y0 < 0) y0 = y1 = 0;
      else if (y1 > last) y0 = y1 = y0 >= last ? last : y0;
      const a = src[y0 * W + u];
      dst[row + u] = a + (src[y1 * W + u] - a) * frac[u];
    }
  }
}

function widen(gray: Uint8Array): Float32Array {
  return new Float32Array(gray);
}

function transpose(img: Float32Array, W: number, H: number): Float32Array {
  const out = new Float32Array(W * H);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) out[x * H + y] = img[y * W + x];
  return out;
}

function toBytes(img: Float32Array): Uint8Array {
  const out = new Uint8Array(img.length);
  for (let i = 0; i < img.length; i++) out[i] = Math.min(255, Math.max(0, Math.round(img[i])));
  return out;
}

/** The next size at or above n that OpenCV's DFT handles fast (a product of 2s, 3s and 5s), and even. */
function dftSize(cv: CV, n: number): number {
  let size = cv.getOptimalDFTSize(n);
  while (size % 2) size = cv.getOptimalDFTSize(size + 1);
  return size;
}

/** The size of the spectra a photo of width x height is deblurred at (`deblurGray`, `kernelSpectrum`). */
export function deblurSize(cv: CV, width: number, height: number): { W: number; H: number } {
  return { W: dftSize(cv, width), H: dftSize(cv, height) };
}

/**
 * The spectrum of the blur's segment at the deblur's size (W x H, OpenCV's packed layout): the half of
 * `deblurGray` that needs no photo, made in the worker while this thread transforms the photo.
 */
export function kernelSpectrum(cv: CV, blur: MotionBlur, W: number, H: number): Float32Array {
  const ker = new cv.Mat(H, W, cv.CV_32F);
  try {
    drawKernel(ker.data32F as Float32Array, blur, W, H);
    cv.dft(ker, ker);
    return new Float32Array(ker.data32F as Float32Array);
  } finally {
    ker.delete();
  }
}

/**
 * The grayscale photo with the motion blur undone by a Wiener filter (rounded, clipped to 0..255).
 * The spectra are OpenCV's packed spectra of real images (CCS): half the memory of complex ones, which
 * OpenCV's memory keeps once grown. The segment's kernel is symmetric about its centre, so its spectrum
 * is real, and the filter multiplies each of the photo's frequencies by one real factor. The kernel's
 * spectrum is `kernelSpectrum`'s, made here unless `spectrum` brings it (null: made here too).
 */
export async function deblurGray(
  cv: CV, gray: Uint8Array, width: number, height: number, blur: MotionBlur, spectrum?: Promise<Float32Array | null>,
): Promise<Uint8Array> {
  const { W, H } = deblurSize(cv, width, height);
  const img = new cv.Mat(H, W, cv.CV_32F);
  try {
    // the photo, mirrored into the extra rows and columns of an efficient DFT size (each row copied
    // whole, its mirrored columns after it; the mirrored rows copied from the rows they mirror)
    const d = img.data32F as Float32Array;
    for (let y = 0; y < Math.min(height, H); y++) {
      const row = y * W, from = y * width;
      d.set(gray.subarray(from, from + Math.min(width, W)), row);
      for (let x = width; x < W; x++) d[row + x] = gray[from + Math.max(0, 2 * width - 2 - x)];
    }
    for (let y = height; y < H; y++) d.copyWithin(y * W, Math.max(0, 2 * height - 2 - y) * W, Math.max(0, 2 * height - 2 - y) * W + W);
    cv.dft(img, img);
    const given = spectrum ? await spectrum : null;
    const k = given && given.length === W * H ? given : kernelSpectrum(cv, blur, W, H);
    // packed layout: in the inner columns each row holds (re, im) pairs, the real part at odd columns;
    // the first and last columns hold (re, im) pairs down the rows, the real part at odd rows, with
    // real values alone in the first and last rows
    const g = img.data32F as Float32Array; // (read again after the await: a grown memory moves it)
    const factor = (re: number) => re / (re * re + WIENER_K);
    for (let y = 0; y < H; y++) {
      const row = y * W;
      // (each pair's real part and imaginary part by the factor of the kernel's real part)
      for (let x = 1; x < W - 1; x += 2) {
        const f = factor(k[row + x]);
        g[row + x] *= f;
        if (x + 1 < W - 1) g[row + x + 1] *= f;
      }
    }
    for (const c of [0, W - 1]) {
      for (let y = 0; y < H; y++) {
        const re = y === 0 || y === H - 1 || y & 1 ? y : y - 1;
        g[y * W + c] *= factor(k[re * W + c]);
      }
    }
    cv.dft(img, img, cv.DFT_INVERSE | cv.DFT_REAL_OUTPUT | cv.DFT_SCALE);
    const r = img.data32F as Float32Array;
    const out = new Uint8Array(width * height);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const v = Math.round(r[y * W + x]);
        out[y * width + x] = v < 0 ? 0 : v > 255 ? 255 : v;
      }
    }
    return out;
  } finally {
    img.delete();
  }
}
