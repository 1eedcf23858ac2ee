/**
 * The pin catalogue: create, read, update, delete, search and the home lists.
 *
 * Rarity rule (one place): a pin's rarity and rarityScore (0-4) follow its totalQuantity through
 * `rarityFromQuantity` on every create and update, unless an admin sets a rarity by hand, which
 * locks it (`rarityLocked`, score from RARITY_SCORE) until an admin sets it back to 'auto'.
 *
 * Who may do what: adding pins is for vendors, managers, admins and super admins; editing and
 * deleting a pin is for its creator and for admins. The checks live here, not only in the UI.
 */
import { and, asc, count, desc, eq, getTableColumns, inArray, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { z } from 'zod';
import { assertCanCreatePin, assertCanCurate, assertCanEditPin, assertSignedIn, type Actor } from '~/auth/permissions';
import { cachedUntilWrite, db, prepared, transaction, type Db } from '~/db/index.server';
import { identifications, images, organizations, pins, teams, userCollections, type Pin } from '~/db/schema';
import { yearField } from '~/forms/pins';
import { parseWith } from '~/utils/validation';
import { MAX_PIN_PHOTOS, RARITIES, type Rarity, isOneOf } from '~/utils/constants';
import { RARITY_SCORE, rarityFromQuantity } from '~/utils/rarity';
import { refreshCollectionCounts, type UnlockedBadge } from './achievements.server';
import type { CompletedChallenge } from '~/types/achievements';
import { addCollectionEntry } from './collection.server';
import { changes, recordAudit } from './audit.server';
import { Invalid, NotFound } from './errors';
import { indexPinImages, removePinFromIndex } from './identification/index.server';
import { imageIdOf, imageUrl, prepareImage, savePreparedImage, type PreparedImage } from './images.server';
import { findOrCreateOrganization } from './organizations.server';
import { toPinDto, type PinDto } from './pin-dto.server';

export type { PinDto } from './pin-dto.server';

const MAX_LIST_LIMIT = 100;

type ImageInput = Blob | Buffer | string;

export interface CreatePinInput {
  name: string;
  description?: string | null;
  organizationId?: string | null;
  organizationName?: string | null;
  teamId?: string | null;
  totalQuantity?: number;
  availableQuantity?: number | null;
  year?: number | null;
  event?: string | null;
  images?: ImageInput[];
  primaryPhotoIndex?: number;
  estimatedValue?: number | null;
  distributionDate?: string | null;
  isFeatured?: boolean;
  /** admins only: a hand-set rarity locks it; 'auto' (or absent) derives it from totalQuantity */
  rarity?: Rarity | 'auto' | null;
}

export interface UpdatePinInput {
  name?: string;
  description?: string | null;
  organizationId?: string;
  teamId?: string | null;
  totalQuantity?: number;
  availableQuantity?: number;
  year?: number | null;
  event?: string | null;
  estimatedValue?: number | null;
  distributionDate?: string | null;
  isFeatured?: boolean;
  rarity?: Rarity | 'auto' | null;
  /** the full new list: existing image refs ('/images/{id}' or ids) are kept, anything else is uploaded */
  images?: ImageInput[];
  primaryPhotoIndex?: number;
}

// ---------------------------------------------------------------- validation

const trimmedOrNull = (max: number, label: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? null : v.trim()) : v === undefined ? undefined : v),
    z.string({ invalid_type_error: `${label} must be text` }).max(max, `${label} is too long`).nullish(),
  );
const toNum = (v: unknown) => (v === '' || v === null ? undefined : typeof v === 'string' ? Number(v.trim()) : v);
const toBool = (v: unknown) => (v === 'true' || v === 'on' || v === '1' ? true : v === 'false' || v === '0' || v === '' ? false : v);

const pinFields = {
  name: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() : v),
    z.string({ required_error: 'Pin name is required', invalid_type_error: 'Pin name is required' }).min(1, 'Pin name is required').max(200, 'Name is too long'),
  ),
  description: trimmedOrNull(5000, 'Description'),
  organizationId: trimmedOrNull(64, 'Organization'),
  organizationName: trimmedOrNull(120, 'Organization'),
  teamId: trimmedOrNull(64, 'Team'),
  totalQuantity: z.preprocess(
    toNum,
    z
      .number({ invalid_type_error: 'Total quantity must be at least 1' })
      .int('Total quantity must be at least 1')
      .min(1, 'Total quantity must be at least 1')
      .max(10_000_000, 'Quantity is too large')
      .optional(),
  ),
  availableQuantity: z.preprocess(
    toNum,
    z.number({ invalid_type_error: 'Available quantity must be a number' }).int().min(0, 'Available quantity cannot be negative').optional(),
  ),
  year: yearField,
  event: trimmedOrNull(200, 'Event'),
  primaryPhotoIndex: z.preprocess(toNum, z.number({ invalid_type_error: 'Invalid primary photo' }).int().min(0).optional()),
  estimatedValue: z.preprocess(
    toNum,
    z.number({ invalid_type_error: 'Estimated value must be a number' }).min(0, 'Estimated value cannot be negative').max(99_999_999, 'Estimated value is too large').optional(),
  ),
  distributionDate: z.preprocess(
    (v) => (v === '' ? null : typeof v === 'string' ? v.slice(0, 10) : v),
    z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'Distribution date must be a date (YYYY-MM-DD)')
      .refine((d) => !Number.isNaN(Date.parse(d)), 'Distribution date must be a date (YYYY-MM-DD)')
      .nullish(),
  ),
  isFeatured: z.preprocess(toBool, z.boolean({ invalid_type_error: 'Featured must be true or false' }).optional()),
  rarity: z.preprocess((v) => (v === '' ? undefined : v), z.enum([...RARITIES, 'auto'], { message: 'Unknown rarity' }).nullish()),
};

