/**
 * Personal collections: one entry per (user, pin) with one status at a time (owned, wanted,
 * trading); moves change the row (unique index user_collections(user, pin)).
 *
 * Stats stay true: after every change pinsOwned/pinsWanted are recomputed from the lists with a
 * count query inside the same transaction (never incremented blindly), so parallel requests cannot
 * drift them. Badges earned by a change are awarded in that same transaction.
 *
 * Adding a pin that is already in the collection does not fail and does not create a second row:
 * - same status: the quantities add up (another copy of a pin you own), and condition, tradeable
 *   and notes take the newly submitted values (notes only when some were typed);
 * - another status: the entry moves to the submitted status with the submitted quantity,
 *   condition, tradeable and notes (e.g. a wanted pin you now own).
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import { assertCanReadCollection, assertCanWriteCollection, assertSignedIn, type Actor } from '~/auth/permissions';
import { db, prepared, transaction, type Db } from '~/db/index.server';
import {
  organizations,
  pins,
  teams,
  userCollections,
  type CollectionEntry,
  type CollectionStatus,
  type Condition,
} from '~/db/schema';
import { AddToCollectionApiSchema, COLLECTION_MOVES, MAX_COLLECTION_QUANTITY, MoveCollectionSchema } from '~/forms/collection';
import { parseWith } from '~/utils/validation';
import { COLLECTION_STATUSES, isOneOf } from '~/utils/constants';
import {
  evaluateBadges,
  recordActivityDay,
  refreshCollectionCounts,
  type ActivityOptions,
  type UnlockedBadge,
} from './achievements.server';
import { ensureAchievementsOnce } from './achievement-definitions.server';
import type { CompletedChallenge } from '~/types/achievements';
import { recordChallengeProgress } from './challenges.server';
import { Invalid, NotFound } from './errors';
import { toPinDto, type PinDto } from './pin-dto.server';
import { csvDocument } from '~/utils/csv';

export interface AddCollectionInput {
  pinId: string;
  status: CollectionStatus;
  quantity?: number;
  condition?: Condition;
  tradeable?: boolean;
  notes?: string | null;
}

/**
 * Adds (or updates, see the file comment) the user's entry for a pin, inside the caller's
 * transaction; keeps pinsOwned/pinsWanted true, marks the day active and awards badges.
 */
export async function addCollectionEntry(
  tx: Db,
  userId: string,
  input: AddCollectionInput,
  opts: ActivityOptions = {},
): Promise<{ entryId: string; newlyUnlockedBadges: UnlockedBadge[]; completedChallenges: CompletedChallenge[] }> {
  const data = parseWith(AddToCollectionApiSchema, input);
  const pin = await tx.query.pins.findFirst({ where: eq(pins.id, data.pinId), columns: { id: true } });
  if (!pin) throw new NotFound('Pin Not Found');
  const now = opts.now ?? new Date();

  const existing = await tx.query.userCollections.findFirst({
    where: and(eq(userCollections.userId, userId), eq(userCollections.pinId, data.pinId)),
  });
  let entryId: string;
  if (!existing) {
    const [row] = await tx
      .insert(userCollections)
      .values({
        userId,
        pinId: data.pinId,
        status: data.status,
        quantity: data.quantity,
        condition: data.condition,
        tradeable: data.status === 'trading' ? true : data.tradeable,
        notes: data.notes,
        acquiredAt: data.status === 'wanted' ? null : now,
      })
      .returning({ id: userCollections.id });
    entryId = row.id;
  } else if (existing.status === data.status) {
    await tx
      .update(userCollections)
      .set({
        quantity: Math.min(MAX_COLLECTION_QUANTITY, existing.quantity + data.quantity),
        condition: data.condition,
        tradeable: data.status === 'trading' ? true : data.tradeable,
        notes: data.notes ?? existing.notes,
        updatedAt: now,
      })
      .where(eq(userCollections.id, existing.id));
    entryId = existing.id;
  } else {
    await tx
      .update(userCollections)
      .set({
        status: data.status,
        quantity: data.quantity,
        condition: data.condition,
        tradeable: data.status === 'trading' ? true : data.tradeable,
        notes: data.notes ?? existing.notes,
        acquiredAt: data.status === 'wanted' ? existing.acquiredAt : (existing.acquiredAt ?? now),
        updatedAt: now,
      })
      .where(eq(userCollections.id, existing.id));
    entryId = existing.id;
  }

  await refreshCollectionCounts(tx, userId);
  await recordActivityDay(tx, userId, { ...opts, now });
  const newlyUnlockedBadges = await evaluateBadges(tx, userId, { now });
  const completedChallenges = await recordChallengeProgress(tx, userId, 'collection', { now });
  return { entryId, newlyUnlockedBadges, completedChallenges };
}

