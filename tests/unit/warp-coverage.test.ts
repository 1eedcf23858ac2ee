/**
 * The detail and colour checks mark where the photo covers the reference frame as OpenCV's
 * nearest-neighbour warp of a plane of 255s does (`warpPerspective`, warp.server.ts, makes it the same
 * in its pass over the frame). When the whole frame comes from inside the photo that mark is
 * 255 everywhere, and `frameInsidePhoto` lets them skip the warp: it must never say so where OpenCV's
 * warp leaves a pixel uncovered, and must say so for most frames well inside the photo.
 */
import { describe, expect, it } from 'vitest';
import { frameInsidePhoto } from '~/services/identification/geometry.server';
import { getCV, type CV } from '~/services/identification/opencv.server';
import { mulberry32 } from '~/utils/random';
import { homographyOnto, openCvWarp } from '../support/warp';

function coveredByOpenCv(cv: CV, H: number[], W: number, Hh: number, qW: number, qH: number): boolean {
  return openCvWarp(cv, new Uint8Array(qW * qH).fill(255), qW, qH, 1, H, W, Hh, false).every((v) => v === 255);
}

describe('the frame inside the photo', () => {
  it("is said to be only where OpenCV's warp covers every pixel, and for most frames well inside", async () => {
    const cv = await getCV();
    const rnd = mulberry32(7);
    const qW = 400, qH = 300, W = 128, Hh = 120;
    let inside = 0, covered = 0;
    for (let t = 0; t < 300; t++) {
      // a quadrilateral about the photo's middle, some of them reaching past its edges
      const cx = qW * (0.2 + 0.6 * rnd()), cy = qH * (0.2 + 0.6 * rnd()), size = 60 + 200 * rnd();
      const corners = [[-1, -1], [1, -1], [1, 1], [-1, 1]].flatMap(([sx, sy]) => [
        cx + (sx * size) / 2 + (rnd() - 0.5) * size * 0.4,
        cy + (sy * size) / 2 + (rnd() - 0.5) * size * 0.4,
      ]);
      const H = homographyOnto(cv, corners, W, Hh);
      const said = frameInsidePhoto(H, W, Hh, qW, qH);
      const truth = coveredByOpenCv(cv, H, W, Hh, qW, qH);
      if (said) expect(truth, `sample ${t}`).toBe(true);
      if (said) inside++;
      if (truth) covered++;
    }
    // the margin of a pixel costs few frames: nearly every covered frame is recognised
    expect(covered).toBeGreaterThan(60);
    expect(inside).toBeGreaterThan(covered * 0.9);
  });

  it('is not said for a frame across the horizon or a degenerate homography', () => {
    // w changes sign inside the frame: its corners can all land inside the photo and still not cover it
    expect(frameInsidePhoto([1, 0, 0, 0, 1, 0, 0.01, 0, -1], 200, 100, 1000, 1000)).toBe(false);
    expect(frameInsidePhoto([0, 0, 0, 0, 0, 0, 0, 0, 0], 10, 10, 100, 100)).toBe(false);
  });
});
