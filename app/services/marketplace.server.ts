/**
 * Marketplace listings (marketplace_pins): the buyer's search and the vendor's own pins.
 * Spec §2 (Pin Marketplace, My Pins), §3, §5 (vendor pin), §7.
 *
 * Rules kept here:
 * - buyers see only active listings of approved vendors; a vendor sees all of their own;
 * - only an approved vendor lists pins, and only on their own vendor record; an admin may edit any
 *   listing (audited);
 * - prices are integer cents (at most 10 digits, 2 decimals: see utils/money), stock never below 0;
 * - a listing may name the catalogue pin it sells (optional), which then shows
 *   "available from N vendors" on that pin's page;
 * - at most 5 images, stored once through the image store.
 */
import { and, asc, count, desc, eq, inArray, min, or, sql, type SQL } from 'drizzle-orm';
import { assertCanEditListing, assertCanSell, assertSignedIn, isAdmin, type Actor } from '~/auth/permissions';
import { db, prepared, transaction } from '~/db/index.server';
import { marketplacePins, pins, vendors, type MarketplacePin, type Vendor } from '~/db/schema';
import { listingSchema, listingUpdateSchema, MAX_PIN_PHOTOS, type ListingInput } from '~/forms/marketplace';
import { centsToDecimal } from '~/utils/money';
import { paginate, type Paging } from '~/utils/paging';
import { parseWith } from '~/utils/validation';
import { recordAudit } from './audit.server';
import { Invalid, NotFound } from './errors';
import { imageUrl, prepareImage, savePreparedImage } from './images.server';

export const LISTING_NOT_FOUND = 'Pin listing not found';
export const PHOTO_LIMIT_MESSAGE = `You can add up to ${MAX_PIN_PHOTOS} photos per pin.`;

export interface ListingDto {
  id: string;
  vendorId: string;
  vendor: { id: string; businessName: string };
  pinId: string | null;
  name: string;
  description: string | null;
  /** dollars with 2 decimals, e.g. "12.50" */
  price: string;
  priceCents: number;
  stockQuantity: number;
  images: string[];
  imageIds: string[];
  thumbnail: string | null;
  category: string | null;
  tags: string[];
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
}

