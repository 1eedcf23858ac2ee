/**
 * The photo a collector sends is decoded at the 1,024 px the match works at, and a reference at the
 * 512 px of the detail check. A smaller image is decoded at its own size and enlarged by the engine's
 * kernel (features.server.ts, `decodeRGB`; pixels.server.ts, `enlargeRGB`), which must give byte for
 * byte sharp's own enlargement: the match, its features and its answer depend on every pixel (and
 * were fitted on sharp's). Photos a phone sends: turned or mirrored by their EXIF orientation, tall
 * and wide, with transparency, a strip one pixel high, and ones already large enough.
 * The kernel follows libvips 8.18's enlargement: a sharp whose libvips enlarges otherwise fails here.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodeRGB } from '~/services/identification/features.server';
import { phonePhoto, pinArtwork } from '../support/identify';

/** The image as one sharp call decodes and enlarges it. */
async function oneCall(photo: Buffer, side = 1024) {
  const { data, info } = await sharp(photo, { failOn: 'error' })
    .rotate()
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb')
    .resize({ width: side, height: side, fit: 'inside', withoutEnlargement: false })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

async function expectSameAsOneCall(photo: Buffer, size: [number, number], side = 1024) {
  const expected = await oneCall(photo, side);
  const got = await decodeRGB(photo, side, side, true);
  expect([got.width, got.height]).toEqual(size);
  expect([got.width, got.height]).toEqual([expected.width, expected.height]);
  expect(Buffer.from(got.data.buffer, got.data.byteOffset, got.data.length).equals(expected.data)).toBe(true);
}

describe('a query photo decoded at 1,024 px', () => {
  it('is, when smaller and enlarged by the engine, the same picture as sharp enlarges', async () => {
    const photo = await phonePhoto(await pinArtwork(41)); // 800 x 640
    await expectSameAsOneCall(photo, [1024, 819]);
    // tall, odd sizes whose enlarged height and width round differently
    for (const [w, h, size] of [
      [481, 767, [642, 1024]],
      [1023, 577, [1024, 578]],
      [333, 999, [341, 1024]],
    ] as const) {
      const resized = await sharp(photo).resize(w, h, { fit: 'fill' }).jpeg({ quality: 85 }).toBuffer();
      await expectSameAsOneCall(resized, [size[0], size[1]]);
    }
  });

  it('is turned by its EXIF orientation first, as a phone held upright records it', async () => {
    const photo = await phonePhoto(await pinArtwork(42));
    const sideways = await sharp(photo).jpeg({ quality: 85 }).withMetadata({ orientation: 6 }).toBuffer();
    await expectSameAsOneCall(sideways, [819, 1024]);
    const mirrored = await sharp(photo).jpeg({ quality: 85 }).withMetadata({ orientation: 2 }).toBuffer();
    await expectSameAsOneCall(mirrored, [1024, 819]);
  });

  it('enlarges a catalogue reference a pixel short of 512 px as sharp does, and one just under 1,024 px', async () => {
    const art = await pinArtwork(46);
    for (const [w, h] of [[511, 511], [511, 384], [300, 511]] as const) {
      const ref = await sharp(art).resize(w, h, { fit: 'fill' }).jpeg({ quality: 95 }).toBuffer();
      const expected = await oneCall(ref, 512);
      await expectSameAsOneCall(ref, [expected.width, expected.height], 512);
    }
    const nearly = await sharp(await phonePhoto(art)).resize(1023, 1023, { fit: 'fill' }).jpeg().toBuffer();
    await expectSameAsOneCall(nearly, [1024, 1024]);
  });

  it('flattens transparency onto white, and decodes a one-pixel strip and a large photo as before', async () => {
    const cut = await sharp(await pinArtwork(43)).ensureAlpha().resize(300, 300).png().toBuffer();
    await expectSameAsOneCall(cut, [1024, 1024]);
    const strip = await sharp({ create: { width: 700, height: 1, channels: 3, background: '#406080' } }).png().toBuffer();
    await expectSameAsOneCall(strip, [1024, 1]);
    const large = await sharp(await phonePhoto(await pinArtwork(44))).resize(1600, 1280).jpeg().toBuffer();
    await expectSameAsOneCall(large, [1024, 819]);
  });

  it('refuses a damaged photo as before', async () => {
    const photo = await phonePhoto(await pinArtwork(45));
    await expect(decodeRGB(photo.subarray(0, photo.length >> 1), 1024, 1024, true)).rejects.toThrow();
  });
});