/** The add form / POST /api/collections: validates, checks sign-in, runs one transaction. */
export async function createCollectionEntry(
  actor: Actor | null,
  input: unknown,
  opts: ActivityOptions = {},
): Promise<{ entry: CollectionEntryDto; newlyUnlockedBadges: UnlockedBadge[]; completedChallenges: CompletedChallenge[] }> {
  assertSignedIn(actor, 'Please sign in to add pins to your collection');
  const data = parseWith(AddToCollectionApiSchema, input);
  await ensureAchievementsOnce();
  const result = await transaction((tx) => addCollectionEntry(tx, actor.id, data, opts));
  const entry = await getEntryById(result.entryId);
  return { entry, newlyUnlockedBadges: result.newlyUnlockedBadges, completedChallenges: result.completedChallenges };
}

/**
 * Moves the user's entry for a pin to another status (spec §4: owned → wanted/trading,
 * wanted → owned/trading, trading → owned ('Keep') or wanted). Moving to the status it already
 * has changes nothing. Counts and badges are updated in the same transaction.
 */
export async function moveCollectionEntry(
  actor: Actor | null,
  userId: string,
  input: { pinId: unknown; status: unknown },
  opts: ActivityOptions = {},
): Promise<{ entry: CollectionEntryDto; newlyUnlockedBadges: UnlockedBadge[]; completedChallenges: CompletedChallenge[] }> {
  assertCanWriteCollection(actor, userId);
  const { pinId, status } = parseWith(MoveCollectionSchema, input);
  await ensureAchievementsOnce();
  const now = opts.now ?? new Date();
  const result = await transaction(async (tx) => {
    const existing = await tx.query.userCollections.findFirst({
      where: and(eq(userCollections.userId, userId), eq(userCollections.pinId, pinId)),
    });
    if (!existing) throw new NotFound('This pin is not in your collection');
    if (existing.status === status) return { entryId: existing.id, newlyUnlockedBadges: [] as UnlockedBadge[], completedChallenges: [] as CompletedChallenge[] };
    if (!COLLECTION_MOVES[existing.status].includes(status)) {
      throw new Invalid(`A ${existing.status} pin cannot move to ${status}`, { status: [`A ${existing.status} pin cannot move to ${status}`] });
    }
    await tx
      .update(userCollections)
      .set({
        status,
        // putting a pin up for trade makes it tradeable; keeping it takes it off the table
        tradeable: status === 'trading' ? true : existing.status === 'trading' ? false : existing.tradeable,
        acquiredAt: status === 'wanted' ? existing.acquiredAt : (existing.acquiredAt ?? now),
        updatedAt: now,
      })
      .where(eq(userCollections.id, existing.id));
    await refreshCollectionCounts(tx, userId);
    await recordActivityDay(tx, userId, { ...opts, now });
    const newlyUnlockedBadges = await evaluateBadges(tx, userId, { now });
    const completedChallenges = await recordChallengeProgress(tx, userId, 'collection', { now });
    return { entryId: existing.id, newlyUnlockedBadges, completedChallenges };
  });
  const entry = await getEntryById(result.entryId);
  return { entry, newlyUnlockedBadges: result.newlyUnlockedBadges, completedChallenges: result.completedChallenges };
}

/**
 * Changes the user's own entry for a pin to exactly what the form says (the pin page's "Your copy"
 * form): status, quantity, condition, tradeable and notes replace the stored ones (empty notes clear
 * them). Unlike adding, nothing is merged. 404 when the pin is not in the collection.
 */