const createSchema = z.object(pinFields);
const updateSchema = z
  .object({
    ...pinFields,
    name: z.preprocess(
      (v) => (typeof v === 'string' ? v.trim() : v),
      z.string({ invalid_type_error: 'Name is required' }).min(1, 'Name is required').max(200, 'Name is too long').optional(),
    ),
    totalQuantity: z.preprocess(
      toNum,
      z
        .number({ invalid_type_error: 'Quantity must be at least 1' })
        .int('Quantity must be at least 1')
        .min(1, 'Quantity must be at least 1')
        .max(10_000_000, 'Quantity is too large')
        .optional(),
    ),
  })
  .partial();

function rarityFor(totalQuantity: number, requested: Rarity | 'auto' | null | undefined, current?: Pin) {
  if (requested && requested !== 'auto') return { rarity: requested, rarityScore: RARITY_SCORE[requested], rarityLocked: true };
  if (requested === undefined && current?.rarityLocked) {
    return { rarity: current.rarity, rarityScore: current.rarityScore, rarityLocked: true };
  }
  return { ...rarityFromQuantity(totalQuantity), rarityLocked: false };
}

function splitImages(list: ImageInput[]): { keep: string[]; uploads: { index: number; input: ImageInput }[] } {
  const keep: string[] = [];
  const uploads: { index: number; input: ImageInput }[] = [];
  list.forEach((item, index) => {
    const existing = typeof item === 'string' ? imageIdOf(item.trim()) : null;
    if (existing) keep.push(existing);
    else uploads.push({ index, input: item });
  });
  return { keep, uploads };
}

/** The images field as a list of uploads/refs; anything else a client can send is a 400. */
function imageListOf(value: unknown): ImageInput[] {
  if (value == null) return [];
  if (!Array.isArray(value)) throw new Invalid('Images must be a list of files or data URLs', { images: ['Images must be a list of files or data URLs'] });
  const list = value.filter((i) => i != null && !(typeof i === 'string' && !i.trim()));
  for (const item of list) {
    if (typeof item !== 'string' && !(item instanceof Uint8Array) && !(typeof Blob !== 'undefined' && item instanceof Blob)) {
      throw new Invalid('Each image must be a file or a data URL', { images: ['Each image must be a file or a data URL'] });
    }
  }
  if (list.length > MAX_PIN_PHOTOS) tooManyPhotos();
  return list as ImageInput[];
}

function tooManyPhotos(): never {
  const message = `Maximum is ${MAX_PIN_PHOTOS} photos total.`;
  throw new Invalid(message, { images: [message] });
}

// ---------------------------------------------------------------- reading

const pinColumns = getTableColumns(pins);
const dtoColumns = { ...pinColumns, orgName: organizations.name, teamName: teams.name };
type PinRow = Pin & { orgName: string | null; teamName: string | null };

function rowToDto(row: PinRow): PinDto {
  const { orgName, teamName, ...pin } = row;
  return toPinDto(
    pin,
    orgName != null ? { id: pin.organizationId, name: orgName } : null,
    pin.teamId && teamName != null ? { id: pin.teamId, name: teamName } : null,
  );
}

function baseSelect(conn: Db = db()) {
  return conn
    .select(dtoColumns)
    .from(pins)
    .innerJoin(organizations, eq(organizations.id, pins.organizationId))
    .leftJoin(teams, eq(teams.id, pins.teamId));
}

// the hot reads, built and prepared once (pin detail, the home lists)
const pinById = prepared((conn) => baseSelect(conn).where(eq(pins.id, sql.placeholder('id'))).prepare());
const newestQuery = prepared((conn) =>
  baseSelect(conn).orderBy(desc(pins.createdAt), desc(pins.id)).limit(sql.placeholder('limit')).prepare(),
);
const rarestOrder = [desc(pins.rarityScore), asc(pins.totalQuantity), desc(pins.createdAt), desc(pins.id)];
const rarestQuery = prepared((conn) => baseSelect(conn).orderBy(...rarestOrder).limit(sql.placeholder('limit')).prepare());
const ultraRareQuery = prepared((conn) =>
  baseSelect(conn).where(eq(pins.rarity, 'ultra_rare')).orderBy(...rarestOrder).limit(sql.placeholder('limit')).prepare(),
);
const highestValueQuery = prepared((conn) =>
  baseSelect(conn)
    .where(isNotNull(pins.estimatedValueCents))
    .orderBy(desc(pins.estimatedValueCents), desc(pins.createdAt), desc(pins.id))
    .limit(sql.placeholder('limit'))
    .prepare(),
);

/** One pin, or NotFound('Pin Not Found'). */
export async function getPin(id: string): Promise<PinDto> {
  const row = typeof id === 'string' && id.length <= 64 ? await pinById().get({ id }) : undefined;
  if (!row) throw new NotFound('Pin Not Found');
  return rowToDto(row);
}

