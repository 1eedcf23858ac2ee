/**
 * Achievements engine: user stats, day streaks and badge awards.
 *
 * - Everything that earns a badge runs inside the caller's transaction (`tx`), so an award, its
 *   points and the action that earned it commit or roll back together.
 * - A badge is awarded exactly once: the insert relies on the unique index
 *   user_achievements(user, achievement) (ON CONFLICT DO NOTHING), and points are added only for
 *   rows that were really inserted, so concurrent requests cannot double-award.
 * - Streaks count consecutive calendar days with activity (identifying a pin, adding to or moving
 *   within the collection) in the user's time zone. Pages pass the zone from the `tz` cookie that a
 *   tiny inline script in the collection/badges pages sets (see `timeZoneFromRequest`); without it
 *   (no JavaScript, API clients) the day is the UTC day.
 */
import { and, count, countDistinct, eq, sql } from 'drizzle-orm';
import { db, prepared, type Db } from '~/db/index.server';
import {
  achievements,
  pins,
  userAchievements,
  userCollections,
  userStats,
  type Achievement,
  type AchievementCondition,
  type Rarity,
  type UserStats,
} from '~/db/schema';
import { assertCanReadCollection, type Actor } from '~/auth/permissions';
import { NotFound } from './errors';
import type { UnlockedBadge } from '~/types/achievements';
import { isValidTimeZone } from '~/utils/time-zone';

export type { UnlockedBadge };

export interface ActivityOptions {
  now?: Date;
  /** IANA zone of the user's calendar day (e.g. from the `tz` cookie); UTC when missing or invalid */
  timeZone?: string | null;
}

// ---------------------------------------------------------------- calendar days



/** YYYY-MM-DD of `now` in the zone (UTC when the zone is missing or invalid). */
export function calendarDay(now: Date, timeZone?: string | null): string {
  const zone = isValidTimeZone(timeZone) ? timeZone : 'UTC';
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(now);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** The calendar day before a YYYY-MM-DD day. */
export function previousDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d - 1)).toISOString().slice(0, 10);
}

/** The streak as the user sees it now: it lapses when the last active day is before yesterday. */
export function effectiveStreak(stats: Pick<UserStats, 'currentStreak' | 'lastActiveDate'>, opts: ActivityOptions = {}): number {
  if (!stats.lastActiveDate) return 0;
  const today = calendarDay(opts.now ?? new Date(), opts.timeZone);
  if (stats.lastActiveDate === today || stats.lastActiveDate === previousDay(today)) return stats.currentStreak;
  // a last active day after "today" happens when the zone changed westwards; the streak still stands
  if (stats.lastActiveDate > today) return stats.currentStreak;
  return 0;
}

// ---------------------------------------------------------------- stats rows

/** Creates the user's stats row when missing and returns it (inside the caller's transaction). */
export async function ensureUserStats(tx: Db, userId: string): Promise<UserStats> {
  await tx.insert(userStats).values({ userId }).onConflictDoNothing({ target: userStats.userId });
  const row = await tx.query.userStats.findFirst({ where: eq(userStats.userId, userId) });
  if (!row) throw new Error('user_stats row missing after insert');
  return row;
}

/** Marks today as active and updates current/longest streak. */
export async function recordActivityDay(tx: Db, userId: string, opts: ActivityOptions = {}): Promise<void> {
  const stats = await ensureUserStats(tx, userId);
  const today = calendarDay(opts.now ?? new Date(), opts.timeZone);
  if (stats.lastActiveDate === today) return;
  // a zone change can make "today" earlier than the stored day: keep the streak, do not go back
  if (stats.lastActiveDate && stats.lastActiveDate > today) return;
  const current = stats.lastActiveDate === previousDay(today) ? stats.currentStreak + 1 : 1;
  await tx
    .update(userStats)
    .set({ currentStreak: current, longestStreak: Math.max(stats.longestStreak, current), lastActiveDate: today })
    .where(eq(userStats.userId, userId));
}

