/**
 * A reference's pixels, decoded once and stored beside its features, so that a photo's match reads
 * them instead of decoding the reference's JPEGs. A collector must get the same answer as when the
 * JPEGs are decoded, and an answer still when the stored pixels are missing or damaged.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { extractFeatures, VisualIndex } from '~/services/identification/engine.server';
import { decodeReference, decodeRGB, featureCut, featureThumbnail, THUMB_SIDE, toGray } from '~/services/identification/features.server';
import { getCV } from '~/services/identification/opencv.server';
import { decodeLayout, tintedGray } from '~/services/identification/detail.server';
import { encodePixels, PIXELS_MAGIC, referencePixels, storedGray, storedThumb, storedThumbMasks, storedTint, summed } from '~/services/identification/reference-pixels.server';
import { thumbMasks } from '~/services/identification/compare.server';
import { featureLayout } from '~/services/identification/features.server';
import { mulberry32 } from '~/utils/random';
import { phonePhoto, pinArtwork } from '../support/identify';
import { earlierFormPixels } from '../support/pixels';

const refs = new Map<string, Buffer>();
const teal = { banner: '#e8833a', ink: { fill: '#3cb9b4', line: '#555555' } };
const features = new Map<string, Uint8Array>();
const pixels = new Map<string, Uint8Array>();
let reads: string[] = [];
const load = async (imageId: string) => {
  reads.push(imageId);
  return refs.get(imageId) ?? null;
};

async function addPin(pinId: string, picture: Buffer) {
  refs.set(pinId, picture);
  const f = await extractFeatures(picture);
  features.set(pinId, f);
  pixels.set(pinId, await referencePixels(await getCV(), picture, f));
}

beforeAll(async () => {
  await addPin('eagles', await pinArtwork(31, 'EAGLES', 2019));
  for (const seed of [32, 33]) await addPin(`pin-${seed}`, await pinArtwork(seed));
  // a team name in teal on orange enamel, nearly one gray: compared on its tint channel
  await addPin('teal', await pinArtwork(37, 'HERONS', 2021, teal));
  // look-alikes: the answer rests on the detail check of each
  for (const year of [2017, 2018]) await addPin(`owls-${year}`, await pinArtwork(36, 'OWLS', year, { yearSize: 18 }));
  // a pin added from a phone photo: its reference is cut out of the photo
  await addPin('hawks-photo', await phonePhoto(await pinArtwork(52, 'HAWKS', 2020), { rotate: 15, size: 220, cutOut: true }));
}, 120_000);

/** The width and height a stored blob was made for (its header's second and third words). */
function sizeOf(blob: Uint8Array): [number, number] {
  const dv = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  return [dv.getUint32(4, true), dv.getUint32(8, true)];
}

/**
 * The index of the first byte where the two differ (0 when one is missing), or -1: a failure reads at
 * once, where a deep comparison of two large arrays that differ all over takes minutes to describe.
 */
function firstDifference(a: Uint8Array | null, b: Uint8Array): number {
  if (!a || a.length !== b.length) return 0;
  return a.findIndex((v, i) => v !== b[i]);
}

