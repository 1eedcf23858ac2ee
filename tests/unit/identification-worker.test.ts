/**
 * The second core: the server finds half of a photo's ORB pyramid, searches the posting lists for
 * half of its descriptors' votes, counts and fits half of its candidates' geometry (and matches
 * half of the references cut out of photos exhaustively), aligns half of the pairs of references
 * that duel, makes a motion blur's spectrum, and starts the strongest candidate's detail check in a
 * worker thread (the bundled build/detail-worker.js) while the main thread does the rest. A
 * collector must get the same answer as from one thread, and an answer even when the worker fails.
 * The worker is bundled here as `npm run build` bundles it.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDetailWorker } from '../../app/cli/build-worker.js';
import { deblurGray, deblurSize, kernelSpectrum } from '~/services/identification/blur.server';
import { DetailWorker } from '~/services/identification/detail-worker.server';
import { extractFeatures, VisualIndex } from '~/services/identification/engine.server';
import { decodeFeatures, decodeRGB, openCvOrb, runOrbLevels, toGray } from '~/services/identification/features.server';
import { fitPinHomography, quickFit, referencePairHomography } from '~/services/identification/geometry.server';
import { asWords, ratioMatches } from '~/services/identification/vocab.server';
import { getCV } from '~/services/identification/opencv.server';
import { mulberry32 } from '~/utils/random';
import { motionBlurred, phonePhoto, pinArtwork } from '../support/identify';

const cacheDir = fileURLToPath(new URL('../../node_modules/.cache/pindex', import.meta.url));
const refs = new Map<string, Buffer>();
const load = async (imageId: string) => refs.get(imageId) ?? null;
let dir: string;
let worker: DetailWorker;
let oneThread: VisualIndex;
let twoThreads: VisualIndex;
const photos: { name: string; photo: Buffer }[] = [];

async function addPin(pinId: string, picture: Buffer, indexes: VisualIndex[], store = refs) {
  store.set(pinId, picture);
  const features = await extractFeatures(picture);
  for (const index of indexes) index.add({ imageId: pinId, pinId, features });
}

beforeAll(async () => {
  // inside the project, as build/ is, so that the worker finds the packages it leaves to node_modules
  mkdirSync(cacheDir, { recursive: true });
  dir = mkdtempSync(path.join(cacheDir, 'worker-'));
  const file = await buildDetailWorker(path.join(dir, 'detail-worker.js'));
  worker = DetailWorker.at(pathToFileURL(file)) as DetailWorker;
  oneThread = new VisualIndex(load);
  twoThreads = new VisualIndex(load, undefined, worker);
  const both = [oneThread, twoThreads];
  await addPin('eagles', await pinArtwork(31, 'EAGLES', 2019), both);
  for (const seed of [32, 33, 34]) await addPin(`pin-${seed}`, await pinArtwork(seed), both);
  await addPin('spinner', await pinArtwork(41, 'SPINNERS', 2021, { spin: 0 }), both);
  // look-alikes read letter by letter: each is checked in detail, two at a time
  for (const year of [2017, 2018, 2019]) await addPin(`owls-${year}`, await pinArtwork(36, 'OWLS', year, { yearSize: 18 }), both);
  photos.push(
    { name: 'the pin, rotated and scaled', photo: await phonePhoto(await pinArtwork(31, 'EAGLES', 2019), { rotate: 14, size: 340 }) },
    { name: 'another team name', photo: await phonePhoto(await pinArtwork(31, 'RAVENS', 2019), { rotate: 14, size: 340 }) },
    { name: 'a turned spinner', photo: await phonePhoto(await pinArtwork(41, 'SPINNERS', 2021, { spin: 70 }), { rotate: 12, size: 380 }) },
    { name: 'a year of two look-alikes', photo: await phonePhoto(await pinArtwork(36, 'OWLS', 2018, { yearSize: 18 }), { rotate: 14, size: 340 }) },
    { name: 'a pin never seen', photo: await phonePhoto(await pinArtwork(77), { rotate: 5 }) },
  );
}, 120_000);

afterAll(async () => {
  await worker?.close();
  rmSync(dir, { recursive: true, force: true });
});

const answer = (r: Awaited<ReturnType<VisualIndex['match']>>) => ({ best: r.best, candidates: r.candidates, reason: r.reason });

describe('the second core', () => {
  it('gives every photo the same answer as one thread, with the checks done by the worker', async () => {
    const before = worker.completed;
    const orbsBefore = worker.orbsCompleted;
    const geometryBefore = worker.geometryCompleted;
    const pairsBefore = worker.pairsCompleted;
    const votesBefore = worker.votesCompleted;
    for (const { name, photo } of photos) {
      // two threads first: the aligned pairs of references are kept for the process, so the pairs that
      // the look-alikes' duels need are aligned here, half of them by the worker (and the next test
      // compares the worker's alignment with this thread's)
      const shared = answer(await twoThreads.match(photo));
      expect(shared, name).toEqual(answer(await oneThread.match(photo)));
    }
    expect(answer(await twoThreads.match(photos[0].photo)).best?.pinId).toBe('eagles');
    expect(answer(await twoThreads.match(photos[3].photo)).best?.pinId).toBe('owls-2018');
    expect(worker.completed - before).toBeGreaterThanOrEqual(photos.length);
    expect(worker.orbsCompleted - orbsBefore).toBe(photos.length + 2);
    expect(worker.geometryCompleted - geometryBefore).toBeGreaterThan(0);
    expect(worker.pairsCompleted - pairsBefore).toBeGreaterThan(0); // the look-alikes' duels
    expect(worker.votesCompleted - votesBefore).toBe(photos.length + 2); // part of every photo's vote
  });

  it('checks a photo smeared by the phone moving against references smeared alike, in the worker as on one thread', async () => {
    // the photo's motion travels with each detail check to the worker, which smears its copy of the
    // reference as this thread does; one look-alike year is there to be read from the smeared photo.
    // The blur's spectrum for undoing it is made there too.
    const before = worker.completed;
    const kernelsBefore = worker.kernelsCompleted;
    for (const [pinId, picture, length] of [
      ['pin-33', await pinArtwork(33), 16],
      ['owls-2018', await pinArtwork(36, 'OWLS', 2018, { yearSize: 18 }), 10],
    ] as const) {
      const photo = await motionBlurred(await phonePhoto(picture, { rotate: 20, size: 300 }), length, 141);
      const shared = answer(await twoThreads.match(photo));
      expect(shared).toEqual(answer(await oneThread.match(photo)));
      expect(shared.best?.pinId).toBe(pinId);
    }
    expect(worker.completed - before).toBeGreaterThan(0);
    expect(worker.kernelsCompleted - kernelsBefore).toBeGreaterThan(0);
  });

  it('matches the references of pins added from photos in the worker as the main thread does', async () => {
    // a catalogue of their own: these references change the vocabulary, and so the other photos' candidates
    const own = new Map<string, Buffer>();
    const loadOwn = async (imageId: string) => own.get(imageId) ?? null;
    const one = new VisualIndex(loadOwn);
    const two = new VisualIndex(loadOwn, undefined, worker);
    for (const seed of [32, 33, 34]) await addPin(`pin-${seed}`, await pinArtwork(seed), [one, two], own);
    for (const seed of [951, 952]) await addPin(`added-${seed}`, await phonePhoto(await pinArtwork(seed), { rotate: 6, size: 200, cutOut: true }), [one, two], own);
    const before = worker.geometryCompleted;
    for (const seed of [951, 952]) {
      const photo = await phonePhoto(await pinArtwork(seed), { rotate: -12, size: 400 });
      const shared = answer(await two.match(photo));
      expect(shared).toEqual(answer(await one.match(photo)));
      expect(shared.best?.pinId).toBe(`added-${seed}`);
    }
    // two photos, each with its shortlist's geometry and one of the two photo references (at least) in the worker
    expect(worker.geometryCompleted - before).toBeGreaterThanOrEqual(4);
    // the exhaustive matching itself: 100 of the photo's descriptors a few bits from the first reference's
    const rnd = mulberry32(11);
    const descriptors = (n: number) => Uint32Array.from({ length: n * 8 }, () => Math.floor(rnd() * 2 ** 32));
    const query = descriptors(300);
    const near = Uint32Array.from(query.subarray(0, 800), (word, i) => (i % 8 === 0 ? word ^ 0b101 : word));
    const task = { query, refs: [near, descriptors(200)], acceptHamming: 50, ratio: 0.8 };
    const pairs = await worker.ratioMatches(task);
    expect(pairs).toEqual(task.refs.map((ref) => ratioMatches(query, ref, 50, 0.8)));
    expect(pairs[0]).toHaveLength(200);
  });

  it('aligns two references in the worker as the main thread does', async () => {
    const cv = await getCV();
    const features = async (seed: number, team: string, year: number) => {
      const f = decodeFeatures(await extractFeatures(await pinArtwork(seed, team, year, { yearSize: 18 })));
      return { points: f.points, desc: asWords(f.desc) };
    };
    const a = await features(36, 'OWLS', 2018);
    const pair = (b: { points: Float32Array; desc: Uint32Array }) => ({
      pointsA: a.points, descA: a.desc, pointsB: b.points, descB: b.desc, acceptHamming: 50, ratio: 0.8,
    });
    const lookAlike = pair(await features(36, 'OWLS', 2019)); // another year of the same design
    const other = pair(await features(33, 'HAWKS', 2020)); // another design
    const H = await worker.pairHomography(lookAlike);
    expect(H).toEqual(referencePairHomography(cv, lookAlike));
    expect(H).toHaveLength(9);
    expect(await worker.pairHomography(other)).toEqual(referencePairHomography(cv, other));
  });

  it('makes a motion blur\'s spectrum in the worker as the main thread does, and the photo deblurred with it is the same', async () => {
    const cv = await getCV();
    const photo = await decodeRGB(await motionBlurred(await phonePhoto(await pinArtwork(32), { quality: 92 }), 12, 115, 92), 640);
    const gray = toGray(photo);
    const blur = { angle: 115, length: 12 };
    const size = deblurSize(cv, photo.width, photo.height);
    const spectrum = await worker.kernelSpectrum({ blur, ...size });
    expect(spectrum).toEqual(kernelSpectrum(cv, blur, size.W, size.H));
    const here = await deblurGray(cv, gray, photo.width, photo.height, blur);
    const withTheirs = await deblurGray(cv, gray, photo.width, photo.height, blur, Promise.resolve(spectrum));
    expect(Buffer.from(withTheirs).equals(Buffer.from(here))).toBe(true);
    // the deblur changed the photo; a spectrum that cannot be had is made here
    expect(Buffer.from(here).equals(Buffer.from(gray))).toBe(false);
    expect(Buffer.from(await deblurGray(cv, gray, photo.width, photo.height, blur, Promise.resolve(null))).equals(Buffer.from(here))).toBe(true);
  });

  it('counts inliers and fits homographies in the worker as the main thread does', async () => {
    const cv = await getCV();
    // correspondences under a known perspective, with a share of outliers, and one set of outliers only
    const rnd = mulberry32(7);
    const sets = [0.2, 0.5, 0.8, 1].map((outliers) => {
      const src: number[] = [], dst: number[] = [];
      for (let i = 0; i < 120; i++) {
        const x = rnd() * 1000, y = rnd() * 800;
        const w = 1 + 0.0002 * x - 0.0001 * y;
        const wrong = rnd() < outliers;
        src.push(x, y);
        dst.push(wrong ? rnd() * 500 : (0.4 * x - 0.1 * y + 30) / w + rnd(), wrong ? rnd() * 500 : (0.1 * x + 0.45 * y + 12) / w + rnd());
      }
      return { src, dst, iters: 1000 };
    });
    const fits = await worker.fitPins(sets);
    expect(fits).toEqual(sets.map((c) => fitPinHomography(cv, c)));
    expect(fits[0].H).not.toBeNull();
    expect(fits[0].mask.reduce((n, v) => n + v, 0)).toBeGreaterThan(80);
    expect(await worker.quickFits(sets)).toEqual(sets.map((c) => quickFit(c, c.iters)));
  });

  it('finds, level by level on two threads, the keypoints and descriptors of one ORB over the whole pyramid', async () => {
    const cv = await getCV();
    const params = { nfeatures: 2000, fastThreshold: 10, nlevels: 8 };
    // the photos at the query size, and at sizes whose levels round differently
    for (const [k, { name, photo }] of photos.entries()) {
      const img = await decodeRGB(photo, [1024, 1003, 777, 640, 1024][k], 1024);
      const gray = toGray(img);
      const whole = openCvOrb(cv, gray, img.width, img.height, params);
      const near = runOrbLevels(cv, gray, img.width, img.height, params, [0, 1]);
      const far = await worker.orb({ gray, width: img.width, height: img.height, params, levels: [2, 3, 4, 5, 6, 7] });
      expect(whole.points.length, name).toBeGreaterThan(500);
      expect(Buffer.from(near.desc).length + far.desc.length, name).toBe(whole.desc.length);
      expect(Buffer.concat([near.desc, far.desc]).equals(Buffer.from(whole.desc)), name).toBe(true);
      expect([...near.points, ...far.points], name).toEqual([...whole.points]);
    }
  });

  it('answers each of several photos sent at once as it answers them one by one', async () => {
    const alone = await Promise.all(photos.map(({ photo }) => oneThread.match(photo)));
    const together = await Promise.all(photos.map(({ photo }) => twoThreads.match(photo)));
    expect(together.map(answer)).toEqual(alone.map(answer));
  });

  it('still answers, on the main thread, when the worker fails', async () => {
    const broken = path.join(dir, 'broken-worker.js');
    writeFileSync(broken, 'throw new Error("broken on purpose");\n');
    const failing = DetailWorker.at(pathToFileURL(broken)) as DetailWorker;
    const index = new VisualIndex(load, undefined, failing);
    for (const pinId of refs.keys()) index.add({ imageId: pinId, pinId, features: await extractFeatures(refs.get(pinId) as Buffer) });
    const errors = console.error;
    console.error = () => undefined; // the failure is logged
    try {
      for (const { name, photo } of photos) expect(answer(await index.match(photo)), name).toEqual(answer(await oneThread.match(photo)));
    } finally {
      console.error = errors;
      await failing.close();
    }
    expect(failing.completed).toBe(0);
  });

  it("is started, with its OpenCV loaded, by the index's warm-up, not by the first photo; a broken one is not waited for", async () => {
    const fresh = DetailWorker.at(pathToFileURL(path.join(dir, 'detail-worker.js'))) as DetailWorker;
    const broken = path.join(dir, 'broken-at-warm-up.js');
    writeFileSync(broken, 'throw new Error("broken on purpose");\n');
    const failing = DetailWorker.at(pathToFileURL(broken)) as DetailWorker;
    const errors = console.error;
    console.error = () => undefined; // the failure is logged
    try {
      const pause = () => new Promise<void>((resolve) => setImmediate(resolve));
      const index = new VisualIndex(load, undefined, fresh);
      index.add({ imageId: 'eagles', pinId: 'eagles', features: await extractFeatures(refs.get('eagles') as Buffer) });
      expect(fresh.warmed).toBe(false);
      await index.warmUp(pause);
      expect(fresh.warmed).toBe(true);
      await new VisualIndex(load, undefined, failing).warmUp(pause);
      expect(failing.warmed).toBe(false);
    } finally {
      console.error = errors;
      await fresh.close();
      await failing.close();
    }
  });

  it('is not used where it was not built', () => {
    expect(DetailWorker.at(pathToFileURL(path.join(dir, 'missing.js')))).toBeNull();
  });
});