/** Pins by id, in the order asked; unknown ids are skipped. */
export async function getPinsByIds(ids: string[]): Promise<PinDto[]> {
  const unique = [...new Set(ids.filter((id) => typeof id === 'string'))];
  if (unique.length === 0) return [];
  const rows = await baseSelect().where(inArray(pins.id, unique));
  const byId = new Map(rows.map((r) => [r.id, rowToDto(r)]));
  return ids.map((id) => byId.get(id)).filter((p): p is PinDto => !!p);
}

/** The raw row (for authorization checks). */
async function getPinRow(id: string): Promise<Pin> {
  const row = typeof id === 'string' && id.length <= 64 ? await db().select().from(pins).where(eq(pins.id, id)).get() : undefined;
  if (!row) throw new NotFound('Pin Not Found');
  return row;
}

const clampLimit = (limit: unknown, fallback: number) => {
  const n = typeof limit === 'string' ? Number(limit) : typeof limit === 'number' ? limit : NaN;
  if (!Number.isFinite(n)) return fallback;
  return Math.min(MAX_LIST_LIMIT, Math.max(1, Math.floor(n)));
};

/** Newest first (all pins). */
export async function newestPins(limit: unknown = 4): Promise<PinDto[]> {
  const rows = await newestQuery().all({ limit: clampLimit(limit, 4) });
  return rows.map(rowToDto);
}

/** Rarest first (score, then fewest made); `ultraRareOnly` for the home tab 'Ultra Rare Finds'. */
export async function rarestPins(limit: unknown = 4, opts: { ultraRareOnly?: boolean } = {}): Promise<PinDto[]> {
  const rows = await (opts.ultraRareOnly ? ultraRareQuery() : rarestQuery()).all({ limit: clampLimit(limit, 4) });
  return rows.map(rowToDto);
}

/** Most valuable first; pins without an estimated value are left out. */
export async function highestValuePins(limit: unknown = 4): Promise<PinDto[]> {
  const rows = await highestValueQuery().all({ limit: clampLimit(limit, 4) });
  return rows.map(rowToDto);
}

/**
 * The counts on the home tabs: Newest = every pin, Rarest = ultra rare pins (the tab is
 * 'Ultra Rare Finds'), High Value = pins with an estimated value. One query, kept until the
 * database is written to.
 */
export async function homeTabCounts(): Promise<{ newest: number; rarest: number; value: number }> {
  return { ...(await tabCounts()) };
}
const tabCounts = cachedUntilWrite(async () => {
  const row = await db()
    .select({
      newest: count(),
      rarest: sql<number>`coalesce(sum(case when ${pins.rarity} = 'ultra_rare' then 1 else 0 end), 0)`,
      value: sql<number>`coalesce(sum(case when ${pins.estimatedValueCents} is not null then 1 else 0 end), 0)`,
    })
    .from(pins)
    .get();
  return { newest: Number(row?.newest ?? 0), rarest: Number(row?.rarest ?? 0), value: Number(row?.value ?? 0) };
});

// ---------------------------------------------------------------- search

/**
 * The FTS5 table of drizzle/migrations/0001_pins_fts.sql, declared here for queries only (it is
 * a virtual table kept by triggers, so it stays out of the schema the migrations are made from).
 */
const pinsFts = sqliteTable('pins_fts', {
  rowid: integer('rowid').notNull(),
  name: text('name'),
  organization: text('organization'),
  event: text('event'),
  description: text('description'),
});

/**
 * A safe FTS5 MATCH expression from whatever a user typed: words of letters and digits only
 * (everything else, FTS syntax included, is a separator, as for the unicode61 tokenizer), each
 * quoted, the ones of 2+ characters as prefixes, all required. Null when nothing searchable is left.
 */
export function buildMatchQuery(input: string | null | undefined): string | null {
  if (!input) return null;
  const words = input
    .normalize('NFKC')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, 8)
    .map((w) => w.slice(0, 40));
  if (words.length === 0) return null;
  return words.map((w) => (w.length >= 2 ? `"${w}"*` : `"${w}"`)).join(' ');
}

/**
 * The pins a search matches, as a condition on `pins` (the admin table's search): the same words
 * and prefixes as browse, through the FTS index. Null when nothing searchable was typed.
 */
export function pinSearchCondition(search: string | null | undefined): SQL | null {
  const match = buildMatchQuery(search);
  return match ? sql`${pins}.rowid in (select rowid from pins_fts where pins_fts match ${match})` : null;
}

export interface PinListFilters {
  search?: string | null;
  rarity?: string | null;
  organizationId?: string | null;
  /** only pins added up to this moment: keeps offset paging stable while new pins arrive */
  createdUpTo?: Date | null;
  /** only pins of this year */
  year?: number | null;
  /**
   * The order: newest (the default; with a search, best match first), name, year, value or rarity,
   * each in `dir` (pins without a year or value come last either way).
   */
  sort?: PinSort | null;
  dir?: 'asc' | 'desc' | null;
  limit?: unknown;
  offset?: unknown;
  /**
   * Count at most this many matches (browse shows "1,000+"): a broad search or a large catalogue
   * is then not counted in full on every page. Without it the count is exact (/api/pins).
   */
  countUpTo?: number;
  /** how many of the most recently added matches a search ranks by best match (RANK_WINDOW) */
  rankWindow?: number;
}

export interface PinListResult {
  pins: PinDto[];
  /** the matches, or `countUpTo` when there are more (then `totalCapped`) */
  total: number;
  totalCapped: boolean;
  limit: number;
  offset: number;
  hasMore: boolean;
}

