/**
 * The demo pins' photos: each artwork (pin-art.ts) rendered, stored as the image store stores an
 * upload (`prepareImage`: the master and its variants) and its identification features and decoded
 * pixels computed (`computeImageFeatures`). Almost all of a seed's time is spent here (about a
 * quarter of a second of CPU a photo), so the photos are made on worker threads, one a core, while
 * the seed writes the pins that are ready; the bytes are the same as one thread makes.
 *
 * Each photo is also kept in a cache folder beside the seeded database (`seed-cache/`), named by a
 * hash of its artwork and of everything that decides its bytes: the image store, the identification
 * engine's sources, this file, the versions of Node, sharp (libvips) and OpenCV, and the system's
 * fonts. A change to any of them makes the photos afresh (and the folder of the old ones is removed).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deserialize, serialize } from 'node:v8';
import sharp from 'sharp';
import { prepareImage, type PreparedImage } from '../../app/services/images.server';
import { computeImageFeatures, type ComputedFeatures } from '../../app/services/identification/index.server';
import { pinSvg, type PinArt } from './pin-art';
import { WorkerPool, threadsFrom } from '../../app/cli/worker-pool';

export interface PinImage {
  prepared: PreparedImage;
  computed: ComputedFeatures;
}

/** One photo of a pin, made on this thread. */
export async function renderPinImage(art: PinArt): Promise<PinImage> {
  const jpeg = await sharp(Buffer.from(pinSvg(art))).jpeg({ quality: 90 }).toBuffer();
  const prepared = await prepareImage(jpeg);
  return { prepared, computed: await computeImageFeatures(prepared.master) };
}

const asBuffer = (bytes: Uint8Array) => (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));

/** A photo as it arrives from a worker or the cache (buffers as plain Uint8Arrays), with its buffers again. */
function revive(image: PinImage): PinImage {
  const { prepared } = image;
  return {
    prepared: { ...prepared, master: asBuffer(prepared.master), variants: prepared.variants.map((v) => ({ ...v, bytes: asBuffer(v.bytes) })) },
    computed: image.computed,
  };
}

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Every file under `dir` (relative to the repository), sorted. */
function filesUnder(dir: string): string[] {
  const full = path.join(root, dir);
  if (!fs.statSync(full).isDirectory()) return [full];
  return fs
    .readdirSync(full, { recursive: true })
    .map((rel) => path.join(full, String(rel)))
    .filter((file) => fs.statSync(file).isFile())
    .sort();
}

/** The system's fonts (librsvg draws the artwork's lettering with them): each file's name, size and time. */
function fontFiles(): string[] {
  const out: string[] = [];
  for (const dir of ['/etc/fonts', '/usr/share/fonts', '/usr/local/share/fonts']) {
    if (!fs.existsSync(dir)) continue;
    for (const rel of fs.readdirSync(dir, { recursive: true })) {
      const stat = fs.statSync(path.join(dir, String(rel)), { throwIfNoEntry: false });
      if (stat?.isFile()) out.push(`${dir}/${String(rel)} ${stat.size} ${stat.mtimeMs}`);
    }
  }
  return out.sort();
}

/** What decides a photo's bytes besides its artwork: the sources, versions and fonts named above. */
function toolchainHash(): string {
  const hash = createHash('sha256');
  const require = createRequire(import.meta.url);
  const opencv = (require('@opencvjs/node/package.json') as { version: string }).version;
  hash.update(JSON.stringify({ node: process.versions, sharp: sharp.versions, opencv, fonts: fontFiles() }));
  for (const dir of ['app/services/identification', 'app/services/images.server.ts', 'app/utils/constants.ts', 'drizzle/seed-data/pin-images.ts']) {
    for (const file of filesUnder(dir)) hash.update(path.relative(root, file)).update('\0').update(fs.readFileSync(file)).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

/** The photos kept by earlier seeds with the same toolchain, in `dir/<toolchain hash>/`. */
class PhotoCache {
  private readonly dir: string;

  constructor(parent: string) {
    const current = toolchainHash();
    this.dir = path.join(parent, current);
    fs.mkdirSync(this.dir, { recursive: true });
    // photos made by another toolchain are never read again
    for (const entry of fs.readdirSync(parent)) if (entry !== current) fs.rmSync(path.join(parent, entry), { recursive: true, force: true });
  }

  /** How many photos are kept for this toolchain. */
  size(): number {
    return fs.readdirSync(this.dir).filter((f) => f.endsWith('.bin')).length;
  }

  private file(svg: string): string {
    return path.join(this.dir, `${createHash('sha256').update(svg).digest('hex').slice(0, 32)}.bin`);
  }

  read(svg: string): PinImage | null {
    try {
      return revive(deserialize(fs.readFileSync(this.file(svg))) as PinImage);
    } catch {
      return null; // not kept yet (or unreadable: made again)
    }
  }

  /** Keeps a photo (whole or not at all: written aside, then renamed); a cache that cannot be written is left be. */
  write(svg: string, image: PinImage): void {
    const file = this.file(svg);
    const tmp = `${file}.${process.pid}.tmp`;
    try {
      fs.writeFileSync(tmp, serialize(image));
      fs.renameSync(tmp, file);
    } catch {
      fs.rmSync(tmp, { force: true });
    }
  }
}

/**
 * Makes photos on `threads` worker threads (0: on this thread), in the order they are asked for,
 * each artwork once; `cacheDir` (or null) keeps them for the next seed.
 */
export class PinImagePool {
  private readonly made = new Map<string, Promise<PinImage>>();
  private readonly cache: PhotoCache | null;
  private readonly pool: WorkerPool<PinArt, PinImage>;
  readonly stats = { made: 0, cached: 0 };

  constructor(threads = threadsFrom(process.env.SEED_THREADS), cacheDir: string | null = null) {
    this.cache = cacheDir ? new PhotoCache(cacheDir) : null;
    this.pool = new WorkerPool(new URL('./pin-images.worker.ts', import.meta.url), renderPinImage, threads, revive);
  }

  /**
   * Starts the workers now (their start, loading sharp, the database drivers and OpenCV, takes a
   * second or more of CPU each), unless the cache already holds photos of this toolchain: those seeds
   * make few photos, if any, and start a worker only when one is asked for.
   */
  warm(): void {
    if (this.cache?.size()) return;
    this.pool.start();
  }

  render(art: PinArt): Promise<PinImage> {
    const svg = pinSvg(art);
    let pending = this.made.get(svg);
    if (!pending) {
      pending = this.make(svg, art);
      this.made.set(svg, pending);
    }
    return pending;
  }

  private async make(svg: string, art: PinArt): Promise<PinImage> {
    const kept = this.cache?.read(svg);
    if (kept) {
      this.stats.cached++;
      return kept;
    }
    const image = await this.pool.run(art);
    this.cache?.write(svg, image);
    this.stats.made++;
    return image;
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

/** The cache folder beside a database file (`file:` URL), or null (SEED_CACHE=0, or a database elsewhere). */
export function seedCacheDir(databaseUrl: string): string | null {
  if (process.env.SEED_CACHE === '0') return null;
  if (process.env.SEED_CACHE_DIR) return path.resolve(process.env.SEED_CACHE_DIR);
  if (!databaseUrl.startsWith('file:')) return null;
  return path.join(path.dirname(path.resolve(databaseUrl.slice('file:'.length))), 'seed-cache');
}
