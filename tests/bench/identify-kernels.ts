/**
 * Our WebAssembly kernels against the OpenCV calls they stand for (issue 62, part 4), per call, at the
 * sizes one photo uses, interleaved so that the machine's load favours neither:
 *
 *   npx tsx tests/bench/identify-kernels.ts [--rounds 40]
 *
 * GaussianBlur and cvtColor (pixels.wat), BFMatcher Hamming knn with the
 * ratio test (hamming.wat's ratioMatches), findHomography RANSAC (ransac.wat's inlier count),
 * matchTemplate TM_CCOEFF_NORMED (ncc.wat's sums, a 16 px tile searched 2 px each way), ORB compute
 * (brief.wat's smoothing and descriptors) and resize INTER_LINEAR_EXACT (brief.wat's pyramid level).
 * The ORB, matching and correlation cases run on a photo of the validation set (VALIDATION_DIR, default
 * ../shared/bench/identify-validation: of its first 20 photos, the one with most keypoints), matched
 * against 1,000 other descriptors of it (its keypoints turned by 90 degrees, as a reference's would
 * be). Prints the median ms of each and the ratio. The share of a photo each kernel takes comes from a
 * CPU profile of identify-engine.ts (app/services/identification/README.md, "Kernels against OpenCV").
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { openCvDescriptors, orbDescriptors, orbShrink, type Keypoint } from "../../app/services/identification/brief.server";
import { decodeRGB, toGray } from "../../app/services/identification/features.server";
import { quickFit } from "../../app/services/identification/geometry.server";
import { shiftSums } from "../../app/services/identification/ncc.server";
import type { Feature2DCalls } from "../../app/services/identification/opencv.server";
import { asWords, ratioMatches } from "../../app/services/identification/vocab.server";
import { getCV, type CV } from "../../app/services/identification/opencv.server";
import { gaussianBlur, grayscale } from "../../app/services/identification/pixels.server";
import { mulberry32 } from "../../app/utils/random";
import { homographyOnto } from "../support/warp";

const i = process.argv.indexOf("--rounds");
const ROUNDS = i >= 0 ? Number(process.argv[i + 1]) : 40;

function openCvBlur(cv: CV, pixels: Uint8Array, W: number, H: number, sigma: number): Uint8Array {
  const src = new cv.Mat(H, W, cv.CV_8UC1);
  const dst = new cv.Mat();
  try {
    src.data.set(pixels);
    cv.GaussianBlur(src, dst, new cv.Size(0, 0), sigma, sigma, cv.BORDER_REPLICATE);
    return new Uint8Array(dst.data);
  } finally {
    src.delete();
    dst.delete();
  }
}

function openCvGray(cv: CV, rgb: Uint8Array, W: number, H: number): Uint8Array {
  const src = new cv.Mat(H, W, cv.CV_8UC3);
  const dst = new cv.Mat();
  try {
    src.data.set(rgb);
    cv.cvtColor(src, dst, cv.COLOR_RGB2GRAY);
    return new Uint8Array(dst.data);
  } finally {
    src.delete();
    dst.delete();
  }
}

/** ORB's keypoints on one level (OpenCV's detect), as the photo's ORB finds them before describing them. */
function detect(cv: CV, gray: Uint8Array, W: number, H: number): Keypoint[] {
  const mat = new cv.Mat(H, W, cv.CV_8UC1);
  const mask = new cv.Mat();
  const kps = new cv.KeyPointVector();
  const orb = new cv.ORB(2000, 1.2, 1, 31, 0, 2, cv.ORB_HARRIS_SCORE, 31, 10);
  try {
    mat.data.set(gray);
    (orb as unknown as Feature2DCalls).detect(mat, kps, mask);
    const out: Keypoint[] = [];
    for (let i = 0; i < kps.size(); i++) {
      const kp = kps.get(i) as { pt: { x: number; y: number }; angle: number };
      out.push({ x: kp.pt.x, y: kp.pt.y, angle: kp.angle });
    }
    return out;
  } finally {
    mat.delete();
    mask.delete();
    kps.delete();
    orb.delete();
  }
}

