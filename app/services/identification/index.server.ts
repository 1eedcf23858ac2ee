/**
 * The live visual index of the catalogue: one VisualIndex per process.
 *
 * Lifecycle
 * - at server start (`startVisualIndex`, called once migrations ran) every stored feature row of
 *   the current engine is loaded for the images the pins reference, and the vocabulary is built, in
 *   slices that let the server answer between them (`/healthz` and pages answer at once; identify
 *   answers 503 "warming up" until the index is ready, `identificationIndexStatus`); images without features (a
 *   new engine version, a database filled by hand) are extracted in the background afterwards, and
 *   the decoded pixels (reference-pixels.server.ts) of rows stored without them, or in an earlier
 *   form, are made then too;
 * - pin services call `indexPinImages` / `removePinFromIndex` after their transaction commits, so
 *   a new pin is identifiable on the next photo without a restart;
 * - the catalogue import (a separate process) calls `storeImageFeatures`, so the server finds the
 *   features ready in `image_features` when it starts.
 */
import { availableParallelism } from 'node:os';
import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { db } from '~/db/index.server';
import { ensureMigrated } from '~/db/client.server';
import { imageFeatures, pins } from '~/db/schema';
import { ServiceUnavailable } from '../errors';
import { getImageMaster } from '../images.server';
import { DETAIL_WORKER_FILE, DetailWorker } from './detail-worker.server';
import { extractFeatures, VisualIndex } from './engine.server';
import { getCV } from './opencv.server';
import { PIXELS_MAGIC, referencePixels } from './reference-pixels.server';

/**
 * The name/version written to `image_features.engine`. Rows of another engine are not loaded;
 * the background backfill re-extracts them, so changing the engine needs no manual migration.
 */
export const FEATURE_ENGINE = 'pindex-visual-v9';

const LOAD_BATCH = 50;

/** Lets the requests waiting for the event loop run (the index loads and builds between them). */
const pause = () => new Promise<void>((resolve) => setImmediate(resolve));

/** What identification answers (503, with Retry-After) while the server's index is warming up. */
export const WARMING_UP_MESSAGE = 'Pin identification is warming up. Please try again in a few seconds.';

interface IndexState {
  index: VisualIndex;
  /** resolves when the stored features are in memory (not waiting for the backfill) */
  loaded: Promise<void>;
  /** resolves when the background backfill finished */
  backfilled: Promise<void>;
  /** pins removed while loading, so a slow load does not bring them back */
  removedDuringLoad: Set<string>;
  loading: boolean;
  /** the server's index: loaded, then built in slices (`ready` once identify may use it) */
  server: boolean;
  phase: 'loading' | 'building' | 'ready' | 'failed';
  /** resolves when the index may be used: loaded (and, for the server's, built) */
  ready: Promise<void>;
}

const globalForIndex = globalThis as unknown as { __pindexVisualIndex?: IndexState };

/** The image ids the pins reference (pins.images), as imageId -> the pins that have it (two pins may share one). */
async function referencedImages(): Promise<Map<string, string[]>> {
  const rows = await db().select({ id: pins.id, images: pins.images }).from(pins);
  const byImage = new Map<string, string[]>();
  for (const row of rows) {
    for (const imageId of new Set(row.images ?? [])) {
      const holders = byImage.get(imageId);
      if (holders) holders.push(row.id);
      else byImage.set(imageId, [row.id]);
    }
  }
  return byImage;
}

/**
 * Adds the stored features of the current engine for every image the pins reference to `index`, in
 * the order the server loads them (the order decides the vocabulary); returns the image ids that have
 * none. `skip` leaves out pins (removed while loading). The benchmark loads a kept database so too.
 */
export async function loadStoredFeatures(index: VisualIndex, skip: (pinId: string) => boolean = () => false): Promise<string[]> {
  await ensureMigrated();
  const byImage = await referencedImages();
  const ids = [...byImage.keys()];
  const found = new Set<string>();
  // each image is indexed once per pin that shows it
  index.expectImages([...byImage.values()].reduce((n, pinIds) => n + pinIds.length, 0));
  for (let i = 0; i < ids.length; i += LOAD_BATCH) {
    const batch = ids.slice(i, i + LOAD_BATCH);
    const rows = await db()
      .select({ imageId: imageFeatures.imageId, features: imageFeatures.features })
      .from(imageFeatures)
      .where(and(inArray(imageFeatures.imageId, batch), eq(imageFeatures.engine, FEATURE_ENGINE)));
    for (const row of rows) {
      for (const pinId of byImage.get(row.imageId) ?? []) {
        if (skip(pinId)) continue;
        index.add({ imageId: row.imageId, pinId, features: row.features }); // read, not kept: no copy
      }
      found.add(row.imageId);
    }
    await pause(); // the server answers requests between batches
  }
  return ids.filter((id) => !found.has(id));
}

