/**
 * Admin analytics: identifications, new users, collection activity and orders over time (by day,
 * week or month over a date range), the most identified and most collected pins, and the
 * identification success rate (a photo that found its pin). Days are UTC days.
 */
import { and, count, desc, eq, gte, inArray, isNotNull, lt, sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { assertAdmin, type Actor } from '~/auth/permissions';
import { db } from '~/db/index.server';
import { identifications, orders, pins, userCollections, users } from '~/db/schema';
import type { AnalyticsQuery, AnalyticsReport, Bucket, Interval, TopPin } from '~/types/analytics';

export const INTERVALS: Interval[] = ['day', 'week', 'month'];
const DAY = 86_400_000;
const MAX_DAYS = 3 * 366;

const isDay = (v: unknown): v is string => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`));
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The range and interval from the URL; odd or missing values fall back to the last 30 days by day. */
export function readAnalyticsQuery(params: URLSearchParams, now = new Date()): AnalyticsQuery {
  const today = dayOf(now.getTime());
  const interval = (INTERVALS as string[]).includes(params.get('interval') ?? '') ? (params.get('interval') as Interval) : 'day';
  let to = isDay(params.get('to')) ? (params.get('to') as string) : today;
  let from = isDay(params.get('from')) ? (params.get('from') as string) : dayOf(Date.parse(`${to}T00:00:00Z`) - 29 * DAY);
  if (from > to) [from, to] = [to, from];
  if ((Date.parse(to) - Date.parse(from)) / DAY > MAX_DAYS) from = dayOf(Date.parse(to) - MAX_DAYS * DAY);
  return { interval, from, to };
}

/** The SQL expression naming a timestamp's bucket: 'YYYY-MM-DD' (day, or the Monday of its week) or 'YYYY-MM'. */
function bucketSql(column: SQLiteColumn, interval: Interval): SQL<string> {
  const seconds = sql`${column} / 1000, 'unixepoch'`;
  if (interval === 'month') return sql<string>`strftime('%Y-%m', ${seconds})`;
  if (interval === 'week') return sql<string>`date(${seconds}, '-6 days', 'weekday 1')`;
  return sql<string>`date(${seconds})`;
}

/** Every bucket of the range, in order, so a quiet day shows as 0 rather than being left out. */
export function bucketsOf({ interval, from, to }: AnalyticsQuery): string[] {
  const keys: string[] = [];
  const start = new Date(`${from}T00:00:00Z`);
  const end = Date.parse(`${to}T00:00:00Z`);
  if (interval === 'month') {
    for (let d = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), 1)); d.getTime() <= end; d.setUTCMonth(d.getUTCMonth() + 1)) keys.push(d.toISOString().slice(0, 7));
    return keys;
  }
  let t = start.getTime();
  if (interval === 'week') t -= ((start.getUTCDay() + 6) % 7) * DAY; // back to Monday
  for (; t <= end; t += interval === 'week' ? 7 * DAY : DAY) keys.push(dayOf(t));
  return keys;
}

async function series(table: 'identifications' | 'users' | 'collections' | 'orders', query: AnalyticsQuery, keys: string[]): Promise<Bucket[]> {
  const range = (column: SQLiteColumn) => and(gte(column, new Date(`${query.from}T00:00:00Z`)), lt(column, new Date(Date.parse(`${query.to}T00:00:00Z`) + DAY)));
  let rows: { key: string; n: number; amount?: number; matched?: number }[];
  if (table === 'identifications') {
    const key = bucketSql(identifications.createdAt, query.interval);
    rows = await db()
      .select({ key, n: count(), matched: sql<number>`coalesce(sum(${identifications.pinId} is not null), 0)` })
      .from(identifications)
      .where(range(identifications.createdAt))
      .groupBy(key);
  } else if (table === 'users') {
    const key = bucketSql(users.createdAt, query.interval);
    rows = await db().select({ key, n: count() }).from(users).where(range(users.createdAt)).groupBy(key);
  } else if (table === 'collections') {
    const key = bucketSql(userCollections.createdAt, query.interval);
    rows = await db().select({ key, n: count() }).from(userCollections).where(range(userCollections.createdAt)).groupBy(key);
  } else {
    const key = bucketSql(orders.createdAt, query.interval);
    rows = await db()
      .select({ key, n: count(), amount: sql<number>`coalesce(sum(${orders.totalAmountCents}), 0)` })
      .from(orders)
      .where(range(orders.createdAt))
      .groupBy(key);
  }
  const byKey = new Map(rows.map((r) => [r.key, r]));
  return keys.map((k) => ({
    key: k,
    value: Number(byKey.get(k)?.n ?? 0),
    ...(table === 'orders' ? { amount: Number(byKey.get(k)?.amount ?? 0) / 100 } : {}),
    ...(table === 'identifications' ? { matched: Number(byKey.get(k)?.matched ?? 0) } : {}),
  }));
}

async function topPins(kind: 'identified' | 'collected', query: AnalyticsQuery): Promise<TopPin[]> {
  const start = new Date(`${query.from}T00:00:00Z`);
  const end = new Date(Date.parse(`${query.to}T00:00:00Z`) + DAY);
  // counted from an index alone, grouped by pin id; only the ten winners are joined to their names
  const counted =
    kind === 'identified'
      ? await db()
          .select({ pinId: sql<string>`${identifications.pinId}`, n: count() })
          .from(identifications)
          .where(and(gte(identifications.createdAt, start), lt(identifications.createdAt, end), isNotNull(identifications.pinId)))
          .groupBy(identifications.pinId)
          .orderBy(desc(count()))
          .limit(10)
      : await db()
          .select({ pinId: userCollections.pinId, n: count() })
          .from(userCollections)
          .where(eq(userCollections.status, 'owned'))
          .groupBy(userCollections.pinId)
          .orderBy(desc(count()))
          .limit(10);
  if (counted.length === 0) return [];
  const names = new Map(
    (await db().select({ id: pins.id, name: pins.name }).from(pins).where(inArray(pins.id, counted.map((c) => c.pinId)))).map((p) => [p.id, p.name]),
  );
  return counted
    .filter((c) => names.has(c.pinId))
    .map((c) => ({ id: c.pinId, name: names.get(c.pinId) as string, count: Number(c.n) }))
    .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
}

/** The whole report for one range and interval. */
export async function getAnalytics(actor: Actor | null, query: AnalyticsQuery): Promise<AnalyticsReport> {
  assertAdmin(actor);
  const keys = bucketsOf(query);
  const [ids, newUsers, collections, orderSeries, topIdentified, topCollected] = await Promise.all([
    series('identifications', query, keys),
    series('users', query, keys),
    series('collections', query, keys),
    series('orders', query, keys),
    topPins('identified', query),
    topPins('collected', query),
  ]);
  const total = ids.reduce((n, b) => n + b.value, 0);
  const matched = ids.reduce((n, b) => n + (b.matched ?? 0), 0);
  return {
    query,
    identifications: ids,
    newUsers,
    collections,
    orders: orderSeries,
    topIdentified,
    topCollected,
    success: { total, matched, rate: total ? matched / total : null },
  };
}
