/**
 * Our WebAssembly kernels against the OpenCV calls they stand for (issue 62, part 4), per call, at the
 * sizes one photo uses, interleaved so that the machine's load favours neither:
 *
 *   npx tsx tests/bench/identify-kernels.ts [--rounds 40]
 *
 * Covered so far: warpPerspective (warp.wat), GaussianBlur (pixels.wat) and the RGB -> gray
 * conversion (pixels.wat against cvtColor). Prints the median ms of each.
 */
import { getCV, type CV } from "../../app/services/identification/opencv.server";
import { gaussianBlur, grayscale } from "../../app/services/identification/pixels.server";
import { warpPerspective } from "../../app/services/identification/warp.server";
import { mulberry32 } from "../../app/utils/random";
import { homographyOnto, openCvWarp } from "../support/warp";

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
    ["warp 1024x768 RGB onto 512 px", () => warpPerspective({ data: rgb, width: W, height: H, channels: 3 }, Hm, 512, 512), () => openCvWarp(cv, rgb, W, H, 3, Hm, 512, 512, true)],
    ["warp 1024x768 gray onto 512 px", () => warpPerspective({ data: gray, width: W, height: H, channels: 1 }, Hm, 512, 512), () => openCvWarp(cv, gray, W, H, 1, Hm, 512, 512, true)],
    ["Gaussian blur 512x512 gray, sigma 1.8", () => gaussianBlur(cv, gray.subarray(0, 512 * 512), 512, 512, 1.8), () => openCvBlur(cv, gray.subarray(0, 512 * 512), 512, 512, 1.8)],
    ["gray of 1024x768 RGB", () => grayscale(rgb, W * H), () => openCvGray(cv, rgb, W, H)],
  ];
  console.log(`median of ${ROUNDS} interleaved calls (ms): ours | OpenCV`);
  for (const [name, ours, theirs] of cases) {
    ours();
    theirs();
    const a: number[] = [], b: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      a.push(time(ours));
      b.push(time(theirs));
    }
    console.log(`  ${name.padEnd(40)} ${median(a).toFixed(2)} | ${median(b).toFixed(2)}`);
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