export const PIN_SORTS = ['newest', 'name', 'year', 'value', 'rarity'] as const;
export type PinSort = (typeof PIN_SORTS)[number];

function pinOrder(sort: PinSort, dir: 'asc' | 'desc'): SQL[] {
  const d = dir === 'asc' ? sql`asc` : sql`desc`;
  const newest = [desc(pins.createdAt), desc(pins.id)];
  switch (sort) {
    case 'name':
      return [sql`${pins.name} collate nocase ${d}`, desc(pins.id)];
    case 'year':
      return [sql`${pins.year} ${d} nulls last`, ...newest];
    case 'value':
      return [sql`${pins.estimatedValueCents} ${d} nulls last`, ...newest];
    case 'rarity':
      return [sql`${pins.rarityScore} ${d}`, ...newest];
    default:
      return dir === 'asc' ? [asc(pins.createdAt), asc(pins.id)] : newest;
  }
}

/** The years pins in the catalogue have, newest first (browse's year filter); kept until the database is written to. */
export async function listPinYears(): Promise<number[]> {
  return [...(await pinYears())];
}
const pinYears = cachedUntilWrite(async () => {
  // one index seek per year (pins_year_idx), newest first: DISTINCT walked every pin's entry
  // (about 40 ms of each browse page at 100,000 pins)
  const rows = await db().all<{ year: number | null }>(sql`
    with recursive y(year) as (
      select max(year) from pins
      union all
      select (select max(year) from pins where year < y.year) from y where y.year is not null
    )
    select year from y where year is not null`);
  return rows.map((r) => (r.year == null ? null : Number(r.year))).filter((y): y is number => y != null);
});

/** Normalises the filters as the API and the browse page receive them. */
export function normaliseFilters(filters: PinListFilters) {
  const rarity = isOneOf(RARITIES, filters.rarity) ? filters.rarity : null;
  const organizationId = filters.organizationId && filters.organizationId.length <= 64 ? filters.organizationId : null;
  const search = typeof filters.search === 'string' ? filters.search.slice(0, 200) : null;
  return { rarity, organizationId, search, match: buildMatchQuery(search) };
}

/**
 * How many matches a search ranks by best match: the most recently added ones (see listPins).
 * Above browse's count cap (1,000), so a ranked page also tells browse its count.
 */
export const RANK_WINDOW = 2000;

/**
 * Browse and GET /api/pins: full-text search (bm25: name weighs most, then organization, event,
 * description) combined with rarity, organization and year; stable order; paged.
 *
 * A search in the default order ranks the RANK_WINDOW most recently added matches (after the
 * filters) by best match (then newest, then id) and lists any older matches after them, most
 * recently added first: bm25 costs the same for every match it scores, so a broad search of a
 * large catalogue ("baseball": 82,000 of 100,000 pins) is no longer scored in full for each page.
 * With fewer matches than the window (any search of a catalogue up to 2,000 pins) the order is
 * the full ranking, as before.
 */
export async function listPins(filters: PinListFilters = {}): Promise<PinListResult> {
  const { rarity, organizationId, match } = normaliseFilters(filters);
  const limit = clampLimit(filters.limit, 24);
  const rawOffset = typeof filters.offset === 'string' ? Number(filters.offset) : typeof filters.offset === 'number' ? filters.offset : 0;
  const offset = Number.isFinite(rawOffset) ? Math.min(1_000_000, Math.max(0, Math.floor(rawOffset))) : 0;
  const year = typeof filters.year === 'number' && Number.isInteger(filters.year) ? filters.year : null;
  const sort: PinSort = isOneOf(PIN_SORTS, filters.sort) ? filters.sort : 'newest';
  const dir = filters.dir === 'asc' ? 'asc' : filters.dir === 'desc' ? 'desc' : sort === 'name' ? 'asc' : 'desc';
  const upTo = filters.createdUpTo && !Number.isNaN(filters.createdUpTo.getTime()) ? filters.createdUpTo.getTime() : null;
  const shape: ListShape = { rarity: !!rarity, organization: !!organizationId, year: year != null, upTo: upTo != null, search: !!match, sort, dir };
  const values = { rarity, organizationId, year, upTo, match };
  const queries = listQueries(shape);
  const cap = typeof filters.countUpTo === 'number' && filters.countUpTo > 0 ? Math.floor(filters.countUpTo) : null;

  // 1. the page's pins as rowids, in order; one more than the page tells whether there is a next one
  let ids: number[];
  // the matches when a ranked search counted them all (fewer than the window)
  let counted: number | null = null;
  if (queries.ranked) {
    const window = typeof filters.rankWindow === 'number' && filters.rankWindow > 0 ? Math.floor(filters.rankWindow) : RANK_WINDOW;
    const rows = await queries.ranked.page.all({ ...values, window, limit: limit + 1, offset });
    const inWindow = Number(rows[0]?.n ?? 0);
    ids = rows.filter((r) => r.rowid != null).map((r) => Number(r.rowid));
    if (inWindow < window) counted = inWindow;
    else {
      if (cap && cap < window) counted = window;
      if (ids.length <= limit && rows[0]?.lo != null) {
        // past the window: the older matches, most recently added first
        const rest = await queries.ranked.older.all({ ...values, lo: rows[0].lo, limit: limit + 1 - ids.length, offset: Math.max(0, offset - inWindow) });
        ids.push(...rest.map((r) => Number(r.rowid)));
      }
    }
  } else {
    ids = (await queries.ids.all({ ...values, limit: limit + 1, offset })).map((r) => r.rowid);
  }
  const hasMore = ids.length > limit;
  const pageIds = ids.slice(0, limit);
  // 2. the cards' columns of those pins only
  const found = pageIds.length ? await pageCards().all({ rowids: JSON.stringify(pageIds) }) : [];
  const byRowid = new Map(found.map(({ rowid: id, ...row }) => [id, row as PinRow]));
  const rows = pageIds.map((id) => byRowid.get(id)).filter((r): r is PinRow => !!r);

  // the count: exact, or up to `countUpTo` (a search counts in the FTS index, the filters as sets)
  let total: number;
  let totalCapped = false;
  if (!hasMore && (pageIds.length > 0 || offset === 0)) total = offset + pageIds.length;
  else {
    // LIMIT -1: no limit
    total = counted ?? Number((await queries.count.get({ ...values, cap: cap ? cap + 1 : -1 }))?.n ?? 0);
    if (cap && total > cap) {
      total = cap;
      totalCapped = true;
    }
  }
  return { pins: rows.map(rowToDto), total, totalCapped, limit, offset, hasMore };
}