/**
 * A visual index that reads references from the image store, and thumbnails and decoded pixels from
 * the stored features, as the server's.
 */
export function storeBackedIndex(worker: DetailWorker | null): VisualIndex {
  return new VisualIndex(getImageMaster, storedFeatures, worker, storedPixels);
}

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** The row of an image's features, when they are of the current engine. */
const currentRow = (imageId: string) => and(eq(imageFeatures.imageId, imageId), eq(imageFeatures.engine, FEATURE_ENGINE));

/** An image's features and decoded pixels (reference-pixels.server.ts), as stored; no database work. */
export interface ComputedFeatures {
  features: Uint8Array;
  pixels: Uint8Array;
}

/** Extracts an image's features and decodes its pixels (no database work: the seed runs it on worker threads). */
/** How an image's features are computed: on this thread, or elsewhere (the catalogue import's worker threads). */
export type Compute = (master: Buffer) => Promise<ComputedFeatures>;

export async function computeImageFeatures(master: Buffer): Promise<ComputedFeatures> {
  const features = await extractFeatures(master);
  return { features, pixels: await referencePixels(await getCV(), master, features) };
}

/** Stores an image's computed features and pixels as the current engine's. */
export async function storeComputedFeatures(imageId: string, computed: ComputedFeatures): Promise<void> {
  const bytes = asBuffer(computed.features);
  const pixels = asBuffer(computed.pixels);
  await db()
    .insert(imageFeatures)
    .values({ imageId, engine: FEATURE_ENGINE, features: bytes, pixels })
    .onConflictDoUpdate({ target: imageFeatures.imageId, set: { engine: FEATURE_ENGINE, features: bytes, pixels, createdAt: new Date() } });
}

/**
 * Extracts and stores features for one stored image, with its decoded pixels
 * (reference-pixels.server.ts); returns the features (null if the image is gone).
 */
async function extractAndStore(imageId: string, compute: Compute = computeImageFeatures): Promise<Uint8Array | null> {
  const master = await getImageMaster(imageId);
  if (!master) return null;
  const computed = await compute(master);
  await storeComputedFeatures(imageId, computed);
  return computed.features;
}

/**
 * Makes and stores the decoded pixels of an image whose features of the current engine are stored
 * without them (stored by an earlier version); false when there is nothing to make them from.
 */
async function storePixels(imageId: string): Promise<boolean> {
  const [master, features] = await Promise.all([getImageMaster(imageId), storedFeatures(imageId)]);
  if (!master || !features) return false;
  const pixels = asBuffer(await referencePixels(await getCV(), master, features));
  // only onto the features they were made from: an extraction in between wrote its own
  const done = await db()
    .update(imageFeatures)
    .set({ pixels })
    .where(and(currentRow(imageId), eq(imageFeatures.features, asBuffer(features))))
    .returning({ imageId: imageFeatures.imageId });
  return done.length > 0;
}

/** Stored decoded pixels of an image (with features of the current engine), or null. */
async function storedPixels(imageId: string): Promise<Uint8Array | null> {
  const row = await db().select({ pixels: imageFeatures.pixels }).from(imageFeatures).where(currentRow(imageId)).get();
  return row?.pixels ?? null;
}

/**
 * The images the pins reference whose features of the current engine are stored without pixels, or
 * with pixels of an earlier form (before the tint or the pin mask: they read, without it).
 */
async function imagesWithoutPixels(): Promise<string[]> {
  const referenced = await referencedImages();
  const rows = await db()
    .select({ imageId: imageFeatures.imageId })
    .from(imageFeatures)
    .where(
      and(
        eq(imageFeatures.engine, FEATURE_ENGINE),
        or(isNull(imageFeatures.pixels), sql`substr(${imageFeatures.pixels}, 1, 4) <> ${PIXELS_MAGIC}`),
      ),
    );
  return rows.map((r) => r.imageId).filter((id) => referenced.has(id));
}

/** Stored features of the current engine for an image, or null. */
async function storedFeatures(imageId: string): Promise<Uint8Array | null> {
  const row = await db().select({ features: imageFeatures.features }).from(imageFeatures).where(currentRow(imageId)).get();
  return row ? row.features : null;
}