describe('stored reference pixels', () => {
  it('read back byte for byte, whatever the width of their rows', () => {
    const rnd = mulberry32(9);
    for (const [width, height] of [[512, 40], [37, 23], [8, 3], [1, 5], [255, 17]]) {
      const gray = Uint8Array.from({ length: width * height }, () => Math.floor(rnd() * 256));
      const thumb = { data: Uint8Array.from({ length: width * height * 3 }, () => Math.floor(rnd() * 256)), width, height };
      const blob = encodePixels({ data: gray, width, height }, thumb);
      expect(firstDifference(storedGray(blob, width, height), gray), `${width} x ${height}`).toBe(-1);
      expect(firstDifference(storedThumb(blob)?.data ?? null, thumb.data), `${width} x ${height}`).toBe(-1);
    }
    // four bytes at a time and one at a time agree, carries and wrap-arounds included
    const rows = Uint8Array.from({ length: 64 * 9 }, () => Math.floor(rnd() * 256));
    const bytewise = rows.slice();
    for (let i = 64; i < bytewise.length; i++) bytewise[i] += bytewise[i - 64];
    expect(firstDifference(summed(rows.slice(), 64), bytewise)).toBe(-1);
  });

  it('are byte for byte the reference and the thumbnail that the match decodes, also for a pin cut out of a photo', async () => {
    const cv = await getCV();
    expect(featureCut(features.get('hawks-photo') as Uint8Array)?.length).toBeGreaterThan(0);
    for (const [id, blob] of pixels) {
      const f = features.get(id) as Uint8Array;
      const { image } = await decodeReference(cv, refs.get(id) as Buffer, featureCut(f));
      expect(firstDifference(storedGray(blob, image.width, image.height), toGray(image)), id).toBe(-1);
      const thumb = await decodeRGB(featureThumbnail(f), THUMB_SIDE);
      const kept = storedThumb(blob);
      expect([kept?.width, kept?.height], id).toEqual([thumb.width, thumb.height]);
      expect(firstDifference(kept?.data ?? null, thumb.data), id).toBe(-1);
      // the pin's masks on the thumbnail, as the colour comparison would find them
      const masks = thumbMasks(thumb);
      const pinned = masks.pin.reduce((n, v) => n + v, 0);
      expect(pinned, id).toBeGreaterThan(masks.pin.length / 10);
      expect(masks.around.reduce((n, v) => n + v, 0), id).toBeGreaterThan(pinned);
      const storedMasks = storedThumbMasks(blob);
      expect(firstDifference(storedMasks?.pin ?? null, masks.pin), id).toBe(-1);
      expect(firstDifference(storedMasks?.around ?? null, masks.around), id).toBe(-1);
      // the tint channel (only for a pin whose letters need one) as the match would make it
      const tinted = tintedGray(image, toGray(image), decodeLayout(featureLayout(f), image.width, image.height).glyphs);
      const tint = storedTint(blob, image.width, image.height);
      expect(tint?.tint, id).toEqual(tinted?.tint);
      if (tinted) expect(firstDifference(tint?.gray ?? null, tinted.gray), id).toBe(-1);
      // deflated with their rows differenced: well under the raw size
      expect(blob.length, id).toBeLessThan((image.width * image.height * (tinted ? 2 : 1) + thumb.data.length) / 2);
    }
    expect(storedTint(pixels.get('teal') as Uint8Array, ...sizeOf(pixels.get('teal') as Uint8Array))?.tint).toHaveLength(3);
    expect(storedTint(pixels.get('eagles') as Uint8Array, ...sizeOf(pixels.get('eagles') as Uint8Array))).toBeUndefined();
  });

  it('of an earlier form (without the tint channel) still read, without a tint, and are told from the current form', () => {
    const blob = pixels.get('teal') as Uint8Array;
    const earlier = earlierFormPixels(blob, 1);
    const [width, height] = sizeOf(blob);
    // the server's background pass finds the blobs to make again by their first four bytes
    expect(Buffer.from(blob.subarray(0, 4)).equals(PIXELS_MAGIC)).toBe(true);
    expect(Buffer.from(earlier.subarray(0, 4)).equals(PIXELS_MAGIC)).toBe(false);
    expect(storedGray(blob, width, height)).not.toBeNull();
    expect(firstDifference(storedGray(earlier, width, height), storedGray(blob, width, height) as Uint8Array)).toBe(-1);
    expect(storedThumb(earlier)?.data).toEqual(storedThumb(blob)?.data);
    expect(storedTint(blob, width, height)).toBeDefined();
    expect(storedTint(earlier, width, height)).toBeUndefined();
    expect(storedThumbMasks(earlier)).toBeNull();
  });

  it('of the form before the pin mask still read, without it, and are told from the current form', () => {
    const blob = pixels.get('teal') as Uint8Array;
    const second = earlierFormPixels(blob, 2);
    const [width, height] = sizeOf(blob);
    expect(Buffer.from(second.subarray(0, 4)).equals(PIXELS_MAGIC)).toBe(false);
    expect(firstDifference(storedGray(second, width, height), storedGray(blob, width, height) as Uint8Array)).toBe(-1);
    expect(storedThumb(second)?.data).toEqual(storedThumb(blob)?.data);
    expect(storedTint(second, width, height)).toEqual(storedTint(blob, width, height));
    expect(storedThumbMasks(blob)).not.toBeNull();
    expect(storedThumbMasks(second)).toBeNull();
  });

  it('are refused when damaged, cut short or of another size, and a blob without a thumbnail has none', () => {
    const blob = pixels.get('eagles') as Uint8Array;
    const gray = new Uint8Array(512 * 512).map((_, i) => (i * 7) % 251);
    const own = encodePixels({ data: gray, width: 512, height: 512 }, null);
    expect(firstDifference(storedGray(own, 512, 512), gray)).toBe(-1);
    expect(storedThumb(own)).toBeNull();
    expect(storedThumbMasks(own)).toBeNull();
    expect(storedGray(own, 511, 512)).toBeNull();
    expect(storedGray(blob.subarray(0, blob.length - 1), 512, 512)).toBeNull();
    const damaged = blob.slice();
    // in the deflated grayscale, after the header's 48 bytes
    damaged[56] ^= 0xff;
    damaged[57] ^= 0xff;
    expect(storedGray(damaged, 512, 512)).toBeNull();
    const notOurs = blob.slice();
    notOurs[0] = 0;
    expect(storedGray(notOurs, 512, 512)).toBeNull();
    expect(storedThumb(notOurs)).toBeNull();
  });

  it('give a match the same answers as decoding the JPEGs, without reading the reference images', async () => {
    const decoding = new VisualIndex(load);
    const stored = new VisualIndex(load, undefined, null, async (id) => pixels.get(id) ?? null);
    const damaged = new VisualIndex(load, undefined, null, async () => new Uint8Array(64));
    for (const index of [decoding, stored, damaged]) for (const [id, f] of features) index.add({ imageId: id, pinId: id, features: f });
    const photos = [
      { name: 'the pin, rotated and scaled', photo: await phonePhoto(await pinArtwork(31, 'EAGLES', 2019), { rotate: 14, size: 340 }) },
      { name: 'another team name', photo: await phonePhoto(await pinArtwork(31, 'RAVENS', 2019), { rotate: 14, size: 340 }) },
      { name: 'a year of two look-alikes', photo: await phonePhoto(await pinArtwork(36, 'OWLS', 2018, { yearSize: 18 }), { rotate: 14, size: 340 }) },
      { name: 'the pin added from a photo', photo: await phonePhoto(await pinArtwork(52, 'HAWKS', 2020), { rotate: -10, size: 300 }) },
      { name: 'a team name in teal on orange', photo: await phonePhoto(await pinArtwork(37, 'HERONS', 2021, teal), { rotate: 12, size: 340 }) },
      { name: 'another team name in teal on orange', photo: await phonePhoto(await pinArtwork(37, 'CRANES', 2021, teal), { rotate: 12, size: 340 }) },
    ];
    const answer = (r: Awaited<ReturnType<VisualIndex['match']>>) => ({ best: r.best, candidates: r.candidates, reason: r.reason });
    const readBy = { decoding: 0, stored: 0, damaged: 0 };
    for (const { name, photo } of photos) {
      reads = [];
      const expected = answer(await decoding.match(photo));
      readBy.decoding += reads.length;
      reads = [];
      expect(answer(await stored.match(photo)), name).toEqual(expected);
      readBy.stored += reads.length;
      reads = [];
      expect(answer(await damaged.match(photo)), `${name}, damaged pixels`).toEqual(expected);
      readBy.damaged += reads.length;
    }
    // the detail checks read references; with their pixels stored, none is read (nor decoded), and
    // pixels that do not read are decoded from the reference images as before
    expect(readBy.decoding).toBeGreaterThan(0);
    expect(readBy.stored).toBe(0);
    expect(readBy.damaged).toBe(readBy.decoding);
    expect((await stored.match(photos[0].photo)).best?.pinId).toBe('eagles');
    expect((await stored.match(photos[2].photo)).best?.pinId).toBe('owls-2018');
    expect((await stored.match(photos[4].photo)).best?.pinId).toBe('teal');
    expect((await stored.match(photos[5].photo)).best).toBeNull();
  }, 120_000);
});