/** Which filters a listing has and its order: each shape's queries are built and prepared once. */
interface ListShape {
  rarity: boolean;
  organization: boolean;
  year: boolean;
  upTo: boolean;
  search: boolean;
  sort: PinSort;
  dir: 'asc' | 'desc';
}

const rowidOf = sql<number>`${pins}.rowid`;
const ftsRowid = sql<number>`${pinsFts}.rowid`;
const bm25 = sql`bm25(pins_fts, 10.0, 4.0, 3.0, 1.0)`;

/*
 * What the query plans do (tests/bench/browse.ts, 100,000 pins): a search is driven by the FTS
 * table, in rowid order, and each match is checked against the filters as sets built once from
 * their indexes (`+rowid in (...)`; the unary + keeps SQLite from handing the set to FTS5 as
 * rowid lookups, each of which reran the whole search and its bm25 statistics: 1.3 s for a
 * filtered search's page 2). A match is never joined to its pin row to be filtered, nor to be
 * sorted unless it is on the ranked page. A search in another order walks that order's index and
 * checks each pin against the matches as a set.
 */
function buildListQueries(conn: Db, shape: ListShape) {
  // In an order other than newest, one filter's index drives the page (0011_filter_sorts: rarity
  // and year each with every other sort; an organization's few pins are sorted): the organization
  // when there is one, else the year, else the rarity. The others are checked on each pin (a
  // unary + keeps their index out); left to itself, SQLite drove rarity + organization sorted by
  // name from the rarity's index and read 70 ms of rows for page 50 at 100,000 pins.
  const newest = shape.sort === 'newest';
  const driver = newest ? null : shape.organization ? 'organization' : shape.year ? 'year' : 'rarity';
  const filterOn = (column: typeof pins.rarity | typeof pins.organizationId | typeof pins.year, name: string, drives: boolean) =>
    drives ? sql`${column} = ${sql.placeholder(name)}` : sql`+${column} = ${sql.placeholder(name)}`;
  const filters: SQL[] = [];
  if (shape.rarity) filters.push(filterOn(pins.rarity, 'rarity', newest || driver === 'rarity'));
  if (shape.organization) filters.push(filterOn(pins.organizationId, 'organizationId', newest || driver === 'organization'));
  if (shape.year) filters.push(filterOn(pins.year, 'year', newest || driver === 'year'));
  const order = pinOrder(shape.sort, shape.dir);

  if (!shape.search) {
    const conditions = [...filters];
    // unary + keeps the planner from driving the query by the date index; it stays a plain filter
    if (shape.upTo) conditions.push(sql`+${pins.createdAt} <= ${sql.placeholder('upTo')}`);
    const where = conditions.length ? and(...conditions) : undefined;
    const ids = conn.select({ rowid: rowidOf }).from(pins).where(where).orderBy(...order).limit(sql.placeholder('limit')).offset(sql.placeholder('offset')).prepare();
    const matching = conn.select({ one: sql`1` }).from(pins).where(where);
    const count = conn.select({ n: sql<number>`count(*)` }).from(matching.limit(sql.placeholder('cap')).as('matching')).prepare();
    return { ids, count, ranked: null };
  }

  // the matches that pass the filters, as a condition on pins_fts
  const matchSql = sql`${pinsFts} MATCH ${sql.placeholder('match')}`;
  const ftsConditions = [matchSql];
  if (filters.length) ftsConditions.push(sql`+${ftsRowid} in (select rowid from ${pins} where ${and(...filters)})`);
  // pins added after the list was first shown: few, found by the date index
  if (shape.upTo) ftsConditions.push(sql`+${ftsRowid} not in (select rowid from ${pins} where ${pins.createdAt} > ${sql.placeholder('upTo')})`);
  const ftsWhere = and(...ftsConditions);
  const count = conn
    .select({ n: sql<number>`count(*)` })
    .from(conn.select({ one: sql`1` }).from(pinsFts).where(ftsWhere).limit(sql.placeholder('cap')).as('matching'))
    .prepare();

  if (shape.sort === 'newest' && shape.dir === 'desc') {
    // newest (the default) reads as best match when searching: the window of the most recently
    // added matches ranked (bm25, newest, id), with its size and its oldest rowid on every row
    // (and on the one row there is when the page is past the window). Only the matches up to the
    // page's last score are joined to their pins for the tie-breaks (e): on page 1, about 25.
    const page = conn
      .select({ n: sql<number>`n`, lo: sql<number | null>`lo`, rowid: sql<number | null>`rowid` })
      .from(
        sql`(with w as (select ${ftsRowid} as rowid, ${bm25} as r from ${pinsFts} where ${ftsWhere} order by ${ftsRowid} desc limit ${sql.placeholder('window')}),
          s as (select count(*) as n, min(rowid) as lo from w),
          e as (select r from w order by r limit 1 offset ${sql.placeholder('offset')} + ${sql.placeholder('limit')} - 1),
          p as (select ${rowidOf} as rowid, row_number() over (order by w.r, ${pins.createdAt} desc, ${pins.id} desc) as pos from w join ${pins} on ${rowidOf} = w.rowid
            where w.r <= coalesce((select r from e), w.r))
          select s.n, s.lo, p.rowid, p.pos from s left join p on p.pos > ${sql.placeholder('offset')} and p.pos <= ${sql.placeholder('offset')} + ${sql.placeholder('limit')})`,
      )
      .orderBy(sql`pos`)
      .prepare();
    const older = conn
      .select({ rowid: ftsRowid })
      .from(pinsFts)
      .where(and(ftsWhere, sql`${ftsRowid} < ${sql.placeholder('lo')}`))
      .orderBy(sql`${ftsRowid} desc`)
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
      .prepare();
    return { ids: null, count, ranked: { page, older } };
  }

  const conditions = [...filters, sql`+${rowidOf} in (select rowid from ${pinsFts} where ${matchSql})`];
  if (shape.upTo) conditions.push(sql`+${pins.createdAt} <= ${sql.placeholder('upTo')}`);
  const ids = conn.select({ rowid: rowidOf }).from(pins).where(and(...conditions)).orderBy(...order).limit(sql.placeholder('limit')).offset(sql.placeholder('offset')).prepare();
  return { ids, count, ranked: null };
}

