/**
 * The demo seed makes its pins' photos on worker threads and keeps them in a cache folder: the
 * catalogue a collector sees and identifies against must be the same, byte for byte, as when one
 * thread makes every photo, and a kept photo must be used only by the toolchain that made it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { PinArt } from '../../drizzle/seed-data/pin-art';
import { PinImagePool, renderPinImage, type PinImage } from '../../drizzle/seed-data/pin-images';

const art: PinArt = { shape: 'shield', metal: 'gold', enamel: ['Navy', '#1b2a6b', '#c8102e'], team: 'Cedar Falls Comets', line2: '12U 2019', motif: 'ball', variant: 1 };
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pindex-seed-cache-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const bytesOf = (image: PinImage) => ({
  id: image.prepared.id,
  master: Buffer.from(image.prepared.master).toString('base64'),
  variants: image.prepared.variants.map((v) => `${v.variant}/${v.format} ${v.width}x${v.height} ${Buffer.from(v.bytes).toString('base64')}`),
  features: Buffer.from(image.computed.features).toString('base64'),
  pixels: Buffer.from(image.computed.pixels).toString('base64'),
});

describe('the seed photo pool', () => {
  it('makes on a worker thread, and keeps, the same photo as this thread', async () => {
    const here = await renderPinImage(art);
    expect(here.prepared.variants).toHaveLength(4);

    fs.mkdirSync(path.join(dir, 'an-older-toolchain'));
    const pool = new PinImagePool(1, dir);
    const [once, twice] = await Promise.all([pool.render(art), pool.render({ ...art })]);
    await pool.close();
    expect(pool.stats).toEqual({ made: 1, cached: 0 });
    expect(Buffer.isBuffer(once.prepared.master)).toBe(true);
    expect(bytesOf(once)).toEqual(bytesOf(here));
    expect(twice).toBe(once);
    // the photos of another toolchain are gone: they would never be read again
    expect(fs.readdirSync(dir)).toHaveLength(1);

    const again = new PinImagePool(1, dir);
    const kept = await again.render(art);
    await again.close();
    expect(again.stats).toEqual({ made: 0, cached: 1 });
    expect(bytesOf(kept)).toEqual(bytesOf(here));
  });
});