async function backfill(state: IndexState, missing: string[]): Promise<void> {
  await backfillFeatures(state, missing);
  await storeMissingPixels();
}

/**
 * Stores the decoded pixels of the referenced images whose features were stored without them (by an
 * earlier version): until then, the match decodes those images' JPEGs on each photo. Pixels of an
 * earlier form are made again too: they lack the tint channel, and letters printed in a colour about
 * as light as the enamel behind them go unread until then, or the thumbnail's pin mask, which each
 * photo then finds again. The server does it in the background after the load; returns how many it
 * stored.
 */
export async function storeMissingPixels(): Promise<number> {
  const ids = await imagesWithoutPixels();
  if (ids.length === 0) return 0;
  console.log(`[identify] decoding ${ids.length} reference image(s) for the match in the background`);
  let done = 0;
  for (const imageId of ids) {
    try {
      if (await storePixels(imageId)) done++;
    } catch (error) {
      console.error(`[identify] decoding reference image ${imageId} failed`, error);
    }
    await new Promise((resolve) => setImmediate(resolve)); // let requests run between images
  }
  console.log(`[identify] background decoding finished (${done} image(s))`);
  return done;
}

async function backfillFeatures(state: IndexState, missing: string[]): Promise<void> {
  if (missing.length === 0) return;
  console.log(`[identify] extracting features for ${missing.length} reference image(s) in the background`);
  const byImage = await referencedImages();
  let done = 0;
  for (const imageId of missing) {
    const pinIds = byImage.get(imageId);
    if (!pinIds) continue;
    try {
      const features = (await storedFeatures(imageId)) ?? (await extractAndStore(imageId));
      for (const pinId of pinIds) {
        // the pin may have been deleted or changed while we worked
        const current = await db().select({ images: pins.images }).from(pins).where(eq(pins.id, pinId)).get();
        if (features && current?.images.includes(imageId)) state.index.add({ imageId, pinId, features });
      }
    } catch (error) {
      console.error(`[identify] feature extraction failed for image ${imageId}`, error);
    }
    done++;
    // let requests run between images
    await new Promise((resolve) => setImmediate(resolve));
  }
  console.log(`[identify] background extraction finished (${done} image(s))`);
}

/**
 * The worker that shares each photo's work on the second core (half of its ORB, half of its
 * candidates' geometry, the strongest candidate's detail check), bundled beside the server build
 * (absent when the sources run directly, as in the unit tests: then one thread does all). Used where
 * there is a second core (IDENTIFY_WORKER=on forces it, =off keeps all the work on the main thread):
 * on one core it would only cost the memory of a second OpenCV.
 */
function detailWorker(): DetailWorker | null {
  const setting = process.env.IDENTIFY_WORKER;
  if (setting === 'off' || (setting !== 'on' && availableParallelism() < 2)) return null;
  const worker = DetailWorker.at(new URL(`./${DETAIL_WORKER_FILE}`, import.meta.url));
  if (worker) console.log('[identify] each photo\'s work is shared with a worker thread');
  return worker;
}

function createState(server: boolean): IndexState {
  const state: IndexState = {
    index: storeBackedIndex(detailWorker()),
    loaded: Promise.resolve(),
    backfilled: Promise.resolve(),
    removedDuringLoad: new Set(),
    loading: true,
    server,
    phase: 'loading',
    ready: Promise.resolve(),
  };
  const started = performance.now();
  const missing = loadStoredFeatures(state.index, (pinId) => state.removedDuringLoad.has(pinId));
  let failed = false;
  state.loaded = missing.then(
    () => {
      state.loading = server; // the server's index changes nothing until it is built
      if (!server) state.removedDuringLoad.clear();
    },
    (error) => {
      failed = true;
      state.loading = false;
      state.phase = 'failed';
      console.error('[identify] loading the visual index failed', error);
    },
  );
  // the server builds the matching structures before the first photo, in slices between requests
  state.ready = server
    ? state.loaded
        .then(async () => {
          if (failed) return;
          state.phase = 'building';
          await state.index.warmUp(pause);
          await state.index.rehearse();
        })
        .catch((error: unknown) => console.error('[identify] warm-up failed', error))
        .finally(() => {
          for (const pinId of state.removedDuringLoad) state.index.removePin(pinId);
          state.removedDuringLoad.clear();
          state.loading = false;
          if (state.phase !== 'failed') {
            state.phase = 'ready';
            console.log(`[identify] visual index ready: ${state.index.size} image(s), ${state.index.descriptors} descriptors, in ${((performance.now() - started) / 1000).toFixed(1)} s`);
          }
        })
    : state.loaded.then(() => {
        if (state.phase !== 'failed') state.phase = 'ready';
      });
  state.backfilled = server
    ? Promise.all([missing, state.ready]).then(
        ([ids]) => backfill(state, ids),
        () => undefined,
      )
    : state.loaded;
  return state;
}

