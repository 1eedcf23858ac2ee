/**
 * The image store. Every uploaded image goes through here:
 * sniff the real type from the bytes (JPEG, PNG, WebP, GIF, AVIF/HEIF when sharp decodes it),
 * refuse others (415) and anything over 5 MB (413), auto-rotate, strip metadata, re-encode,
 * store once by the SHA-256 of the normalised image, and pre-render the variants browsers get:
 * a 320 px thumbnail and a 1024 px full view, each as WebP and JPEG.
 * Images live in the database (one file holds everything, one backup).
 */
import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import sharp, { type OutputInfo } from 'sharp';
import { db, prepared, transaction, type Db } from '~/db/index.server';
import { imageVariants, images, type ImageFormat, type ImageVariant } from '~/db/schema';
import { IMAGE_FORMATS, IMAGE_VARIANTS, MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS } from '~/utils/constants';
import { Invalid, NotFound, TooLarge, UnsupportedMediaType } from './errors';

sharp.cache(false);
sharp.concurrency(1);

const MASTER_MAX = 1600;
/**
 * A stored image's master is what identification works from (a pin's features and the full-resolution
 * reference of its detail check): quality 95 with full colour resolution, since 4:2:0 chroma halves the
 * colour detail of a pin's lettering (fewer false matches on the identification benchmark:
 * app/services/identification/README.md, "Benchmarks").
 */
const MASTER_JPEG = { quality: 95, chromaSubsampling: '4:4:4', mozjpeg: true } as const;
/**
 * An identification photo (`fast`) stays at quality 88 (4:2:0) with plain libjpeg: most are never
 * looked at again, and at quality 95 / 4:4:4 the server's peak memory grew by 60-70 MB over the benchmark's
 * 700 photos, for the same answers on pins added from a photo.
 */
const PHOTO_JPEG = { quality: 88 } as const;
export const VARIANT_SIZES: Record<ImageVariant, number> = { thumb: 320, full: 1024 };

export type SniffedType = 'jpeg' | 'png' | 'webp' | 'gif' | 'avif' | 'heic';

/** The image type named by the file's first bytes, or null if it is not an image we take. */
export function sniffImageType(bytes: Uint8Array): SniffedType | null {
  if (bytes.length < 12) return null;
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return 'png';
  const ascii = (start: number, end: number) => String.fromCharCode(...bytes.subarray(start, end));
  if (ascii(0, 4) === 'GIF8') return 'gif';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp';
  if (ascii(4, 8) === 'ftyp') {
    const brand = ascii(8, 12);
    if (brand === 'avif' || brand === 'avis') return 'avif';
    if (['heic', 'heix', 'hevc', 'hevx', 'mif1', 'msf1'].includes(brand)) return 'heic';
  }
  return null;
}

/**
 * Turns what clients send into bytes: a Buffer/Uint8Array, a File/Blob, a data URL
 * (`data:image/jpeg;base64,...`) or raw base64, as the specification allows for pin images.
 */
export async function toImageBytes(input: Buffer | Uint8Array | Blob | string): Promise<Buffer> {
  if (typeof input === 'string') {
    const trimmed = input.trim();
    const match = /^data:([\w/+.-]*)?(;[\w=-]+)*;base64,/i.exec(trimmed);
    const b64 = match ? trimmed.slice(match[0].length) : trimmed;
    if (!match && trimmed.startsWith('data:')) throw new Invalid('image_parse_error: the data URL is not base64 encoded');
    if (!/^[A-Za-z0-9+/=\s_-]*$/.test(b64)) throw new Invalid('image_parse_error: the image data is not base64');
    // base64 is 4/3 of the bytes: refuse oversized input before decoding it
    if ((b64.length * 3) / 4 > MAX_IMAGE_BYTES + 4) throw new TooLarge('File too large');
    return Buffer.from(b64, 'base64');
  }
  if (input instanceof Uint8Array) return Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  if (input.size > MAX_IMAGE_BYTES) throw new TooLarge('File too large');
  return Buffer.from(await input.arrayBuffer());
}

/** Checks size and type; throws 413 / 415 with the specification's words. */
export function assertAcceptableImage(bytes: Uint8Array): SniffedType {
  if (bytes.byteLength > MAX_IMAGE_BYTES) throw new TooLarge('File too large');
  const type = sniffImageType(bytes);
  if (!type) throw new UnsupportedMediaType('Invalid file type');
  return type;
}

export interface StoredImage {
  id: string;
  width: number;
  height: number;
  url: string;
  created: boolean;
}

export interface NormalisedImage {
  id: string;
  master: Buffer;
  width: number;
  height: number;
}

