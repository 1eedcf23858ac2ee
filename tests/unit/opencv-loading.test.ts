/**
 * OpenCV is loaded from the package's file cut in two (`splitOpenCV`): its WebAssembly binary,
 * decoded from the base64 string the file embeds, and the JavaScript around it. The cut must find
 * the binary in the installed release (a release laid out otherwise would fall back to the
 * package's own loader, and the server would keep about 22 MB more in each thread), and the OpenCV
 * it loads must be the same: the same ORB keypoints and descriptors as the package's loader gives,
 * on the same image.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { CV } from '~/services/identification/opencv.server';
import { mulberry32 } from '~/utils/random';

const require = createRequire(import.meta.url);
const packageFile = require.resolve('@opencvjs/node/lib/opencv_js.js');

/** ORB's keypoints (x, y, rounded) and descriptors on a blurred noise image with a few shapes. */
function orbOn(cv: CV): { points: number[]; descriptors: number[] } {
  const w = 320, h = 240;
  const rnd = mulberry32(7);
  const img = new cv.Mat(h, w, cv.CV_8UC1);
  const blurred = new cv.Mat();
  const keypoints = new cv.KeyPointVector();
  const descriptors = new cv.Mat();
  const none = new cv.Mat();
  const orb = new cv.ORB(300);
  try {
    for (let i = 0; i < w * h; i++) {
      const x = i % w, y = (i / w) | 0;
      img.data[i] = (((x >> 4) + (y >> 4)) % 2 ? 200 : 40) + Math.floor(rnd() * 30);
    }
    cv.GaussianBlur(img, blurred, new cv.Size(3, 3), 0);
    orb.detectAndCompute(blurred, none, keypoints, descriptors);
    const points: number[] = [];
    for (let i = 0; i < keypoints.size(); i++) {
      const k = keypoints.get(i);
      points.push(Math.round(k.pt.x * 100), Math.round(k.pt.y * 100));
    }
    return { points, descriptors: [...descriptors.data] };
  } finally {
    for (const m of [img, blurred, descriptors, none]) m.delete();
    keypoints.delete();
    orb.delete();
  }
}

describe('OpenCV loaded from its file cut in two', () => {
  it('finds the WebAssembly binary in the installed package and leaves a small glue without it', async () => {
    const { splitOpenCV } = await import('~/services/identification/opencv.server');
    const parts = splitOpenCV(readFileSync(packageFile));
    expect(parts).not.toBeNull();
    const { wasm, glue } = parts!;
    expect([...wasm.subarray(0, 4)]).toEqual([0, 0x61, 0x73, 0x6d]); // "\0asm"
    expect(WebAssembly.validate(new Uint8Array(wasm))).toBe(true);
    expect(glue.length).toBeLessThan(1_000_000);
    expect(glue).not.toContain('base64,AGFzbQ');
    expect(glue).toContain('instantiateWasm');
    expect(splitOpenCV(Buffer.from('module.exports = () => Promise.resolve({});'))).toBeNull();
  });

  it('gives the same ORB keypoints and descriptors as the package loader', async () => {
    const opencv = await import('~/services/identification/opencv.server');
    const split = await opencv.getCV();
    expect(opencv.openCVLoading).toBe('split');
    const packaged = await (require('@opencvjs/node') as { loadOpenCV: () => Promise<CV> }).loadOpenCV();
    expect(packaged).not.toBe(split);
    const a = orbOn(split), b = orbOn(packaged);
    expect(a.points.length).toBeGreaterThan(100);
    expect(a).toEqual(b);
  }, 60_000);
});
