/**
 * Where onnxruntime-node cannot load (a platform its package ships no binary for, such as a musl
 * Linux), the lettering is not read: extraction stores no lines, no reading refuses a pin, the
 * server says so once in its log, and photos are still matched and named.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { decodeFeatures, decodeRGB } from '~/services/identification/features.server';
import { extractFeatures, VisualIndex } from '~/services/identification/engine.server';
import { getCV } from '~/services/identification/opencv.server';
import { findTextLines, readPhotoLines, warmTextReader } from '~/services/identification/text.server';
import { phonePhoto, pinArtwork } from '../support/identify';

vi.mock('onnxruntime-node', () => {
  throw new Error('onnxruntime-node has no binary for this platform');
});

const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
afterAll(() => warn.mockRestore());
const said = () => warn.mock.calls.filter(([text]) => String(text).includes('the lettering is not read as text'));

describe('without the OCR runtime', () => {
  it('finds no line, refutes no photo, and says so once', async () => {
    const cv = await getCV();
    await warmTextReader();
    const reference = await decodeRGB(await pinArtwork(31, 'EAGLES', 2019), 512);
    expect(await findTextLines(cv, reference)).toEqual([]);
    // a line stored by a server that could read (another year of the pin in the photo)
    const lines = [{ x: 180, y: 300, w: 150, h: 60, text: '2016' }];
    expect(await readPhotoLines(cv, reference, [1, 0, 0, 0, 1, 0, 0, 0, 1], reference, lines)).toEqual([]);
    expect(said()).toHaveLength(1);
  });

  it('still extracts references and names the pin in a photo', async () => {
    const eagles = await pinArtwork(31, 'EAGLES', 2019);
    const refs = new Map<string, Buffer>([['eagles.jpg', eagles]]);
    const index = new VisualIndex(async (imageId) => refs.get(imageId) ?? null);
    const features = await extractFeatures(eagles);
    expect(decodeFeatures(features).text).toEqual([]);
    index.add({ imageId: 'eagles.jpg', pinId: 'eagles', features });
    for (const seed of [32, 33, 34]) {
      const art = await pinArtwork(seed);
      refs.set(`pin-${seed}.jpg`, art);
      index.add({ imageId: `pin-${seed}.jpg`, pinId: `pin-${seed}`, features: await extractFeatures(art) });
    }
    const result = await index.match(await phonePhoto(eagles, { rotate: 14, size: 340 }));
    expect(result.reason).toBe('match');
    expect(result.best?.pinId).toBe('eagles');
    expect(said()).toHaveLength(1);
  }, 60_000);
});