const listQueriesByDb = prepared(() => new Map<string, ReturnType<typeof buildListQueries>>());
function listQueries(shape: ListShape) {
  const byShape = listQueriesByDb();
  const key = JSON.stringify(shape);
  let queries = byShape.get(key);
  if (!queries) {
    // at most 2^5 filter combinations x 10 orders
    queries = buildListQueries(db(), shape);
    byShape.set(key, queries);
  }
  return queries;
}

const pageCards = prepared((conn) =>
  conn
    .select({ ...dtoColumns, rowid: rowidOf })
    .from(pins)
    .innerJoin(organizations, eq(organizations.id, pins.organizationId))
    .leftJoin(teams, eq(teams.id, pins.teamId))
    .where(sql`${rowidOf} in (select value from json_each(${sql.placeholder('rowids')}))`)
    .prepare(),
);

// ---------------------------------------------------------------- writing

/**
 * The one rule for attaching an image already stored: it must exist and be the actor's own (see
 * resolveImageIds); `allowed` are images the caller already trusts (the pin's own, vouched ones).
 */
export async function assertImagesUsableBy(tx: Db, actorId: string, refs: string[], allowedIds: string[] = []): Promise<void> {
  const unique = [...new Set(refs)];
  if (!unique.length) return;
  const allowed = new Set(allowedIds);
  const others = unique.filter((r) => !allowed.has(r));
  if (others.length) {
    const own = await tx
      .select({ imageData: identifications.imageData })
      .from(identifications)
      // the photo is kept as its id (older rows: its URL)
      .where(and(or(eq(identifications.userId, actorId), isNull(identifications.userId)), inArray(identifications.imageData, [...others, ...others.map((r) => imageUrl(r))])));
    for (const row of own) {
      const ref = imageIdOf(row.imageData ?? '');
      if (ref) allowed.add(ref);
    }
    // and the photos of pins the actor made (a second edition of their own pin)
    const mine = await tx.select({ images: pins.images }).from(pins).where(eq(pins.createdBy, actorId));
    for (const row of mine) for (const ref of row.images) if (others.includes(ref)) allowed.add(ref);
  }
  const found = new Set((await tx.select({ id: images.id }).from(images).where(inArray(images.id, unique))).map((r) => r.id));
  if (unique.some((r) => !found.has(r) || !allowed.has(r))) throw new Invalid('Image not found', { images: ['Image not found'] });
}

/**
 * Inside the transaction: the final image ids in the order given. Uploads are saved. A reference
 * to an image already stored ('/images/{id}') is kept only if it is the actor's own: a photo the
 * pin already has, one the caller vouches for, or the photo of one of the actor's own
 * identifications or of a signed-out one (the "add this pin" flow, signed in after the photo), or
 * a photo of a pin the actor made. Anything else reads as not found, so nobody attaches
 * another user's picture (a profile picture, a private photo) by its id, or learns it exists.
 */
async function resolveImageIds(tx: Db, order: ImageInput[], prepared: Map<number, PreparedImage>, owner: { actorId: string; allowed?: string[] }): Promise<string[]> {
  await assertImagesUsableBy(tx, owner.actorId, splitImages(order).keep, owner.allowed);
  const ids: string[] = [];
  for (let i = 0; i < order.length; i++) {
    const upload = prepared.get(i);
    if (upload) ids.push((await savePreparedImage(tx, upload)).id);
    else {
      const item = order[i];
      const ref = typeof item === 'string' ? imageIdOf(item.trim()) : null;
      if (ref) ids.push(ref);
    }
  }
  return [...new Set(ids)];
}

