import { count, eq, inArray } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { db } from '~/db/index.server';
import { imageVariants, images } from '~/db/schema';
import { getImageVariant, imageIdOf, photoMaster, savePreparedImage, sniffImageType, storeImage } from '~/services/images.server';
import { transaction } from '~/db/index.server';
import { loader as imageRoute } from '~/routes/images.$id';

async function photo(width: number, height: number, options: { exif?: boolean; orientation?: number } = {}) {
  let img = sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 40 } } }).composite([
    { input: Buffer.from(`<svg width="${width}" height="${height}"><rect x="0" y="0" width="${width / 2}" height="${height / 4}" fill="blue"/></svg>`) },
  ]);
  if (options.exif || options.orientation) {
    img = img.withMetadata({ orientation: options.orientation, exif: options.exif ? { IFD0: { Copyright: 'secret-owner', Artist: 'gps-person' } } : undefined });
  }
  return img.jpeg({ quality: 90 }).toBuffer();
}

/** As an identification stores its photo: the master only, under the id it chose. */
async function storePhoto(id: string, bytes: Buffer) {
  const master = await photoMaster(bytes);
  await transaction((tx) => savePreparedImage(tx, { ...master, id, variants: [] }));
}

describe('image store', () => {
  it('refuses a file over 5 MB as too large (413)', async () => {
    const big = Buffer.alloc(6 * 1024 * 1024, 0xff);
    big[0] = 0xff;
    big[1] = 0xd8;
    big[2] = 0xff;
    await expect(storeImage(big)).rejects.toMatchObject({ status: 413, message: 'File too large' });
  });

  it('refuses a text file renamed .jpg as not an image (415)', async () => {
    const text = new File(['just some notes, not a picture at all'], 'pin.jpg', { type: 'image/jpeg' });
    await expect(storeImage(text)).rejects.toMatchObject({ status: 415, message: 'Invalid file type' });
  });

  it('refuses bytes that claim to be JPEG but do not decode (415)', async () => {
    const broken = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2000, 7)]);
    await expect(storeImage(broken)).rejects.toMatchObject({ status: 415 });
  });

  it('sniffs real types from the bytes', async () => {
    expect(sniffImageType(await photo(20, 20))).toBe('jpeg');
    expect(sniffImageType(await sharp({ create: { width: 4, height: 4, channels: 3, background: 'white' } }).png().toBuffer())).toBe('png');
    expect(sniffImageType(await sharp({ create: { width: 4, height: 4, channels: 3, background: 'white' } }).webp().toBuffer())).toBe('webp');
    expect(sniffImageType(await sharp({ create: { width: 4, height: 4, channels: 3, background: 'white' } }).gif().toBuffer())).toBe('gif');
    expect(sniffImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'))).toBeNull();
  });

  it('stores an image once by content, strips metadata, and renders the variants', async () => {
    const bytes = await photo(2400, 1800, { exif: true });
    const first = await storeImage(bytes);
    const again = await storeImage(`data:image/jpeg;base64,${bytes.toString('base64')}`);
    expect(again.id).toBe(first.id);
    expect(first.created).toBe(true);
    expect(again.created).toBe(false);
    expect(first.url).toBe(`/images/${first.id}`);
    const [{ n }] = await db().select({ n: count() }).from(images).where(eq(images.id, first.id));
    expect(n).toBe(1);
    // the master is at most 1600 px and carries no EXIF
    expect(Math.max(first.width, first.height)).toBe(1600);
    const [row] = await db().select().from(images).where(eq(images.id, first.id));
    const meta = await sharp(row.bytes).metadata();
    expect(meta.exif).toBeUndefined();
    expect(row.bytes.includes(Buffer.from('secret-owner'))).toBe(false);
    const variants = await db().select().from(imageVariants).where(eq(imageVariants.imageId, first.id));
    expect(variants.map((v) => `${v.variant}/${v.format}`).sort()).toEqual(['full/jpeg', 'full/webp', 'thumb/jpeg', 'thumb/webp']);
    const thumb = await getImageVariant(first.id, 'thumb', 'webp');
    expect(Math.max(thumb.width, thumb.height)).toBe(320);
    expect((await sharp(thumb.bytes).metadata()).format).toBe('webp');
  });

  it('stores a photo as its master only: variants are rendered when first asked for', async () => {
    const bytes = await photo(1800, 1200, { exif: true });
    const id = 'abcdef0123456789abcdef0123456789';
    await storePhoto(id, bytes);
    const response = await imageRoute({ request: new Request(`http://localhost/images/${id}?s=thumb`, { headers: { Accept: 'image/webp' } }), params: { id }, context: {} });
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('image/webp');
    const served = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    expect(Math.max(served.width!, served.height!)).toBe(320);
    // the master carries no EXIF; the variant is kept, only the one asked for is rendered
    const [row] = await db().select().from(images).where(eq(images.id, id));
    expect(Math.max(row.width, row.height)).toBe(1600);
    expect(row.bytes.includes(Buffer.from('secret-owner'))).toBe(false);
    const kept = await db().select().from(imageVariants).where(eq(imageVariants.imageId, id));
    expect(kept.map((v) => `${v.variant}/${v.format}`)).toEqual(['thumb/webp']);
    const full = await getImageVariant(id, 'full', 'jpeg');
    expect(Math.max(full.width, full.height)).toBe(1024);
    // a second write of the same picture does nothing
    await storePhoto(id, bytes);
    expect((await db().select().from(imageVariants).where(eq(imageVariants.imageId, id))).length).toBe(2);
  });

  it('keeps a photo that needs no normalising byte for byte (a camera capture), and re-encodes one with metadata or an orientation to apply', async () => {
    const clean = await photo(1280, 960);
    const tagged = await photo(1280, 960, { exif: true });
    const turned = await photo(1280, 960, { orientation: 6 });
    const ids = ['11111111111111111111111111111111', '22222222222222222222222222222222', '33333333333333333333333333333333'];
    await storePhoto(ids[0], clean);
    await storePhoto(ids[1], tagged);
    await storePhoto(ids[2], turned);
    const rows = await db().select().from(images).where(inArray(images.id, ids));
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(ids[0])!.bytes.equals(clean)).toBe(true);
    expect([byId.get(ids[0])!.width, byId.get(ids[0])!.height]).toEqual([1280, 960]);
    // the EXIF is stripped, and the turned photo is stored upright
    expect(byId.get(ids[1])!.bytes.equals(tagged)).toBe(false);
    expect(byId.get(ids[1])!.bytes.includes(Buffer.from('secret-owner'))).toBe(false);
    expect((await sharp(byId.get(ids[1])!.bytes).metadata()).exif).toBeUndefined();
    expect([byId.get(ids[2])!.width, byId.get(ids[2])!.height]).toEqual([960, 1280]);
  });

  it('keeps the colours of a pin image\'s fine detail in the master that identification works from (no chroma subsampling)', async () => {
    // columns of red and blue enamel one pixel wide, the scale of a pin's lettering in a 512 px
    // reference: a JPEG that halves the colour resolution (4:2:0) turns both into purple
    const width = 256;
    const height = 256;
    const raw = Buffer.alloc(width * height * 3, 245);
    for (let y = 64; y < 192; y++) for (let x = 64; x < 192; x++) raw.set(x % 2 ? [220, 30, 30] : [30, 30, 220], (y * width + x) * 3);
    const original = await sharp(raw, { raw: { width, height, channels: 3 } }).png().toBuffer();
    const meanError = async (id: string) => {
      const [row] = await db().select().from(images).where(eq(images.id, id));
      const decoded = await sharp(row.bytes).raw().toBuffer();
      let sum = 0;
      for (let y = 64; y < 192; y++) for (let x = 64; x < 192; x++) for (let c = 0; c < 3; c++) sum += Math.abs(decoded[(y * width + x) * 3 + c] - raw[(y * width + x) * 3 + c]);
      return sum / (128 * 128 * 3);
    };
    const stored = await storeImage(original);
    expect(await meanError(stored.id)).toBeLessThan(3);
  });

  it('auto-rotates by the EXIF orientation', async () => {
    const stored = await storeImage(await photo(300, 200, { orientation: 6 }));
    expect(stored.width).toBe(200);
    expect(stored.height).toBe(300);
  });

  it('accepts raw base64 JPEG as the specification allows', async () => {
    const stored = await storeImage((await photo(64, 48)).toString('base64'));
    expect(stored.width).toBe(64);
    expect(imageIdOf(stored.url)).toBe(stored.id);
  });

  it('serves variants with immutable caching, ETag and format negotiation', async () => {
    const stored = await storeImage(await photo(800, 600));
    const call = (url: string, headers: Record<string, string> = {}) =>
      imageRoute({ request: new Request(`http://localhost${url}`, { headers }), params: { id: stored.id }, context: {} });
    const webp = await call(`/images/${stored.id}?s=thumb`, { Accept: 'image/avif,image/webp,*/*' });
    expect(webp.status).toBe(200);
    expect(webp.headers.get('Content-Type')).toBe('image/webp');
    expect(webp.headers.get('Cache-Control')).toContain('immutable');
    const etag = webp.headers.get('ETag')!;
    expect(etag).toBeTruthy();
    const jpeg = await call(`/images/${stored.id}`, { Accept: 'image/jpeg' });
    expect(jpeg.headers.get('Content-Type')).toBe('image/jpeg');
    expect((await sharp(Buffer.from(await jpeg.arrayBuffer())).metadata()).width).toBe(800);
    const notModified = await call(`/images/${stored.id}?s=thumb`, { Accept: 'image/webp', 'If-None-Match': etag });
    expect(notModified.status).toBe(304);
    const missing = await imageRoute({ request: new Request('http://localhost/images/x'), params: { id: 'f'.repeat(32) }, context: {} });
    expect(missing.status).toBe(404);
  });
});