/** Recomputes pinsOwned/pinsWanted from the lists themselves (never a blind increment). */
export async function refreshCollectionCounts(tx: Db, userId: string): Promise<{ pinsOwned: number; pinsWanted: number }> {
  await ensureUserStats(tx, userId);
  const rows = await tx
    .select({ status: userCollections.status, n: count() })
    .from(userCollections)
    .where(eq(userCollections.userId, userId))
    .groupBy(userCollections.status);
  const by = Object.fromEntries(rows.map((r) => [r.status, r.n])) as Partial<Record<string, number>>;
  const pinsOwned = by.owned ?? 0;
  const pinsWanted = by.wanted ?? 0;
  await tx.update(userStats).set({ pinsOwned, pinsWanted }).where(eq(userStats.userId, userId));
  return { pinsOwned, pinsWanted };
}

// ---------------------------------------------------------------- progress and awards

export interface ProgressMetrics {
  identifications: number;
  pinsOwned: number;
  pinsWanted: number;
  trading: number;
  streakDays: number;
  ownedByRarity: Partial<Record<Rarity, number>>;
  organizations: number;
  contributed: number;
}

/** Everything badge conditions look at, read from the lists (so it is true inside the transaction). */
export async function progressMetrics(tx: Db, userId: string): Promise<ProgressMetrics> {
  const stats = await tx.query.userStats.findFirst({ where: eq(userStats.userId, userId) });
  const statusRows = await tx
    .select({ status: userCollections.status, n: count() })
    .from(userCollections)
    .where(eq(userCollections.userId, userId))
    .groupBy(userCollections.status);
  const byStatus = Object.fromEntries(statusRows.map((r) => [r.status, r.n])) as Partial<Record<string, number>>;
  const rarityRows = await tx
    .select({ rarity: pins.rarity, n: count() })
    .from(userCollections)
    .innerJoin(pins, eq(pins.id, userCollections.pinId))
    .where(and(eq(userCollections.userId, userId), eq(userCollections.status, 'owned')))
    .groupBy(pins.rarity);
  const [orgRow] = await tx
    .select({ n: countDistinct(pins.organizationId) })
    .from(userCollections)
    .innerJoin(pins, eq(pins.id, userCollections.pinId))
    .where(and(eq(userCollections.userId, userId), eq(userCollections.status, 'owned')));
  const [contribRow] = await tx.select({ n: count() }).from(pins).where(eq(pins.createdBy, userId));
  return {
    identifications: stats?.totalIdentifications ?? 0,
    pinsOwned: byStatus.owned ?? 0,
    pinsWanted: byStatus.wanted ?? 0,
    trading: byStatus.trading ?? 0,
    streakDays: Math.max(stats?.longestStreak ?? 0, stats?.currentStreak ?? 0),
    ownedByRarity: Object.fromEntries(rarityRows.map((r) => [r.rarity, r.n])),
    organizations: orgRow?.n ?? 0,
    contributed: contribRow?.n ?? 0,
  };
}

/** How far a user is towards a condition (raw value; compare with `condition.target`). */
export function conditionValue(condition: AchievementCondition, m: ProgressMetrics): number {
  switch (condition.type) {
    case 'identification_count':
      return m.identifications;
    case 'pins_owned_count':
      return m.pinsOwned;
    case 'pins_wanted_count':
      return m.pinsWanted;
    case 'trading_count':
      return m.trading;
    case 'streak_days':
      return m.streakDays;
    case 'owns_rarity':
      return m.ownedByRarity[condition.rarity] ?? 0;
    case 'organizations_collected':
      return m.organizations;
    case 'pins_contributed':
      return m.contributed;
    default:
      return 0;
  }
}

/**
 * Awards every badge whose condition is now met and that the user does not hold yet.
 * Call inside the transaction of the action that earned it; returns the newly unlocked badges.
 */