/** The uploads decoded and re-encoded, before the transaction. */
async function prepareUploads(order: ImageInput[]): Promise<Map<number, PreparedImage>> {
  const { uploads } = splitImages(order);
  const prepared = new Map<number, PreparedImage>();
  // one at a time: sharp runs with concurrency 1 and phones upload few photos
  for (const u of uploads) prepared.set(u.index, await prepareImage(u.input));
  return prepared;
}

/**
 * Adds a pin. Images are decoded and re-encoded before the transaction (no CPU work inside it);
 * the organization (created when its name is new), the pin and the creator's own collection entry
 * are written in one transaction; the visual index is updated after commit.
 */
export interface CreatePinOptions {
  /** the creator's collection gets the pin as 'Original contributor' (default); admins curating the catalogue opt out */
  contributorEntry?: boolean;
  /** write a 'pin.create' row to the audit log in the pin's transaction (admin pin form) */
  audit?: boolean;
  /**
   * stored images the caller vouches for (a suggestion's photos, attached by the admin approving
   * it); any other reference must be the actor's own upload (see resolveImageIds)
   */
  vouchedImageIds?: string[];
  /**
   * who the pin is from, when not the actor: an approved suggestion's suggester (the actor, an
   * admin, was checked). The pin is theirs (creator, contributor badges) and enters their collection.
   */
  contributor?: Actor;
}

export async function createPin(
  actor: Actor | null,
  input: CreatePinInput,
  options: CreatePinOptions = {},
): Promise<PinDto & { newlyUnlockedBadges: UnlockedBadge[]; completedChallenges: CompletedChallenge[] }> {
  assertCanCreatePin(actor);
  const user = options.contributor ?? actor;
  const data = parseWith(createSchema, input);
  const issues: Record<string, string[]> = {};
  if (!data.organizationId && !data.organizationName) issues.organizationName = ['Organization is required'];
  if (data.rarity && data.rarity !== 'auto') assertCanCurate(user, 'rarity');
  if (data.isFeatured) assertCanCurate(user, 'featured');
  const totalQuantity = data.totalQuantity ?? 100;
  if (data.availableQuantity != null && data.availableQuantity > totalQuantity) {
    issues.availableQuantity = ['Available quantity cannot be more than the total quantity'];
  }
  const imageList = imageListOf(input.images);
  if (Object.keys(issues).length) throw new Invalid(Object.values(issues)[0][0], issues);

  const prepared = await prepareUploads(imageList);
  const primaryPhotoIndex = data.primaryPhotoIndex != null && data.primaryPhotoIndex < imageList.length ? data.primaryPhotoIndex : 0;

  const { pinId, imageIds, newlyUnlockedBadges, completedChallenges } = await transaction(async (tx) => {
    let organizationId: string;
    if (data.organizationId) {
      const org = await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, data.organizationId)).get();
      if (!org) throw new Invalid('Organization not found', { organizationId: ['Organization not found'] });
      organizationId = org.id;
    } else {
      organizationId = (await findOrCreateOrganization(tx, data.organizationName as string)).id;
    }
    if (data.teamId) {
      const team = await tx.select({ id: teams.id }).from(teams).where(eq(teams.id, data.teamId)).get();
      if (!team) throw new Invalid('Team not found', { teamId: ['Team not found'] });
    }
    const ids = await resolveImageIds(tx, imageList, prepared, { actorId: user.id, allowed: options.vouchedImageIds });
    const [pin] = await tx
      .insert(pins)
      .values({
        name: data.name,
        description: data.description ?? null,
        organizationId,
        teamId: data.teamId ?? null,
        createdBy: user.id,
        totalQuantity,
        // a new pin is fully available unless told otherwise
        availableQuantity: data.availableQuantity ?? totalQuantity,
        distributionDate: data.distributionDate ?? null,
        images: ids,
        primaryPhotoIndex: primaryPhotoIndex < ids.length ? primaryPhotoIndex : 0,
        year: data.year ?? null,
        event: data.event ?? null,
        ...rarityFor(totalQuantity, data.rarity),
        estimatedValueCents: data.estimatedValue == null ? null : Math.round(data.estimatedValue * 100),
        isFeatured: data.isFeatured ?? false,
      })
      .returning({ id: pins.id });
    if (options.audit) {
      await recordAudit(tx, {
        actor: user,
        action: 'pin.create',
        targetType: 'pin',
        targetId: pin.id,
        details: { after: { name: data.name, organizationId, teamId: data.teamId ?? null, totalQuantity, isFeatured: data.isFeatured ?? false, images: ids.length } },
      });
    }
    if (options.contributorEntry === false) return { pinId: pin.id, imageIds: ids, newlyUnlockedBadges: [] as UnlockedBadge[], completedChallenges: [] as CompletedChallenge[] };
    const entry = await addCollectionEntry(tx, user.id, {
      pinId: pin.id,
      status: 'owned',
      quantity: 1,
      condition: 'mint',
      tradeable: false,
      notes: 'Original contributor',
    });
    return { pinId: pin.id, imageIds: ids, newlyUnlockedBadges: entry.newlyUnlockedBadges, completedChallenges: entry.completedChallenges };
  });

  if (imageIds.length) await indexPinImages(pinId, imageIds).catch((error) => console.error('indexPinImages failed', error));
  return { ...(await getPin(pinId)), newlyUnlockedBadges, completedChallenges };
}

