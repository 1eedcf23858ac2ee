/**
 * Daily challenges: a few small goals a day (identify pins, find a rare pin, add to the collection,
 * order in the marketplace), each worth points once completed.
 *
 * - The day is the UTC calendar day, the same for everyone; a challenge expires at the next UTC
 *   midnight. The day's set comes from `CHALLENGE_RULES` through `challengesForDay`, a pure function
 *   of the date, so no admin has to plan anything and every process agrees on it.
 * - Rows are created lazily by the first request that needs the day (a page or an event), with one
 *   insert-or-ignore on the unique index daily_challenges(active_date, type): concurrent first
 *   requests create them once.
 * - Progress is counted from the same events that count toward badges (an identification, a
 *   collection change including a pin received in a trade, a placed order), inside the transaction
 *   of that event, and it is recounted from the day's rows rather than incremented: adding the same
 *   pin twice or retrying a request cannot inflate it.
 * - The reward is paid once: the row turns completed through one conditional update
 *   (`... WHERE completed = 0`), and only the request whose update changed the row adds the points
 *   to user_stats.achievement_points (the "Points" of the collection and badges pages).
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import { assertCanReadCollection, type Actor } from '~/auth/permissions';
import { db, prepared, transaction, type Db } from '~/db/index.server';
import { dailyChallenges, userChallengeProgress, userStats, users, type Rarity } from '~/db/schema';
import { ChallengeQuerySchema } from '~/forms/challenges';
import type { CompletedChallenge } from '~/types/achievements';
import { CHALLENGE_TYPES, RARITIES } from '~/utils/constants';
import { parseWith } from '~/utils/validation';
import { ensureUserStats } from './achievements.server';
import { Invalid, NotFound } from './errors';

export type ChallengeType = (typeof CHALLENGE_TYPES)[number];

export interface ChallengeRule {
  type: ChallengeType;
  name: string;
  description: string;
  target: number;
  /** points added on completion */
  reward: number;
  /** find_rarity: the least rarity that counts */
  rarity?: Rarity;
}

/** The rule set: the variants of each type a day can draw. */
export const CHALLENGE_RULES: Record<ChallengeType, ChallengeRule[]> = {
  identify_pins: [
    { type: 'identify_pins', name: 'Pin Spotter', description: 'Identify a pin from a photo', target: 1, reward: 10 },
    { type: 'identify_pins', name: 'Sharp Eye', description: 'Identify 3 pins from photos', target: 3, reward: 25 },
    { type: 'identify_pins', name: 'Photo Finish', description: 'Identify 5 pins from photos', target: 5, reward: 40 },
  ],
  find_rarity: [
    { type: 'find_rarity', name: 'Uncommon Hunt', description: 'Identify or collect 2 Uncommon or rarer pins', target: 2, reward: 20, rarity: 'uncommon' },
    { type: 'find_rarity', name: 'Rare Find', description: 'Identify or collect a Rare or Ultra Rare pin', target: 1, reward: 30, rarity: 'rare' },
    { type: 'find_rarity', name: 'Ultra Rare Chase', description: 'Identify or collect an Ultra Rare pin', target: 1, reward: 50, rarity: 'ultra_rare' },
  ],
  add_to_collection: [
    { type: 'add_to_collection', name: 'New Addition', description: 'Add a pin to your collection', target: 1, reward: 10 },
    { type: 'add_to_collection', name: 'Growing Collection', description: 'Add 3 pins to your collection', target: 3, reward: 25 },
  ],
  marketplace_activity: [
    { type: 'marketplace_activity', name: 'Market Day', description: 'Place an order in the marketplace', target: 1, reward: 20 },
  ],
};

/** How many challenges a day has (one type of the four rests each day). */
export const CHALLENGES_PER_DAY = CHALLENGE_TYPES.length - 1;