/** BFMatcher (Hamming) 2-nearest neighbours of each photo descriptor, kept when within `accept` bits and the ratio test. */
function openCvRatioMatches(cv: CV, a: Uint8Array, b: Uint8Array, accept: number, ratio: number): number[] {
  const ma = new cv.Mat(a.length / 32, 32, cv.CV_8UC1);
  const mb = new cv.Mat(b.length / 32, 32, cv.CV_8UC1);
  const matcher = new cv.BFMatcher(cv.NORM_HAMMING, false);
  const knn = new cv.DMatchVectorVector();
  try {
    ma.data.set(a);
    mb.data.set(b);
    matcher.knnMatch(ma, mb, knn, 2);
    const out: number[] = [];
    for (let i = 0; i < knn.size(); i++) {
      const m = knn.get(i);
      const first = m.get(0), second = m.size() > 1 ? m.get(1) : null;
      if (first.distance <= accept && (!second || first.distance < ratio * second.distance)) out.push(first.queryIdx, first.trainIdx);
      m.delete();
    }
    return out;
  } finally {
    ma.delete();
    mb.delete();
    matcher.delete();
    knn.delete();
  }
}

/** findHomography with RANSAC (8 px, 1,000 iterations), its inliers counted. */
function openCvRansac(cv: CV, src: number[], dst: number[]): number {
  const a = cv.matFromArray(src.length / 2, 1, cv.CV_32FC2, src);
  const b = cv.matFromArray(dst.length / 2, 1, cv.CV_32FC2, dst);
  const mask = new cv.Mat();
  try {
    const H = cv.findHomography(a, b, cv.RANSAC, 8, mask, 1000, 0.995);
    H.delete();
    return cv.countNonZero(mask);
  } finally {
    a.delete();
    b.delete();
    mask.delete();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
function time(f: () => unknown): number {
  const t = performance.now();
  f();
  return performance.now() - t;
}

async function main() {
  const cv = await getCV();
  const rnd = mulberry32(7);
  const W = 1024, H = 768;
  const rgb = new Uint8Array(W * H * 3).map(() => Math.floor(rnd() * 256));
  const gray = grayscale(rgb, W * H);
  const Hm = homographyOnto(cv, [300, 200, 700, 230, 680, 600, 280, 560], 512, 512);
  const cases: [string, () => unknown, () => unknown][] = [
    ["Gaussian blur 512x512 gray, sigma 1.8", () => gaussianBlur(cv, gray.subarray(0, 512 * 512), 512, 512, 1.8), () => openCvBlur(cv, gray.subarray(0, 512 * 512), 512, 512, 1.8)],
    ["gray of 1024x768 RGB", () => grayscale(rgb, W * H), () => openCvGray(cv, rgb, W, H)],
  ];
  // a photo of the validation set, its ORB keypoints on the largest level, and a reference's descriptors
  const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..", process.env.VALIDATION_DIR ?? "../shared/bench/identify-validation");
  const queries = readFileSync(path.join(dir, "truth.csv"), "utf8").split("\n").slice(1).filter(Boolean);
  // (of the first 20 photos, the one with the most keypoints on its largest level)
  let best: { pg: Uint8Array; PW: number; PH: number; kps: Keypoint[] } | null = null;
  for (const row of queries.slice(0, 20)) {
    const photo = await decodeRGB(readFileSync(path.join(dir, row.split(",")[0])), 1024, 1024, true);
    const g = toGray(photo);
    const found = detect(cv, g, photo.width, photo.height);
    if (!best || found.length > best.kps.length) best = { pg: g, PW: photo.width, PH: photo.height, kps: found };
  }
  if (!best) throw new Error(`no photo in ${dir}`);
  const { pg, PW, PH, kps } = best;
  const pDesc = orbDescriptors(cv, pg, PW, PH, kps) as Uint8Array;
  const second = kps.slice(0, 1000).map((k) => ({ ...k, angle: (k.angle + 90) % 360 })); // another set of 1,000 descriptors, as a reference's
  const rDesc = orbDescriptors(cv, pg, PW, PH, second) as Uint8Array;
  const pw = asWords(pDesc), rw = asWords(rDesc);
  // 150 correspondences, a third of them on one homography and the rest anywhere
  const src: number[] = [], dst: number[] = [];
  for (let k = 0; k < 150; k++) {
    const x = rnd() * PW, y = rnd() * PH;
    src.push(x, y);
    if (k % 3 === 0) {
      const w = Hm[6] * x + Hm[7] * y + Hm[8];
      dst.push((Hm[0] * x + Hm[1] * y + Hm[2]) / w, (Hm[3] * x + Hm[4] * y + Hm[5]) / w);
    } else dst.push(rnd() * 512, rnd() * 512);
  }
  // a 16 px tile of the photo correlated with itself shifted up to 2 px each way (25 shifts), as the detail check does
  const tileImg = new cv.Mat(PH, PW, cv.CV_8UC1);
  tileImg.data.set(pg);
  const tx = Math.floor(PW / 2), ty = Math.floor(PH / 2);
  const nccOurs = () => shiftSums(pg, pg, PW, tx, ty, 16, 16, -2, 2, -2, 2);
  const nccCv = () => {
    const tmpl = tileImg.roi(new cv.Rect(tx, ty, 16, 16));
    const area = tileImg.roi(new cv.Rect(tx - 2, ty - 2, 20, 20));
    const res = new cv.Mat();
    const none = new cv.Mat();
    try {
      cv.matchTemplate(area, tmpl, res, cv.TM_CCOEFF_NORMED);
      return cv.minMaxLoc(res, none).maxVal;
    } finally {
      tmpl.delete();
      area.delete();
      res.delete();
      none.delete();
    }
  };
  const sw = Math.round(PW / 1.2), sh = Math.round(PH / 1.2);
  const resizeCv = () => {
    const a = new cv.Mat(PH, PW, cv.CV_8UC1);
    const b = new cv.Mat();
    try {
      a.data.set(pg);
      cv.resize(a, b, new cv.Size(sw, sh), 0, 0, cv.INTER_LINEAR_EXACT);
      return new Uint8Array(b.data);
    } finally {
      a.delete();
      b.delete();
    }
  };
  cases.push(
    [`ORB compute, ${kps.length} keypoints, ${PW}x${PH}`, () => orbDescriptors(cv, pg, PW, PH, kps), () => openCvDescriptors(cv, pg, PW, PH, kps)],
    [`pyramid level ${PW}x${PH} -> ${sw}x${sh}`, () => orbShrink(pg, PW, PH, sw, sh), resizeCv],
    [`Hamming knn + ratio, ${pw.length / 8} x ${rw.length / 8}`, () => ratioMatches(pw, rw, 50, 0.8), () => openCvRatioMatches(cv, pDesc, rDesc, 50, 0.8)],
    ["RANSAC inliers, 150 pairs, 1,000 iterations", () => quickFit({ src, dst }, 1000).inliers, () => openCvRansac(cv, src, dst)],
    ["16 px tile, 25 shifts (matchTemplate)", nccOurs, nccCv],
  );
  console.log(`median of ${ROUNDS} interleaved calls (ms): ours | OpenCV | OpenCV / ours`);
  for (const [name, ours, theirs] of cases) {
    ours();
    theirs();
    const a: number[] = [], b: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      a.push(time(ours));
      b.push(time(theirs));
    }
    console.log(`  ${name.padEnd(46)} ${median(a).toFixed(3)} | ${median(b).toFixed(3)} | ${(median(b) / median(a)).toFixed(1)}`);
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