export async function updateCollectionEntry(
  actor: Actor | null,
  input: unknown,
  opts: ActivityOptions = {},
): Promise<{ entry: CollectionEntryDto; newlyUnlockedBadges: UnlockedBadge[]; completedChallenges: CompletedChallenge[] }> {
  assertSignedIn(actor, 'Please sign in to change your collection');
  const data = parseWith(AddToCollectionApiSchema, input);
  assertCanWriteCollection(actor, actor.id);
  await ensureAchievementsOnce();
  const now = opts.now ?? new Date();
  const result = await transaction(async (tx) => {
    const existing = await tx.query.userCollections.findFirst({
      where: and(eq(userCollections.userId, actor.id), eq(userCollections.pinId, data.pinId)),
    });
    if (!existing) throw new NotFound('This pin is not in your collection');
    await tx
      .update(userCollections)
      .set({
        status: data.status,
        quantity: data.quantity,
        condition: data.condition,
        tradeable: data.status === 'trading' ? true : data.tradeable,
        notes: data.notes,
        acquiredAt: data.status === 'wanted' ? existing.acquiredAt : (existing.acquiredAt ?? now),
        updatedAt: now,
      })
      .where(eq(userCollections.id, existing.id));
    await refreshCollectionCounts(tx, actor.id);
    await recordActivityDay(tx, actor.id, { ...opts, now });
    const newlyUnlockedBadges = await evaluateBadges(tx, actor.id, { now });
    const completedChallenges = await recordChallengeProgress(tx, actor.id, 'collection', { now });
    return { entryId: existing.id, newlyUnlockedBadges, completedChallenges };
  });
  const entry = await getEntryById(result.entryId);
  return { entry, newlyUnlockedBadges: result.newlyUnlockedBadges, completedChallenges: result.completedChallenges };
}

/** Removes a pin from the user's collection. */
export async function removeCollectionEntry(actor: Actor | null, userId: string, pinId: string): Promise<void> {
  assertCanWriteCollection(actor, userId);
  await transaction(async (tx) => {
    const deleted = await tx
      .delete(userCollections)
      .where(and(eq(userCollections.userId, userId), eq(userCollections.pinId, pinId)))
      .returning({ id: userCollections.id });
    if (!deleted.length) throw new NotFound('This pin is not in your collection');
    await refreshCollectionCounts(tx, userId);
  });
}

// ---------------------------------------------------------------- reads

export interface CollectionEntryDto {
  id: string;
  userId: string;
  pinId: string;
  pin: PinDto;
  status: CollectionStatus;
  quantity: number;
  condition: Condition;
  tradeable: boolean;
  notes: string | null;
  acquiredAt: string | null;
  createdAt: string;
  updatedAt: string;
}

function entrySelect(conn: Db) {
  return conn
    .select({ entry: userCollections, pin: pins, org: { id: organizations.id, name: organizations.name }, team: { id: teams.id, name: teams.name } })
    .from(userCollections)
    .innerJoin(pins, eq(pins.id, userCollections.pinId))
    .leftJoin(organizations, eq(organizations.id, pins.organizationId))
    .leftJoin(teams, eq(teams.id, pins.teamId));
}

type EntryRow = {
  entry: CollectionEntry;
  pin: typeof pins.$inferSelect;
  org: { id: string; name: string } | null;
  team: { id: string | null; name: string | null } | null;
};

function toEntryDto({ entry, pin, org, team }: EntryRow): CollectionEntryDto {
  return {
    id: entry.id,
    userId: entry.userId,
    pinId: entry.pinId,
    pin: toPinDto(pin, org, team?.id && team.name ? { id: team.id, name: team.name } : null),
    status: entry.status,
    quantity: entry.quantity,
    condition: entry.condition,
    tradeable: entry.tradeable,
    notes: entry.notes,
    acquiredAt: entry.acquiredAt ? entry.acquiredAt.toISOString() : null,
    createdAt: entry.createdAt.toISOString(),
    updatedAt: entry.updatedAt.toISOString(),
  };
}

async function getEntryById(entryId: string): Promise<CollectionEntryDto> {
  const [row] = await entrySelect(db()).where(eq(userCollections.id, entryId));
  if (!row) throw new NotFound('Collection entry not found');
  return toEntryDto(row);
}

export function parseStatus(value: unknown): CollectionStatus {
  if (isOneOf(COLLECTION_STATUSES, value)) return value;
  throw new NotFound('Not found');
}

/** One list of a user's collection, most recently changed first. Owner or admin. */
export async function listCollection(
  actor: Actor | null,
  userId: string,
  status: CollectionStatus,
): Promise<CollectionEntryDto[]> {
  assertCanReadCollection(actor, userId);
  const rows = await entrySelect(db())
    .where(and(eq(userCollections.userId, userId), eq(userCollections.status, status)))
    .orderBy(desc(userCollections.updatedAt), desc(userCollections.id));
  return rows.map(toEntryDto);
}