/**
 * Decodes, auto-rotates, strips metadata and re-encodes; no database work. `fast` (an identification
 * photo) encodes at quality 88 with plain libjpeg, several times faster than mozjpeg.
 */
export async function normaliseImage(bytes: Buffer, options: { square?: number; fast?: boolean } = {}): Promise<NormalisedImage> {
  assertAcceptableImage(bytes);
  let pipeline = sharp(bytes, { failOn: 'error', limitInputPixels: MAX_IMAGE_PIXELS }).rotate();
  if (options.square) {
    pipeline = pipeline.resize(options.square, options.square, { fit: 'cover', position: 'centre' });
  } else {
    pipeline = pipeline.resize(MASTER_MAX, MASTER_MAX, { fit: 'inside', withoutEnlargement: true });
  }
  let out: { data: Buffer; info: OutputInfo };
  try {
    out = await pipeline.flatten({ background: '#ffffff' }).jpeg(options.fast ? PHOTO_JPEG : MASTER_JPEG).toBuffer({ resolveWithObject: true });
  } catch {
    // the header said image, the body did not decode (truncated, corrupt, or a codec sharp lacks)
    throw new UnsupportedMediaType('Invalid file type');
  }
  const id = createHash('sha256').update(out.data).digest('hex').slice(0, 32);
  return { id, master: out.data, width: out.info.width, height: out.info.height };
}

interface VariantRow {
  variant: ImageVariant;
  format: ImageFormat;
  width: number;
  height: number;
  bytes: Buffer;
}

/**
 * One variant of a master. `fast` (a variant rendered when it is first asked for, below) trades a
 * few percent of file size for encoding speed: WebP effort 0 and plain libjpeg instead of mozjpeg.
 */
async function renderVariant(master: Buffer, variant: ImageVariant, format: ImageFormat, fast = false): Promise<VariantRow> {
  const size = VARIANT_SIZES[variant];
  const base = sharp(master).resize(size, size, { fit: 'inside', withoutEnlargement: true });
  const out =
    format === 'webp'
      ? await base.webp({ quality: variant === 'thumb' ? 70 : 80, ...(fast ? { effort: 0 } : {}) }).toBuffer({ resolveWithObject: true })
      : await base.jpeg({ quality: variant === 'thumb' ? 74 : 82, mozjpeg: !fast }).toBuffer({ resolveWithObject: true });
  return { variant, format, width: out.info.width, height: out.info.height, bytes: out.data };
}

async function renderVariants(master: Buffer): Promise<VariantRow[]> {
  const rows: VariantRow[] = [];
  for (const variant of IMAGE_VARIANTS) for (const format of IMAGE_FORMATS) rows.push(await renderVariant(master, variant, format));
  return rows;
}

/** Variants being rendered on demand, so that simultaneous requests for one render it once. */
const rendering = new Map<string, Promise<VariantRow | null>>();

/**
 * A variant that was not rendered when its image was stored (an identification's photo is stored
 * as its master only: most are never looked at again, and at most one or two of its four variants
 * are), rendered from the master when first asked for and kept.
 */
function renderMissingVariant(id: string, variant: ImageVariant, format: ImageFormat): Promise<VariantRow | null> {
  const key = `${id}:${variant}:${format}`;
  const pending = rendering.get(key);
  if (pending) return pending;
  const job = (async () => {
    const master = await getImageMaster(id);
    if (!master) return null;
    const row = await renderVariant(master, variant, format, true);
    await db().insert(imageVariants).values({ ...row, imageId: id }).onConflictDoNothing();
    return row;
  })().finally(() => rendering.delete(key));
  rendering.set(key, job);
  return job;
}

/** Prepared rows for an image, so callers can write them inside their own transaction. */
export async function prepareImage(input: Buffer | Uint8Array | Blob | string, options: { square?: number } = {}) {
  const bytes = await toImageBytes(input);
  const normalised = await normaliseImage(bytes, options);
  const variants = await renderVariants(normalised.master);
  return { ...normalised, variants };
}
export type PreparedImage = Awaited<ReturnType<typeof prepareImage>>;

/** Writes a prepared image (idempotent: the same picture is stored once). */
export async function savePreparedImage(tx: Db, image: PreparedImage): Promise<StoredImage> {
  const existing = await tx.select({ id: images.id }).from(images).where(eq(images.id, image.id)).get();
  if (!existing) {
    await tx.insert(images).values({ id: image.id, width: image.width, height: image.height, bytes: image.master, byteSize: image.master.byteLength });
    if (image.variants.length) await tx.insert(imageVariants).values(image.variants.map((v) => ({ ...v, imageId: image.id }))).onConflictDoNothing();
  }
  return { id: image.id, width: image.width, height: image.height, url: imageUrl(image.id), created: !existing };
}

