/** OpenCV's own warps, for the tests that hold the engine's geometry to them. */
import type { CV } from '~/services/identification/opencv.server';

/** photo -> frame: the frame's corners placed at four points of the photo (a pin seen at a tilt). */
export function homographyOnto(cv: CV, corners: number[], W: number, Hh: number): number[] {
  const src = cv.matFromArray(4, 1, cv.CV_32FC2, corners);
  const dst = cv.matFromArray(4, 1, cv.CV_32FC2, [0, 0, W, 0, W, Hh, 0, Hh]);
  const H = cv.getPerspectiveTransform(src, dst);
  try {
    return Array.from(H.data64F as Float64Array);
  } finally {
    src.delete();
    dst.delete();
    H.delete();
  }
}

/**
 * OpenCV's warpPerspective of an 8-bit image of `cn` channels (1 or 3) onto a W x Hh frame, bilinear
 * or nearest neighbour, with a border of 0.
 */
export function openCvWarp(cv: CV, data: Uint8Array, sw: number, sh: number, cn: number, H: number[], W: number, Hh: number, linear: boolean): Uint8Array {
  const src = new cv.Mat(sh, sw, cn === 1 ? cv.CV_8UC1 : cv.CV_8UC3);
  const Hm = cv.matFromArray(3, 3, cv.CV_64FC1, H);
  const out = new cv.Mat();
  try {
    src.data.set(data);
    cv.warpPerspective(src, out, Hm, new cv.Size(W, Hh), linear ? cv.INTER_LINEAR : cv.INTER_NEAREST, cv.BORDER_CONSTANT, new cv.Scalar(0, 0, 0, 0));
    return new Uint8Array(out.data);
  } finally {
    src.delete();
    Hm.delete();
    out.delete();
  }
}