/** Edits a pin (creator or admin). Only the fields given change; '' or null clears optional text. */
export async function updatePin(actor: Actor | null, id: string, input: UpdatePinInput | Record<string, unknown>): Promise<PinDto> {
  assertSignedIn(actor);
  const current = await getPinRow(id);
  assertCanEditPin(actor, current, 'edit');
  const raw = input as Record<string, unknown>;
  const data = parseWith(updateSchema, raw);
  const has = (key: string) => Object.prototype.hasOwnProperty.call(raw, key) && raw[key] !== undefined;
  if (has('rarity') && data.rarity !== undefined) assertCanCurate(actor, 'rarity');
  if (has('isFeatured') && data.isFeatured !== undefined && data.isFeatured !== current.isFeatured) assertCanCurate(actor, 'featured');

  const totalQuantity = data.totalQuantity ?? current.totalQuantity;
  let availableQuantity = has('availableQuantity') && data.availableQuantity != null ? data.availableQuantity : current.availableQuantity;
  if (has('availableQuantity') && availableQuantity > totalQuantity) {
    throw new Invalid('Available quantity cannot be more than the total quantity', {
      availableQuantity: ['Available quantity cannot be more than the total quantity'],
    });
  }
  // fewer pieces made than were available: nothing more can be available than exists
  availableQuantity = Math.min(availableQuantity, totalQuantity);

  const imageOrder = raw.images !== undefined ? imageListOf(raw.images) : null;
  const prepared = imageOrder ? await prepareUploads(imageOrder) : new Map<number, PreparedImage>();

  const patch: Partial<typeof pins.$inferInsert> = {};
  if (has('name') && data.name !== undefined) patch.name = data.name;
  if (has('description')) patch.description = data.description ?? null;
  if (has('event')) patch.event = data.event ?? null;
  if (has('year')) patch.year = data.year ?? null;
  if (has('teamId')) patch.teamId = data.teamId ?? null;
  if (has('distributionDate')) patch.distributionDate = data.distributionDate ?? null;
  if (has('estimatedValue')) patch.estimatedValueCents = data.estimatedValue == null ? null : Math.round(data.estimatedValue * 100);
  if (has('isFeatured') && data.isFeatured !== undefined) patch.isFeatured = data.isFeatured;
  patch.totalQuantity = totalQuantity;
  patch.availableQuantity = availableQuantity;
  Object.assign(patch, rarityFor(totalQuantity, has('rarity') ? data.rarity : undefined, current));

  const newImageIds = await transaction(async (tx) => {
    if (has('organizationId') && data.organizationId) {
      const org = await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, data.organizationId)).get();
      if (!org) throw new Invalid('Organization not found', { organizationId: ['Organization not found'] });
      patch.organizationId = org.id;
    } else if (has('organizationName') && data.organizationName) {
      patch.organizationId = (await findOrCreateOrganization(tx, data.organizationName)).id;
    }
    if (patch.teamId) {
      const team = await tx.select({ id: teams.id }).from(teams).where(eq(teams.id, patch.teamId)).get();
      if (!team) throw new Invalid('Team not found', { teamId: ['Team not found'] });
    }
    let ids: string[] | null = null;
    if (imageOrder) {
      ids = await resolveImageIds(tx, imageOrder, prepared, { actorId: (actor as Actor).id, allowed: current.images });
      patch.images = ids;
    }
    const imageCount = (ids ?? current.images).length;
    const wantedPrimary = has('primaryPhotoIndex') && data.primaryPhotoIndex != null ? data.primaryPhotoIndex : ids ? 0 : current.primaryPhotoIndex;
    patch.primaryPhotoIndex = wantedPrimary < imageCount ? wantedPrimary : 0;
    await tx.update(pins).set(patch).where(eq(pins.id, id));
    const changed = changes(current, patch);
    if (changed) await recordAudit(tx, { actor, action: 'pin.update', targetType: 'pin', targetId: id, details: { name: current.name, ...changed } });
    return ids;
  });

  if (newImageIds) {
    try {
      await removePinFromIndex(id);
      if (newImageIds.length) await indexPinImages(id, newImageIds);
    } catch (error) {
      console.error('reindexing pin images failed', error);
    }
  }
  return getPin(id);
}

/** Deletes a pin (creator or admin); its identification records and collection entries go with it. */
export async function deletePin(actor: Actor | null, id: string): Promise<void> {
  assertSignedIn(actor);
  const current = await getPinRow(id);
  assertCanEditPin(actor, current, 'delete');
  await transaction(async (tx) => {
    // collectors of this pin lose their entry with it: keep their owned/wanted counts true
    const holders = await tx.select({ userId: userCollections.userId }).from(userCollections).where(eq(userCollections.pinId, id));
    await tx.delete(pins).where(eq(pins.id, id));
    for (const h of holders) await refreshCollectionCounts(tx, h.userId);
    await recordAudit(tx, {
      actor,
      action: 'pin.delete',
      targetType: 'pin',
      targetId: id,
      details: { before: { name: current.name, organizationId: current.organizationId, createdBy: current.createdBy, images: current.images } },
    });
  });
  await removePinFromIndex(id).catch((error) => console.error('removePinFromIndex failed', error));
}