/**
 * Starts loading the index (idempotent) and then extracts missing features in the background.
 * The server calls it at start; identification waits for the load, not for the backfill.
 */
export function startVisualIndex(): Promise<void> {
  globalForIndex.__pindexVisualIndex ??= createState(true);
  return globalForIndex.__pindexVisualIndex.ready;
}

/**
 * The process-wide index, once it may be used. Outside the server (seed, tests) it loads without
 * the background backfill: those callers index what they add themselves.
 */
export async function getVisualIndex(): Promise<VisualIndex> {
  globalForIndex.__pindexVisualIndex ??= createState(false);
  await globalForIndex.__pindexVisualIndex.ready;
  return globalForIndex.__pindexVisualIndex.index;
}

/**
 * The index for a photo: at once when it is ready; while the server's index is still loading or
 * being built, a 503 with Retry-After ("warming up") rather than a request that hangs.
 */
export async function getReadyVisualIndex(): Promise<VisualIndex> {
  const state = globalForIndex.__pindexVisualIndex;
  if (state?.server && state.phase !== 'ready') throw new ServiceUnavailable(WARMING_UP_MESSAGE, 5);
  return getVisualIndex();
}

/** The identification index's state for /healthz: not started (outside the server), loading, building, ready or failed. */
export function identificationIndexStatus(): { state: IndexState['phase'] | 'idle'; images: number } {
  const state = globalForIndex.__pindexVisualIndex;
  return state ? { state: state.phase, images: state.index.size } : { state: 'idle', images: 0 };
}

/** Resolves when the background extraction of missing features has finished (tests, CLI). */
export async function visualIndexSettled(): Promise<VisualIndex> {
  await getVisualIndex();
  const state = globalForIndex.__pindexVisualIndex as IndexState;
  await state.backfilled;
  return state.index;
}

/** Forgets the in-memory index (tests that swap databases). */
export function resetVisualIndex(): void {
  globalForIndex.__pindexVisualIndex = undefined;
}

/**
 * Extracts and stores features (and decoded pixels) for images that have none for the current
 * engine, and the pixels of those stored without them (no memory index involved). The catalogue
 * import uses it so a server started afterwards loads them at once. Returns how many were extracted.
 */
export async function storeImageFeatures(imageIds: string[], opts: { force?: boolean; compute?: Compute } = {}): Promise<number> {
  let extracted = 0;
  for (const imageId of new Set(imageIds)) {
    if (!opts.force && (await storedFeatures(imageId))) {
      if (!(await storedPixels(imageId))) await storePixels(imageId);
      continue;
    }
    if (await extractAndStore(imageId, opts.compute)) extracted++;
  }
  return extracted;
}

/** Extracts (and stores) features for the given reference images of a pin and indexes them. */
export async function indexPinImages(pinId: string, imageIds: string[]): Promise<void> {
  const pending = globalForIndex.__pindexVisualIndex;
  if (pending?.server && pending.phase !== 'ready') {
    // the server's index is warming up: the pin is indexed once it is ready, without holding its request
    void pending.ready.then(() => indexPinImages(pinId, imageIds)).catch((error: unknown) => console.error('[identify] indexing a new pin failed', error));
    return;
  }
  const index = await getVisualIndex();
  const state = globalForIndex.__pindexVisualIndex as IndexState;
  state.removedDuringLoad.delete(pinId);
  for (const imageId of new Set(imageIds)) {
    const features = (await storedFeatures(imageId)) ?? (await extractAndStore(imageId));
    if (features) index.add({ imageId, pinId, features });
  }
}

/** Drops a deleted pin (or replaced images) from the index. */
export async function removePinFromIndex(pinId: string): Promise<void> {
  const state = globalForIndex.__pindexVisualIndex;
  if (!state) return; // nothing loaded yet: the load reads the current pins anyway
  if (state.loading) state.removedDuringLoad.add(pinId);
  // the server's index changes nothing while it is built: the pin goes once it is ready
  if (!(state.server && state.phase === 'building')) state.index.removePin(pinId);
}