/** Every entry (CSV export), grouped by status then name. Owner or admin. */
export async function listWholeCollection(actor: Actor | null, userId: string): Promise<CollectionEntryDto[]> {
  assertCanReadCollection(actor, userId);
  const rows = await entrySelect(db())
    .where(eq(userCollections.userId, userId))
    .orderBy(userCollections.status, pins.name, userCollections.id);
  return rows.map(toEntryDto);
}

export async function getCollectionCounts(userId: string): Promise<Record<CollectionStatus, number>> {
  const rows = await db()
    .select({ status: userCollections.status, n: sql<number>`count(*)` })
    .from(userCollections)
    .where(eq(userCollections.userId, userId))
    .groupBy(userCollections.status);
  const counts: Record<CollectionStatus, number> = { owned: 0, wanted: 0, trading: 0 };
  for (const r of rows) counts[r.status] = Number(r.n);
  return counts;
}

/**
 * Estimated value of what the user holds: sum of estimated value × quantity over owned and
 * trading entries (wanted pins are not held). Pins without a value count as 0; `unvalued` says how
 * many entries had none.
 */
export async function getCollectionValue(userId: string): Promise<{ cents: number; unvalued: number }> {
  const [row] = await db()
    .select({
      cents: sql<number>`coalesce(sum(coalesce(${pins.estimatedValueCents}, 0) * ${userCollections.quantity}), 0)`,
      unvalued: sql<number>`coalesce(sum(case when ${pins.estimatedValueCents} is null then 1 else 0 end), 0)`,
    })
    .from(userCollections)
    .innerJoin(pins, eq(pins.id, userCollections.pinId))
    .where(and(eq(userCollections.userId, userId), sql`${userCollections.status} in ('owned', 'trading')`));
  return { cents: Number(row?.cents ?? 0), unvalued: Number(row?.unvalued ?? 0) };
}

/** The entry for one pin (GET /api/users/{id}/collection/{pinId}). Owner or admin. */
export async function getCollectionEntry(actor: Actor | null, userId: string, pinId: string): Promise<CollectionEntryDto> {
  assertCanReadCollection(actor, userId);
  const [row] = await entrySelect(db()).where(and(eq(userCollections.userId, userId), eq(userCollections.pinId, pinId)));
  if (!row) throw new NotFound('This pin is not in the collection');
  return toEntryDto(row);
}

/** Whether (and how) a pin is in the user's collection (pin detail pages may show it). */
const entryForPin = prepared((conn) =>
  conn.query.userCollections
    .findFirst({ where: and(eq(userCollections.userId, sql.placeholder('userId')), eq(userCollections.pinId, sql.placeholder('pinId'))) })
    .prepare(),
);

export async function getCollectionEntryForPin(userId: string, pinId: string): Promise<CollectionEntry | null> {
  const row = await entryForPin().execute({ userId, pinId });
  return row ?? null;
}

// ---------------------------------------------------------------- CSV export

const CSV_HEADER = [
  'Pin ID',
  'Name',
  'Organization',
  'Status',
  'Quantity',
  'Condition',
  'Tradeable',
  'Rarity',
  'Year',
  'Event',
  'Estimated Value (USD)',
  'Total Value (USD)',
  'Notes',
  'Acquired',
  'Added',
];

/** The whole collection as CSV (UTF-8 with BOM so spreadsheets read accents; CRLF rows per RFC 4180). */
export async function collectionCsv(actor: Actor | null, userId: string): Promise<string> {
  const entries = await listWholeCollection(actor, userId);
  return csvDocument(
    CSV_HEADER,
    entries.map((e) => {
      const value = e.pin.estimatedValue;
      return [
        e.pinId,
        e.pin.name,
        e.pin.organization?.name ?? '',
        e.status,
        e.quantity,
        e.condition,
        e.tradeable ? 'yes' : 'no',
        e.pin.rarity,
        e.pin.year,
        e.pin.event,
        value == null ? '' : value.toFixed(2),
        value == null ? '' : (value * e.quantity).toFixed(2),
        e.notes,
        e.acquiredAt ? e.acquiredAt.slice(0, 10) : '',
        e.createdAt.slice(0, 10),
      ];
    }),
  );
}