export async function evaluateBadges(tx: Db, userId: string, opts: { now?: Date } = {}): Promise<UnlockedBadge[]> {
  const all = await tx.select().from(achievements);
  if (all.length === 0) return [];
  const held = await tx
    .select({ id: userAchievements.achievementId })
    .from(userAchievements)
    .where(eq(userAchievements.userId, userId));
  const heldIds = new Set(held.map((h) => h.id));
  const candidates = all.filter((a) => !heldIds.has(a.id));
  if (candidates.length === 0) return [];
  const metrics = await progressMetrics(tx, userId);
  const earned = candidates.filter((a) => conditionValue(a.condition, metrics) >= a.condition.target);
  if (earned.length === 0) return [];

  const unlockedAt = opts.now ?? new Date();
  const unlocked: UnlockedBadge[] = [];
  for (const badge of earned) {
    const inserted = await tx
      .insert(userAchievements)
      .values({ userId, achievementId: badge.id, unlockedAt, progress: 100 })
      .onConflictDoNothing()
      .returning({ id: userAchievements.id });
    if (inserted.length) unlocked.push({ id: badge.id, name: badge.name, description: badge.description, points: badge.points });
  }
  const points = unlocked.reduce((sum, b) => sum + b.points, 0);
  if (points > 0) {
    await ensureUserStats(tx, userId);
    await tx
      .update(userStats)
      .set({ achievementPoints: sql`${userStats.achievementPoints} + ${points}` })
      .where(eq(userStats.userId, userId));
  }
  return unlocked;
}

/**
 * An identification by a signed-in user: counts it, marks the day active, awards badges.
 * Runs inside the caller's transaction.
 */
export async function recordIdentificationActivity(
  tx: Db,
  userId: string,
  opts: { successful: boolean; now?: Date; timeZone?: string | null },
): Promise<UnlockedBadge[]> {
  await ensureUserStats(tx, userId);
  await tx
    .update(userStats)
    .set({
      totalIdentifications: sql`${userStats.totalIdentifications} + 1`,
      successfulIdentifications: sql`${userStats.successfulIdentifications} + ${opts.successful ? 1 : 0}`,
    })
    .where(eq(userStats.userId, userId));
  await recordActivityDay(tx, userId, opts);
  return evaluateBadges(tx, userId, opts);
}

// ---------------------------------------------------------------- reads (pages and API)


export interface UserStatsDto {
  userId: string;
  pinsOwned: number;
  pinsWanted: number;
  achievementPoints: number;
  currentStreak: number;
  longestStreak: number;
  lastActiveDate: string | null;
  /** identifications made (the progress of identification_count badges) */
  pinsIdentified: number;
  totalIdentifications: number;
  successfulIdentifications: number;
  badgesEarned: number;
}

async function userExists(userId: string): Promise<boolean> {
  const row = await db().query.users.findFirst({ where: (u, { eq: e }) => e(u.id, userId), columns: { id: true } });
  return !!row;
}

export async function getUserStats(actor: Actor | null, userId: string, opts: ActivityOptions = {}): Promise<UserStatsDto> {
  assertCanReadCollection(actor, userId);
  if (!(await userExists(userId))) throw new NotFound('User not found');
  const stats = await db().query.userStats.findFirst({ where: eq(userStats.userId, userId) });
  const [badges] = await db().select({ n: count() }).from(userAchievements).where(eq(userAchievements.userId, userId));
  const s = stats ?? {
    pinsOwned: 0,
    pinsWanted: 0,
    achievementPoints: 0,
    currentStreak: 0,
    longestStreak: 0,
    lastActiveDate: null,
    totalIdentifications: 0,
    successfulIdentifications: 0,
  };
  return {
    userId,
    pinsOwned: s.pinsOwned,
    pinsWanted: s.pinsWanted,
    achievementPoints: s.achievementPoints,
    currentStreak: effectiveStreak(s, opts),
    longestStreak: s.longestStreak,
    lastActiveDate: s.lastActiveDate,
    pinsIdentified: s.totalIdentifications,
    totalIdentifications: s.totalIdentifications,
    successfulIdentifications: s.successfulIdentifications,
    badgesEarned: badges?.n ?? 0,
  };
}

export interface BadgeDto {
  id: string;
  key: string;
  name: string;
  description: string;
  iconUrl: string | null;
  category: Achievement['category'];
  points: number;
  condition: AchievementCondition;
}

