/**
 * The server's rehearsal before its first photo (`VisualIndex.rehearse`): a few catalogue pictures made
 * into photos go through the whole match, so that the first users' photos do not pay for compiling the
 * engine's code. It must see the pictures as photos, leave every later answer as it would have been,
 * and do nothing where there is nothing to rehearse on.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { extractFeatures, VisualIndex, type MatchResult } from '~/services/identification/engine.server';
import { decodeRGB, rehearsalPhotos } from '~/services/identification/features.server';
import { phonePhoto, pinArtwork } from '../support/identify';

const refs = new Map<string, Buffer>();
const answer = (r: MatchResult) => ({ reason: r.reason, best: r.best?.pinId ?? null, candidates: r.candidates.map((c) => [c.pinId, Math.round(c.score)]) });

async function indexOf(loads: string[]): Promise<VisualIndex> {
  const index = new VisualIndex(async (imageId) => {
    loads.push(imageId);
    return refs.get(imageId) ?? null;
  });
  for (const [pinId, picture] of refs) index.add({ imageId: pinId, pinId, features: await extractFeatures(picture) });
  return index;
}

beforeAll(async () => {
  refs.set('eagles', await pinArtwork(31, 'EAGLES', 2019));
  for (const seed of [32, 33]) refs.set(`pin-${seed}`, await pinArtwork(seed));
}, 60_000);

describe("the server's rehearsal", () => {
  it('makes three photos of a picture: as it is, the pin small on a grey ground, and mirrored', async () => {
    const picture = refs.get('eagles') as Buffer;
    const [asIs, small, mirrored] = await rehearsalPhotos(picture);
    expect(asIs.equals(picture)).toBe(true);
    const s = await decodeRGB(small, 2048);
    expect([s.width, s.height]).toEqual([768, 768]);
    // the corner is the grey ground, the centre the pin
    expect(Array.from(s.data.subarray(0, 3)).every((v) => Math.abs(v - 128) <= 2)).toBe(true);
    const m = await decodeRGB(mirrored, 512), p = await decodeRGB(picture, 512);
    const at = (img: typeof p, x: number, y: number) => Array.from(img.data.subarray((y * img.width + x) * 3, (y * img.width + x) * 3 + 3));
    let close = 0;
    for (let y = 60; y < 460; y += 40) for (let x = 60; x < 460; x += 40) if (at(m, x, y).every((v, c) => Math.abs(v - at(p, p.width - 1 - x, y)[c]) < 24)) close++;
    expect(close).toBeGreaterThan(90); // of 100 points, mirrored
  }, 30_000);

  it('goes through the match on catalogue pictures and leaves every later answer as it was', async () => {
    const loads: string[] = [];
    const rehearsed = await indexOf(loads);
    const fresh = await indexOf([]);
    await rehearsed.rehearse();
    // it read two catalogue pictures, and each again as the match checked in detail the pin it found there
    expect(loads[0]).toBe('eagles');
    expect(loads.filter((id) => id === 'eagles').length).toBeGreaterThanOrEqual(2);
    expect(loads.filter((id) => id === 'pin-32').length).toBeGreaterThanOrEqual(2);
    const photos = [
      await phonePhoto(await pinArtwork(31, 'EAGLES', 2019), { rotate: 14, size: 340 }),
      await phonePhoto(await pinArtwork(31, 'RAVENS', 2019), { rotate: 14, size: 340 }),
      await phonePhoto(await pinArtwork(77), { rotate: 5 }),
    ];
    const named: (string | null)[] = [];
    for (const photo of photos) {
      const got = await rehearsed.match(photo);
      expect(answer(got)).toEqual(answer(await fresh.match(photo)));
      named.push(got.best?.pinId ?? null);
    }
    expect(named).toEqual(['eagles', null, null]);
  }, 120_000);

  it('does nothing without a catalogue, or without pictures to read', async () => {
    await expect(new VisualIndex(async () => null).rehearse()).resolves.toBeUndefined();
    const noLoader = new VisualIndex();
    noLoader.add({ imageId: 'eagles', pinId: 'eagles', features: await extractFeatures(refs.get('eagles') as Buffer) });
    await expect(noLoader.rehearse()).resolves.toBeUndefined();
  }, 30_000);
});