/** Above this many bytes a pixel an upload is re-encoded even when it could be kept (quality 88 is smaller). */
const KEPT_MAX_BYTES_PER_PIXEL = 0.5;

/**
 * A photo that is already what `normaliseImage` would make of it, kept byte for byte: a JPEG in
 * sRGB, no larger than a master, with nothing to rotate and nothing to strip (no EXIF, where a
 * phone writes its position, no ICC profile, XMP or IPTC). The identifier's camera capture (a
 * canvas's JPEG) is such a photo. It saves a decode and an encode, about 9 ms of CPU a photo
 * taken from the next photo's identification, and the loss of a second JPEG generation. Only the
 * header is read; the bytes were decoded by the matcher before they are stored.
 */
async function keptAsUploaded(bytes: Buffer): Promise<NormalisedImage | null> {
  const meta = await sharp(bytes).metadata().catch(() => null);
  if (!meta?.width || !meta.height || meta.format !== 'jpeg' || meta.space !== 'srgb' || meta.channels !== 3) return null;
  if (meta.exif || meta.icc || meta.xmp || meta.iptc || (meta.orientation ?? 1) !== 1) return null;
  if (Math.max(meta.width, meta.height) > MASTER_MAX || bytes.length > meta.width * meta.height * KEPT_MAX_BYTES_PER_PIXEL) return null;
  return { id: createHash('sha256').update(bytes).digest('hex').slice(0, 32), master: bytes, width: meta.width, height: meta.height };
}

/**
 * The master an identification photo is stored as: its smaller sizes are rendered when first asked
 * for (`getImageVariant`), since most such photos are never looked at again (the four variants took
 * about 31 ms to encode, the master 6). A photo that needs no normalising is kept as it came.
 */
export async function photoMaster(bytes: Buffer): Promise<NormalisedImage> {
  return (await keptAsUploaded(bytes)) ?? (await normaliseImage(bytes, { fast: true }));
}

/** Validates, normalises and stores one image; returns its id and URL. */
export async function storeImage(input: Buffer | Uint8Array | Blob | string, options: { square?: number } = {}): Promise<StoredImage> {
  const prepared = await prepareImage(input, options);
  return transaction((tx) => savePreparedImage(tx, prepared));
}

export function imageUrl(id: string, variant: ImageVariant | 'master' = 'full'): string {
  return variant === 'full' ? `/images/${id}` : `/images/${id}?s=${variant}`;
}

/** The image id inside a stored reference ('/images/<id>...' or a bare id). */
export function imageIdOf(ref: string): string | null {
  const m = /^(?:\/images\/)?([a-f0-9]{32})(?:[?#].*)?$/.exec(ref);
  return m ? m[1] : null;
}

export async function getImageVariant(id: string, variant: ImageVariant | 'master', format: ImageFormat) {
  if (variant === 'master') {
    const row = await db().select({ bytes: images.bytes, width: images.width, height: images.height }).from(images).where(eq(images.id, id)).get();
    if (!row) throw new NotFound('Image not found');
    return { bytes: row.bytes, format: 'jpeg' as const, width: row.width, height: row.height };
  }
  const row = await db()
    .select({ bytes: imageVariants.bytes, width: imageVariants.width, height: imageVariants.height })
    .from(imageVariants)
    .where(and(eq(imageVariants.imageId, id), eq(imageVariants.variant, variant), eq(imageVariants.format, format)))
    .get();
  const found = row ?? (await renderMissingVariant(id, variant, format));
  if (!found) throw new NotFound('Image not found');
  return { bytes: found.bytes, format, width: found.width, height: found.height };
}

/** The normalised master bytes (for feature extraction and re-processing). */
export async function getImageMaster(id: string): Promise<Buffer | null> {
  const row = await db().select({ bytes: images.bytes }).from(images).where(eq(images.id, id)).get();
  return row?.bytes ?? null;
}

/** Dimensions of stored images, for width/height attributes on <img>. */
// pin detail reads it on every view: one statement for any number of ids (a JSON array)
const sizesQuery = prepared((conn) =>
  conn
    .select({ id: images.id, width: images.width, height: images.height })
    .from(images)
    .where(sql`${images.id} in (select value from json_each(${sql.placeholder('ids')}))`)
    .prepare(),
);

export async function imageSizes(ids: string[]): Promise<Map<string, { width: number; height: number }>> {
  if (ids.length === 0) return new Map();
  const rows = await sizesQuery().all({ ids: JSON.stringify(ids) });
  return new Map(rows.map((r) => [r.id, { width: r.width, height: r.height }]));
}