const DAY_MS = 24 * 60 * 60 * 1000;
const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** FNV-1a: a small, stable hash of the day, so a date always draws the same set. */
function hashDay(day: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < day.length; i++) {
    h ^= day.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** The challenges of a UTC day (YYYY-MM-DD), drawn from the rule set. Pure. */
export function challengesForDay(day: string): ChallengeRule[] {
  if (!DAY_PATTERN.test(day)) throw new Invalid('A day is written YYYY-MM-DD');
  const h = hashDay(day);
  const resting = CHALLENGE_TYPES[h % CHALLENGE_TYPES.length];
  return CHALLENGE_TYPES.filter((t) => t !== resting).map((type, i) => {
    const variants = CHALLENGE_RULES[type];
    return variants[(h >>> (8 + 5 * i)) % variants.length];
  });
}

/** The UTC day of a moment. */
export function challengeDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

function dayBounds(day: string): { start: number; end: number } {
  const start = Date.parse(`${day}T00:00:00.000Z`);
  return { start, end: start + DAY_MS };
}

type ChallengeRow = typeof dailyChallenges.$inferSelect;

const typeOrder = (t: ChallengeType) => CHALLENGE_TYPES.indexOf(t);
const byType = (a: ChallengeRow, b: ChallengeRow) => typeOrder(a.type) - typeOrder(b.type);

async function readDay(database: Db, day: string): Promise<ChallengeRow[]> {
  // outside a transaction (the home page, on every visit) the query is built and prepared once
  const rows = await (database === db() ? dayQuery() : dayQueryOn(database)).all({ day });
  return rows.sort(byType);
}
const dayQueryOn = (conn: Db) => conn.select().from(dailyChallenges).where(eq(dailyChallenges.activeDate, sql.placeholder('day'))).orderBy(asc(dailyChallenges.type)).prepare();
const dayQuery = prepared(dayQueryOn);

async function insertDay(tx: Db, day: string): Promise<void> {
  const expiresAt = new Date(dayBounds(day).end);
  await tx
    .insert(dailyChallenges)
    .values(challengesForDay(day).map((r) => ({ ...r, rarity: r.rarity ?? null, activeDate: day, expiresAt })))
    .onConflictDoNothing({ target: [dailyChallenges.activeDate, dailyChallenges.type] });
}

/**
 * The day's challenges, created when missing. Inside a transaction pass it as `tx`; without one,
 * the read is plain and only the first request of the day writes (in a short transaction of its own).
 */
export async function ensureDailyChallenges(day: string, tx?: Db): Promise<ChallengeRow[]> {
  const database = tx ?? db();
  const rows = await readDay(database, day);
  if (rows.length >= CHALLENGES_PER_DAY) return rows;
  if (tx) await insertDay(tx, day);
  else await transaction((t) => insertDay(t, day));
  return readDay(database, day);
}

// ---------------------------------------------------------------- progress (inside events)

/** What happened: an identification, a collection change, or a placed marketplace order. */
export type ChallengeEvent = 'identification' | 'collection' | 'order';

const TYPES_OF_EVENT: Record<ChallengeEvent, ChallengeType[]> = {
  identification: ['identify_pins', 'find_rarity'],
  collection: ['add_to_collection', 'find_rarity'],
  order: ['marketplace_activity'],
};

function raritiesFrom(least: Rarity | null): readonly Rarity[] {
  return least ? RARITIES.slice(RARITIES.indexOf(least)) : RARITIES;
}

const inRarities = (list: readonly Rarity[]) => sql.join(list.map((r) => sql`${r}`), sql`, `);

/** The user's count for a challenge over its day, read from the day's rows. */
async function measure(tx: Db, userId: string, challenge: ChallengeRow): Promise<number> {
  const { start, end } = dayBounds(challenge.activeDate);
  let query;
  switch (challenge.type) {
    case 'identify_pins':
      // every identification counts, as for the identification badges
      query = sql`select count(*) as n from identifications where user_id = ${userId} and created_at >= ${start} and created_at < ${end}`;
      break;
    case 'add_to_collection':
      // pins that became owned or trading today (another copy of one already held is not a new pin)
      query = sql`select count(*) as n from user_collections
        where user_id = ${userId} and status in ('owned', 'trading') and acquired_at >= ${start} and acquired_at < ${end}`;
      break;
    case 'find_rarity':
      // distinct pins of the rarity identified or collected today
      query = sql`select count(*) as n from (
          select pin_id from identifications where user_id = ${userId} and created_at >= ${start} and created_at < ${end} and pin_id is not null
          union
          select pin_id from user_collections
            where user_id = ${userId} and status in ('owned', 'trading') and acquired_at >= ${start} and acquired_at < ${end}
        ) found join pins on pins.id = found.pin_id
        where pins.rarity in (${inRarities(raritiesFrom(challenge.rarity))})`;
      break;
    case 'marketplace_activity':
      query = sql`select count(*) as n from orders where user_id = ${userId} and created_at >= ${start} and created_at < ${end}`;
      break;
    default:
      return 0;
  }
  const [row] = await tx.all<{ n: number }>(query);
  return Number(row?.n ?? 0);
}

/**
 * Recounts the user's progress on today's challenges an event touches and pays the reward of each
 * one that this call completes. Call inside the event's transaction; returns the newly completed.
 */
export async function recordChallengeProgress(
  tx: Db,
  userId: string,
  event: ChallengeEvent,
  opts: { now?: Date } = {},
): Promise<CompletedChallenge[]> {
  const now = opts.now ?? new Date();
  const types = TYPES_OF_EVENT[event];
  const todays = (await ensureDailyChallenges(challengeDay(now), tx)).filter((c) => types.includes(c.type));
  const completed: CompletedChallenge[] = [];
  for (const challenge of todays) {
    const progress = Math.min(await measure(tx, userId, challenge), challenge.target);
    if (progress === 0) continue;
    await tx
      .insert(userChallengeProgress)
      .values({ userId, challengeId: challenge.id, progress })
      .onConflictDoUpdate({
        target: [userChallengeProgress.userId, userChallengeProgress.challengeId],
        // never backwards (a pin removed later does not undo the day's work)
        set: { progress: sql`max(${userChallengeProgress.progress}, excluded.progress)` },
      });
    if (progress < challenge.target) continue;
    const done = await tx
      .update(userChallengeProgress)
      .set({ completed: true, completedAt: now })
      .where(
        and(
          eq(userChallengeProgress.userId, userId),
          eq(userChallengeProgress.challengeId, challenge.id),
          eq(userChallengeProgress.completed, false),
        ),
      )
      .returning({ id: userChallengeProgress.id });
    if (!done.length) continue;
    await ensureUserStats(tx, userId);
    await tx
      .update(userStats)
      .set({ achievementPoints: sql`${userStats.achievementPoints} + ${challenge.reward}` })
      .where(eq(userStats.userId, userId));
    completed.push({ id: challenge.id, name: challenge.name, reward: challenge.reward });
  }
  return completed;
}

// ---------------------------------------------------------------- reads (pages and API)

export interface ChallengeDto {
  id: string;
  type: ChallengeType;
  name: string;
  description: string;
  target: number;
  reward: number;
  rarity: Rarity | null;
  activeDate: string;
  expiresAt: string;
}

export interface ChallengeProgressDto extends ChallengeDto {
  progress: number;
  completed: boolean;
  completedAt: string | null;
  /** 0-100 */
  percent: number;
}

const toDto = (c: ChallengeRow): ChallengeDto => ({
  id: c.id,
  type: c.type,
  name: c.name,
  description: c.description,
  target: c.target,
  reward: c.reward,
  rarity: c.rarity,
  activeDate: c.activeDate,
  expiresAt: c.expiresAt.toISOString(),
});

/** The day asked for (today when missing); days after today are not known yet. */
function dayOf(input: unknown, now: Date): string {
  const { date } = parseWith(ChallengeQuerySchema, input ?? {});
  const today = challengeDay(now);
  if (!date) return today;
  if (date > today) throw new Invalid('Challenges are known up to today', { date: ['Challenges are known up to today'] });
  return date;
}

/** A day's challenges (today's are created when missing; past days are read as they were). */
async function challengesOf(day: string, now: Date): Promise<ChallengeRow[]> {
  return day === challengeDay(now) ? ensureDailyChallenges(day) : readDay(db(), day);
}

// a signed-in visitor's home page reads it every time: built and prepared once
const progressQuery = prepared((conn) =>
  conn
    .select()
    .from(userChallengeProgress)
    .innerJoin(dailyChallenges, eq(dailyChallenges.id, userChallengeProgress.challengeId))
    .where(and(eq(userChallengeProgress.userId, sql.placeholder('userId')), eq(dailyChallenges.activeDate, sql.placeholder('day'))))
    .prepare(),
);

async function withProgress(userId: string, rows: ChallengeRow[]): Promise<ChallengeProgressDto[]> {
  const ids = new Set(rows.map((r) => r.id));
  const mine = rows.length ? await progressQuery().all({ userId, day: rows[0].activeDate }) : [];
  const by = new Map(mine.filter((m) => ids.has(m.user_challenge_progress.challengeId)).map((m) => [m.user_challenge_progress.challengeId, m.user_challenge_progress]));
  return rows.map((c) => {
    const p = by.get(c.id);
    const progress = Math.min(p?.progress ?? 0, c.target);
    const completed = p?.completed ?? false;
    return {
      ...toDto(c),
      progress: completed ? c.target : progress,
      completed,
      completedAt: p?.completedAt ? p.completedAt.toISOString() : null,
      percent: completed ? 100 : Math.min(100, Math.floor((progress / Math.max(1, c.target)) * 100)),
    };
  });
}

export interface DayChallenges<T> {
  date: string;
  expiresAt: string;
  challenges: T[];
}

/**
 * GET /api/challenges, home and /badges: a day's challenges, open to everyone; with the signed-in
 * user's own progress when there is one.
 */
export async function listDailyChallenges(
  actor: Actor | null,
  input: unknown = {},
  opts: { now?: Date } = {},
): Promise<DayChallenges<ChallengeDto | ChallengeProgressDto> & { signedIn: boolean }> {
  const now = opts.now ?? new Date();
  const day = dayOf(input, now);
  const rows = await challengesOf(day, now);
  const challenges = actor ? await withProgress(actor.id, rows) : rows.map(toDto);
  return { date: day, expiresAt: new Date(dayBounds(day).end).toISOString(), challenges, signedIn: !!actor };
}

/** GET /api/users/{id}/challenges: one collector's progress (the owner, or an admin). */
export async function getUserChallenges(
  actor: Actor | null,
  userId: string,
  input: unknown = {},
  opts: { now?: Date } = {},
): Promise<DayChallenges<ChallengeProgressDto>> {
  assertCanReadCollection(actor, userId);
  const now = opts.now ?? new Date();
  const day = dayOf(input, now);
  const exists = await db().select({ id: users.id }).from(users).where(eq(users.id, userId)).get();
  if (!exists) throw new NotFound('User not found');
  const rows = await challengesOf(day, now);
  return { date: day, expiresAt: new Date(dayBounds(day).end).toISOString(), challenges: await withProgress(userId, rows) };
}
