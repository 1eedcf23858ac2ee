/**
 * The second look's place (`zoomPlace`): a photo whose shortlist is weak is looked at again, enlarged,
 * where its pin most likely is. Geometry only, without images.
 */
import { describe, expect, it } from 'vitest';
import { zoomPlace } from '~/services/identification/engine.server';

const W = 1024, H = 768;

/** A shortlisted image's tentative correspondences, their photo points spread around (cx, cy). */
function listedAround(cx: number, cy: number, n: number, spread: number) {
  const src: number[] = [];
  for (let k = 0; k < n; k++) src.push(cx + ((k * 37) % spread) - spread / 2, cy + ((k * 53) % spread) - spread / 2);
  return { points: { src, dst: src.map((v) => v / 2) } };
}

describe('the second look', () => {
  // a small pin at the photo's lower right: most of the shortlist's correspondences fall on it
  const listed = [listedAround(820, 600, 40, 80), listedAround(400, 300, 8, 500)];

  it("is taken around the strongest fit's inliers when they lie together", () => {
    const r = zoomPlace({ x0: 120, y0: 100, x1: 260, y1: 220 }, listed, W, H);
    expect(r).not.toBeNull();
    const { x, y, side } = r!;
    // the fit's box lies inside the part looked at, enlarged towards 640 px
    expect(x).toBeLessThanOrEqual(120);
    expect(y).toBeLessThanOrEqual(100);
    expect(x + side).toBeGreaterThanOrEqual(260);
    expect(y + side).toBeGreaterThanOrEqual(220);
    expect(side).toBeLessThan(0.8 * H);
    expect(r!.scale).toBeGreaterThan(1);
  });

  it("is taken where the correspondences are densest when the fit's inliers spread over most of the photo", () => {
    // chance inliers of a pin that is not there, from corner to corner
    const r = zoomPlace({ x0: 30, y0: 20, x1: 990, y1: 740 }, listed, W, H);
    expect(r).not.toBeNull();
    const { x, y, side } = r!;
    expect(x).toBeLessThanOrEqual(820);
    expect(x + side).toBeGreaterThanOrEqual(820);
    expect(y).toBeLessThanOrEqual(600);
    expect(y + side).toBeGreaterThanOrEqual(600);
    expect(side).toBeLessThan(0.8 * H);
  });

  it('is taken where the correspondences are densest when no fit was found', () => {
    const r = zoomPlace(null, listed, W, H);
    expect(r).not.toBeNull();
    expect(r!.x + r!.side).toBeGreaterThanOrEqual(820);
  });

  it('is not taken when there are too few correspondences to place it', () => {
    expect(zoomPlace(null, [listedAround(500, 400, 3, 20)], W, H)).toBeNull();
  });
});
