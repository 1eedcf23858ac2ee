/**
 * The descriptor budget (`descriptorShare` in vocab.server.ts): a large catalogue keeps an equal share
 * of a fixed number of descriptors an image, so that the server's memory stays bounded; a small one
 * keeps all of ORB's 1,000. Here an index of a few pins is given a budget small enough to thin them.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { extractFeatures, VisualIndex } from '~/services/identification/engine.server';
import { DESCRIPTOR_BUDGET, descriptorShare, MIN_IMAGE_DESCRIPTORS, pickRows, spreadPick } from '~/services/identification/vocab.server';
import { phonePhoto, pinArtwork } from '../support/identify';

const refs = new Map<string, Buffer>();
const features = new Map<string, Uint8Array>();

beforeAll(async () => {
  for (const seed of [41, 42, 43, 44, 45, 46]) refs.set(`pin-${seed}`, await pinArtwork(seed));
  for (const [id, picture] of refs) features.set(id, await extractFeatures(picture));
}, 60_000);

const indexWith = (budget?: number) => {
  const index = new VisualIndex(async (imageId) => refs.get(imageId) ?? null);
  if (budget) index.descriptorBudget = budget;
  return index;
};

describe('the descriptor budget', () => {
  it('lets a catalogue of up to about 4,200 images keep all 1,000 descriptors an image, and shares it beyond', () => {
    expect(descriptorShare(300)).toBeGreaterThanOrEqual(1000);
    expect(descriptorShare(4194)).toBeGreaterThanOrEqual(1000);
    expect(descriptorShare(5056)).toBe(829);
    expect(5056 * descriptorShare(5056)).toBeLessThanOrEqual(DESCRIPTOR_BUDGET);
    expect(descriptorShare(1_000_000)).toBe(MIN_IMAGE_DESCRIPTORS);
  });

  it('picks a share spread evenly over the list, first to last, in order', () => {
    const pick = Array.from(spreadPick(1000, 829));
    expect(pick).toHaveLength(829);
    expect(pick[0]).toBe(0);
    expect(pick[828]).toBe(999);
    expect(pick.every((v, k) => k === 0 || v > pick[k - 1])).toBe(true);
    // every hundred of the list (a pyramid level, say) keeps its share
    for (let from = 0; from < 1000; from += 100) expect(pick.filter((v) => v >= from && v < from + 100).length).toBeGreaterThanOrEqual(82);
    expect(Array.from(spreadPick(5, 10))).toEqual([0, 1, 2, 3, 4]);
    expect(Array.from(pickRows(new Uint16Array([1, 2, 3, 4, 5, 6]), 2, new Int32Array([0, 2])))).toEqual([1, 2, 5, 6]);
  });

  it('holds a catalogue within its budget, each image its share, and still names a photo of its pin', async () => {
    const whole = indexWith();
    const thin = indexWith(6 * 500);
    for (const [id, f] of features) {
      whole.add({ imageId: id, pinId: id, features: f });
      thin.add({ imageId: id, pinId: id, features: f });
    }
    await whole.warmUp();
    await thin.warmUp();
    expect(whole.descriptors).toBeGreaterThan(6 * 500);
    expect(thin.descriptors).toBeLessThanOrEqual(6 * 500);
    expect(thin.descriptors).toBeGreaterThan(6 * 450);
    const photo = await phonePhoto(refs.get('pin-43') as Buffer, { rotate: 10 });
    const answer = await thin.match(photo);
    expect(answer.reason).toBe('match');
    expect(answer.best?.pinId).toBe('pin-43');
  }, 120_000);

  it('gives the images added while the catalogue was smaller their share when the vocabulary is built', async () => {
    const told = indexWith(6 * 400);
    const untold = indexWith(6 * 400);
    told.expectImages(6);
    for (const [id, f] of features) {
      told.add({ imageId: id, pinId: id, features: f });
      untold.add({ imageId: id, pinId: id, features: f });
    }
    // told how many are coming, the index thins each as it is added; otherwise the first ones wait
    expect(told.descriptors).toBeLessThanOrEqual(6 * 400);
    expect(untold.descriptors).toBeGreaterThan(6 * 400);
    await told.warmUp();
    await untold.warmUp();
    expect(untold.descriptors).toBeLessThanOrEqual(6 * 400);
    expect(untold.descriptors).toBe(told.descriptors);
    const photo = await phonePhoto(refs.get('pin-45') as Buffer, { rotate: -8 });
    expect((await told.match(photo)).best?.pinId).toBe('pin-45');
    expect((await untold.match(photo)).best?.pinId).toBe('pin-45');
  }, 120_000);
});