export function toListingDto(row: MarketplacePin, vendor: { id: string; businessName: string }): ListingDto {
  return {
    id: row.id,
    vendorId: row.vendorId,
    vendor: { id: vendor.id, businessName: vendor.businessName },
    pinId: row.pinId,
    name: row.name,
    description: row.description,
    price: centsToDecimal(row.priceCents),
    priceCents: row.priceCents,
    stockQuantity: row.stockQuantity,
    images: row.images.map((id) => imageUrl(id)),
    imageIds: row.images,
    thumbnail: row.images[0] ? imageUrl(row.images[0], 'thumb') : null,
    category: row.category,
    tags: row.tags ?? [],
    isActive: row.isActive,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const validId = (id: unknown): id is string => typeof id === 'string' && id.length > 0 && id.length <= 64;

/** Listings a buyer may see and buy: active, of an approved vendor. */
export const buyableSql = sql`${marketplacePins.isActive} = 1 and ${marketplacePins.vendorId} in (select id from vendors where is_approved = 1)`;

/** The actor's vendor record (or null). */
export async function getVendorOf(userId: string): Promise<Vendor | null> {
  return (await db().select().from(vendors).where(eq(vendors.userId, userId)).get()) ?? null;
}

// ---------------------------------------------------------------- reading

export type ListingSort = 'newest' | 'price_asc' | 'price_desc' | 'name';

export interface ListingQuery {
  q?: string;
  category?: string;
  vendorId?: string;
  pinId?: string;
  sort?: ListingSort;
  page?: number;
  size?: number;
}

export interface ListingPage {
  pins: ListingDto[];
  total: number;
  paging: Paging;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function searchSql(q: string): SQL | undefined {
  const words = q.trim().split(/\s+/).filter(Boolean).slice(0, 8);
  if (!words.length) return undefined;
  return and(
    ...words.map((w) => {
      const pattern = `%${escapeLike(w)}%`;
      return or(
        sql`${marketplacePins.name} like ${pattern} escape '\\'`,
        sql`coalesce(${marketplacePins.description}, '') like ${pattern} escape '\\'`,
        sql`coalesce(${marketplacePins.category}, '') like ${pattern} escape '\\'`,
      );
    }),
  );
}

const ORDER: Record<ListingSort, SQL[]> = {
  newest: [sql`${marketplacePins.createdAt} desc`, sql`${marketplacePins.id} desc`],
  price_asc: [sql`${marketplacePins.priceCents} asc`, sql`${marketplacePins.id} asc`],
  price_desc: [sql`${marketplacePins.priceCents} desc`, sql`${marketplacePins.id} asc`],
  name: [sql`${marketplacePins.name} collate nocase asc`, sql`${marketplacePins.id} asc`],
};

/** The marketplace: active listings of approved vendors, searched and filtered, one page at a time. */
export async function listListings(actor: Actor | null, query: ListingQuery = {}): Promise<ListingPage> {
  assertSignedIn(actor);
  const where = and(
    buyableSql,
    query.q ? searchSql(query.q) : undefined,
    query.category ? eq(marketplacePins.category, query.category) : undefined,
    query.vendorId ? eq(marketplacePins.vendorId, query.vendorId) : undefined,
    query.pinId ? eq(marketplacePins.pinId, query.pinId) : undefined,
  );
  return pageOfListings(where, query);
}

/** A vendor's own listings, active and inactive (My Pins). */
export async function listMyListings(actor: Actor | null, query: { q?: string; page?: number; size?: number } = {}): Promise<ListingPage & { vendor: Vendor }> {
  assertSignedIn(actor);
  const vendor = await getVendorOf(actor.id);
  assertCanSell(actor, vendor);
  const where = and(eq(marketplacePins.vendorId, vendor!.id), query.q ? searchSql(query.q) : undefined);
  return { ...(await pageOfListings(where, { ...query, sort: 'newest' })), vendor: vendor! };
}

async function pageOfListings(where: SQL | undefined, query: ListingQuery): Promise<ListingPage> {
  const totalRow = await db().select({ n: count() }).from(marketplacePins).where(where).get();
  const total = totalRow?.n ?? 0;
  const paging = paginate({ total, page: query.page ?? 1, size: query.size ?? 12 });
  const rows = await db()
    .select({ listing: marketplacePins, vendor: { id: vendors.id, businessName: vendors.businessName } })
    .from(marketplacePins)
    .innerJoin(vendors, eq(vendors.id, marketplacePins.vendorId))
    .where(where)
    .orderBy(...ORDER[query.sort ?? 'newest'])
    .limit(paging.limit)
    .offset(paging.offset);
  return { pins: rows.map((r) => toListingDto(r.listing, r.vendor)), total, paging };
}

async function listingRow(id: string) {
  if (!validId(id)) return undefined;
  return db()
    .select({ listing: marketplacePins, vendor: vendors })
    .from(marketplacePins)
    .innerJoin(vendors, eq(vendors.id, marketplacePins.vendorId))
    .where(eq(marketplacePins.id, id))
    .get();
}

/** One listing: buyers see it while it is buyable; its vendor and admins always. */
export async function getListing(actor: Actor | null, id: string): Promise<ListingDto> {
  assertSignedIn(actor);
  const row = await listingRow(id);
  const own = row && (row.vendor.userId === actor.id || isAdmin(actor));
  if (!row || (!own && !(row.listing.isActive && row.vendor.isApproved))) throw new NotFound(LISTING_NOT_FOUND);
  return toListingDto(row.listing, row.vendor);
}

/** The vendors selling a catalogue pin now, and the lowest price (for /pins/{id}). */
// pin detail reads it on every view: built and prepared once
const offersForPin = prepared((conn) =>
  conn
    .select({ vendors: sql<number>`count(distinct ${marketplacePins.vendorId})`, listings: count(), fromCents: min(marketplacePins.priceCents) })
    .from(marketplacePins)
    .where(and(buyableSql, eq(marketplacePins.pinId, sql.placeholder('pinId')), sql`${marketplacePins.stockQuantity} > 0`))
    .prepare(),
);

export async function marketplaceOffersForPin(pinId: string): Promise<{ vendors: number; listings: number; fromCents: number | null }> {
  if (!validId(pinId)) return { vendors: 0, listings: 0, fromCents: null };
  const row = await offersForPin().get({ pinId });
  return { vendors: Number(row?.vendors ?? 0), listings: Number(row?.listings ?? 0), fromCents: row?.fromCents ?? null };
}

/** The vendors with buyable listings (the marketplace's vendor filter). */
export async function listSellingVendors(): Promise<{ id: string; businessName: string }[]> {
  return db()
    .selectDistinct({ id: vendors.id, businessName: vendors.businessName })
    .from(vendors)
    .innerJoin(marketplacePins, eq(marketplacePins.vendorId, vendors.id))
    .where(buyableSql)
    .orderBy(asc(vendors.businessName));
}

// ---------------------------------------------------------------- writing

type ImageInput = Blob | Buffer | Uint8Array;

function realFiles(images: unknown[] | undefined): ImageInput[] {
  return (images ?? []).filter((f): f is ImageInput => (f instanceof Blob ? f.size > 0 : f instanceof Uint8Array && f.length > 0));
}

async function checkCataloguePin(pinId: string | undefined) {
  if (!pinId) return;
  const pin = await db().select({ id: pins.id }).from(pins).where(eq(pins.id, pinId)).get();
  if (!pin) throw new Invalid('Choose a pin from the catalogue', { pinId: ['That catalogue pin does not exist'] });
}

/** Lists a pin for sale (approved vendors only): POST /api/marketplace/pins, 'Pin listed successfully'. */
export async function createListing(actor: Actor | null, input: ListingInput | Record<string, unknown>, images: unknown[] = []): Promise<ListingDto> {
  assertSignedIn(actor);
  const vendor = await getVendorOf(actor.id);
  assertCanSell(actor, vendor);
  const data = parseWith(listingSchema, input);
  const files = realFiles(images);
  if (files.length > MAX_PIN_PHOTOS) throw new Invalid(PHOTO_LIMIT_MESSAGE, { images: [PHOTO_LIMIT_MESSAGE] });
  await checkCataloguePin(data.pinId);
  const prepared = await Promise.all(files.map((f) => prepareImage(f)));
  const row = await transaction(async (tx) => {
    const ids: string[] = [];
    for (const p of prepared) ids.push((await savePreparedImage(tx, p)).id);
    const [created] = await tx
      .insert(marketplacePins)
      .values({
        vendorId: vendor!.id,
        pinId: data.pinId ?? null,
        name: data.name,
        description: data.description ?? null,
        priceCents: data.price,
        stockQuantity: data.stockQuantity,
        category: data.category ?? null,
        images: ids,
        isActive: data.isActive ?? true,
      })
      .returning();
    return created;
  });
  return toListingDto(row, vendor!);
}

/**
 * Changes a listing (its vendor, or an admin: audited): any of the fields, the Active/Inactive
 * toggle, images kept (`keepImages`) plus new ones, at most 5 in all.
 */
export async function updateListing(actor: Actor | null, id: string, input: Record<string, unknown>, images: unknown[] = []): Promise<ListingDto> {
  assertSignedIn(actor);
  const found = await listingRow(id);
  if (!found) throw new NotFound(LISTING_NOT_FOUND);
  assertCanEditListing(actor, { vendorUserId: found.vendor.userId });
  const data = parseWith(listingUpdateSchema, input);
  const files = realFiles(images);
  const kept = data.keepImages ? found.listing.images.filter((i) => data.keepImages!.includes(i)) : found.listing.images;
  if (kept.length + files.length > MAX_PIN_PHOTOS) throw new Invalid(PHOTO_LIMIT_MESSAGE, { images: [PHOTO_LIMIT_MESSAGE] });
  await checkCataloguePin(data.pinId);
  const prepared = await Promise.all(files.map((f) => prepareImage(f)));
  const patch: Partial<typeof marketplacePins.$inferInsert> = {};
  if (data.name !== undefined) patch.name = data.name;
  if ('description' in input) patch.description = data.description ?? null;
  if (data.price !== undefined) patch.priceCents = data.price;
  if (data.stockQuantity !== undefined) patch.stockQuantity = data.stockQuantity;
  if ('category' in input) patch.category = data.category ?? null;
  if ('pinId' in input) patch.pinId = data.pinId ?? null;
  if (data.isActive !== undefined) patch.isActive = data.isActive;
  const row = await transaction(async (tx) => {
    const ids = [...kept];
    for (const p of prepared) ids.push((await savePreparedImage(tx, p)).id);
    if (data.keepImages || files.length) patch.images = ids;
    if (!Object.keys(patch).length) return found.listing;
    const [updated] = await tx.update(marketplacePins).set(patch).where(eq(marketplacePins.id, found.listing.id)).returning();
    if (actor.id !== found.vendor.userId) {
      await recordAudit(tx, {
        actor,
        action: 'listing.update',
        targetType: 'marketplace_pin',
        targetId: found.listing.id,
        details: { vendorId: found.vendor.id, fields: Object.keys(patch) },
      });
    }
    return updated;
  });
  return toListingDto(row, found.vendor);
}

/** The listings of these ids with their vendors (cart and checkout read them together). */
export async function listingsByIds(ids: string[]) {
  if (!ids.length) return [];
  return db()
    .select({ listing: marketplacePins, vendor: vendors })
    .from(marketplacePins)
    .innerJoin(vendors, eq(vendors.id, marketplacePins.vendorId))
    .where(inArray(marketplacePins.id, ids))
    .orderBy(desc(marketplacePins.createdAt));
}

export type { ListingInput };