const toBadgeDto = (a: Achievement): BadgeDto => ({
  id: a.id,
  key: a.key,
  name: a.name,
  description: a.description,
  iconUrl: a.iconUrl,
  category: a.category,
  points: a.points,
  condition: a.condition,
});

/** All visible badges (hidden ones stay secret until earned). Public. */
export async function listAchievements(): Promise<BadgeDto[]> {
  const rows = await db().select().from(achievements).orderBy(achievements.category, achievements.points, achievements.name);
  return rows.filter((a) => !a.isHidden).map(toBadgeDto);
}

export interface UserAchievementDto {
  id: string;
  achievementId: string;
  unlockedAt: string;
  progress: number;
  achievement: BadgeDto;
}

export async function listUserAchievements(actor: Actor | null, userId: string): Promise<UserAchievementDto[]> {
  assertCanReadCollection(actor, userId);
  if (!(await userExists(userId))) throw new NotFound('User not found');
  const rows = await db()
    .select({ ua: userAchievements, a: achievements })
    .from(userAchievements)
    .innerJoin(achievements, eq(achievements.id, userAchievements.achievementId))
    .where(eq(userAchievements.userId, userId))
    .orderBy(userAchievements.unlockedAt, achievements.name);
  return rows.map(({ ua, a }) => ({
    id: ua.id,
    achievementId: ua.achievementId,
    unlockedAt: ua.unlockedAt.toISOString(),
    progress: ua.progress,
    achievement: toBadgeDto(a),
  }));
}

export interface BadgeProgress extends BadgeDto {
  earned: boolean;
  unlockedAt: string | null;
  current: number;
  target: number;
  /** 0-100 (capped); 100 once earned */
  percent: number;
}

/** The badges page: every badge with the user's progress. */
export async function getBadgeOverview(actor: Actor | null, userId: string) {
  assertCanReadCollection(actor, userId);
  const all = await db().select().from(achievements).orderBy(achievements.category, achievements.points, achievements.name);
  const held = await db().select().from(userAchievements).where(eq(userAchievements.userId, userId));
  const heldBy = new Map(held.map((h) => [h.achievementId, h]));
  const metrics = await progressMetrics(db(), userId);
  const badges: BadgeProgress[] = all
    .filter((a) => !a.isHidden || heldBy.has(a.id))
    .map((a) => {
      const h = heldBy.get(a.id);
      const target = Math.max(1, a.condition.target);
      const current = conditionValue(a.condition, metrics);
      return {
        ...toBadgeDto(a),
        earned: !!h,
        unlockedAt: h ? h.unlockedAt.toISOString() : null,
        current: h ? Math.max(current, target) : current,
        target,
        percent: h ? 100 : Math.min(100, Math.floor((current / target) * 100)),
      };
    });
  const earned = badges.filter((b) => b.earned).sort((x, y) => (x.unlockedAt ?? '').localeCompare(y.unlockedAt ?? ''));
  // closest to unlocking first
  const locked = badges.filter((b) => !b.earned).sort((x, y) => y.percent - x.percent || x.target - y.target || x.name.localeCompare(y.name));
  return { earned, locked, total: badges.length };
}

/** How many badges a user has earned (the navigation's badge count). */
const earnedCount = prepared((conn) =>
  conn.select({ n: count() }).from(userAchievements).where(eq(userAchievements.userId, sql.placeholder('userId'))).prepare(),
);

export async function countEarnedBadges(userId: string): Promise<number> {
  // the navigation bar's badge count, on every signed-in page
  const row = await earnedCount().get({ userId });
  return row?.n ?? 0;
}

/** Earned badges in unlock order (the showcase shows the first 5). */
export async function listEarnedBadges(userId: string): Promise<(BadgeDto & { unlockedAt: string })[]> {
  const rows = await db()
    .select({ ua: userAchievements, a: achievements })
    .from(userAchievements)
    .innerJoin(achievements, eq(achievements.id, userAchievements.achievementId))
    .where(eq(userAchievements.userId, userId))
    .orderBy(userAchievements.unlockedAt, achievements.name);
  return rows.map(({ ua, a }) => ({ ...toBadgeDto(a), unlockedAt: ua.unlockedAt.toISOString() }));
}

