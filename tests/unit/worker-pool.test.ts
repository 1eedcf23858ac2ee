/**
 * The command-line tools' worker threads (app/cli/worker-pool.ts): the catalogue import computes
 * its pins' identification features on them, and those must be the bytes this thread computes (a
 * pin imported so is found as one added through the app); a worker that cannot run hands its jobs
 * back to this thread rather than losing them.
 */
import { describe, expect, it } from 'vitest';
import { WorkerPool, threadsFrom } from '~/cli/worker-pool';
import { computeImageFeatures, type ComputedFeatures } from '~/services/identification/index.server';
import { pinArtwork } from '../support/identify';

const base64 = (c: ComputedFeatures) => ({ features: Buffer.from(c.features).toString('base64'), pixels: Buffer.from(c.pixels).toString('base64') });

describe('worker pool', () => {
  it('computes an imported image’s features on a worker thread, byte for byte as this thread', async () => {
    const masters = [await pinArtwork(7101, 'OWLS'), await pinArtwork(7102, 'MOOSE')];
    const pool = new WorkerPool<Buffer, ComputedFeatures>(new URL('../../app/cli/catalogue-features.worker.ts', import.meta.url), computeImageFeatures, 2);
    const onWorkers = await Promise.all(masters.map((m) => pool.run(m)));
    await pool.close();
    for (const [i, master] of masters.entries()) expect(base64(onWorkers[i])).toEqual(base64(await computeImageFeatures(master)));
  }, 120_000);

  it('runs the jobs on this thread when its worker cannot start', async () => {
    const pool = new WorkerPool<number, number>(new URL('./no-such-worker.ts', import.meta.url), async (n) => n * 2, 1);
    // the first job was on the worker when it failed: it runs here too, with the others
    expect(await Promise.all([pool.run(1), pool.run(2), pool.run(3)])).toEqual([2, 4, 6]);
    // and no worker is started again for the next jobs
    const next = pool.run(21);
    expect(pool.running).toBe(0);
    expect(await next).toBe(42);
    await pool.close();
  }, 60_000);

  it('takes its thread count from the environment, else one a core', () => {
    expect(threadsFrom('0')).toBe(0);
    expect(threadsFrom('3')).toBe(3);
    expect(threadsFrom(undefined)).toBeGreaterThanOrEqual(1);
    expect(threadsFrom('many')).toBeGreaterThanOrEqual(1);
  });
});
