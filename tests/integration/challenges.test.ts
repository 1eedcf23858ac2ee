/**
 * Daily challenges (issue 61): the day's set from the rule set, created once under concurrent first
 * requests; progress from collection changes, identifications and orders; the reward paid exactly
 * once; the /api calls for visitors, the wrong user and bad input; home and /badges loaders.
 */
import { and, eq, sum } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { db, transaction } from '~/db/index.server';
import { achievements, dailyChallenges, identifications, userAchievements, userChallengeProgress, userStats, type Rarity } from '~/db/schema';
import { loader as challengesLoader, action as challengesAction } from '~/routes/api.challenges';
import { loader as userChallengesLoader } from '~/routes/api.users.$id.challenges';
import { loader as homeLoader } from '~/routes/_index';
import { loader as badgesLoader } from '~/routes/badges';
import { ensureAchievementsOnce } from '~/services/achievement-definitions.server';
import { addToCart, getCart } from '~/services/cart.server';
import {
  CHALLENGES_PER_DAY,
  challengesForDay,
  ensureDailyChallenges,
  listDailyChallenges,
  recordChallengeProgress,
  type ChallengeType,
} from '~/services/challenges.server';
import { createCollectionEntry } from '~/services/collection.server';
import { checkout } from '~/services/orders.server';
import { call, request, session } from '../support/api';
import { createPin, createUser } from '../support/factories';
import { dayWith } from '../support/challenges';
import { createListing, createVendor } from '../support/marketplace';

async function challengeOf(day: string, type: ChallengeType) {
  const rows = await ensureDailyChallenges(day);
  return rows.find((r) => r.type === type)!;
}

async function pointsOf(userId: string) {
  return (await db().select({ p: userStats.achievementPoints }).from(userStats).where(eq(userStats.userId, userId)).get())?.p ?? 0;
}

/** Points the user's badges are worth (the rest of their points must come from challenges). */
async function badgePointsOf(userId: string) {
  const [row] = await db()
    .select({ p: sum(achievements.points) })
    .from(userAchievements)
    .innerJoin(achievements, eq(achievements.id, userAchievements.achievementId))
    .where(eq(userAchievements.userId, userId));
  return Number(row?.p ?? 0);
}

async function progressOf(userId: string, challengeId: string) {
  return db()
    .select()
    .from(userChallengeProgress)
    .where(and(eq(userChallengeProgress.userId, userId), eq(userChallengeProgress.challengeId, challengeId)))
    .get();
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the rule set', () => {
  it('draws the same set for a day every time, of distinct types, and every type over a month', () => {
    const seen = new Set<string>();
    for (let d = 1; d <= 30; d++) {
      const day = `2030-06-${String(d).padStart(2, '0')}`;
      const set = challengesForDay(day);
      expect(set).toEqual(challengesForDay(day));
      expect(set).toHaveLength(CHALLENGES_PER_DAY);
      expect(new Set(set.map((c) => c.type)).size).toBe(set.length);
      for (const c of set) {
        seen.add(c.type);
        expect(c.target).toBeGreaterThan(0);
        expect(c.reward).toBeGreaterThan(0);
      }
    }
    expect([...seen].sort()).toEqual(['add_to_collection', 'find_rarity', 'identify_pins', 'marketplace_activity']);
  });

  it('creates a day once, however many first requests race for it', async () => {
    const now = new Date('2031-03-04T08:00:00Z');
    const answers = await Promise.all(Array.from({ length: 8 }, () => listDailyChallenges(null, {}, { now })));
    const rows = await db().select().from(dailyChallenges).where(eq(dailyChallenges.activeDate, '2031-03-04'));
    expect(rows).toHaveLength(CHALLENGES_PER_DAY);
    for (const a of answers) expect(a.challenges.map((c) => c.id).sort()).toEqual(rows.map((r) => r.id).sort());
    expect(answers[0]).toMatchObject({ date: '2031-03-04', expiresAt: '2031-03-05T00:00:00.000Z', signedIn: false });
    // in the rule set's order of types
    expect(answers[0].challenges.map((c) => c.name)).toEqual(challengesForDay('2031-03-04').map((c) => c.name));
    expect(answers[0].challenges[0]).not.toHaveProperty('progress');
  });
});

describe('progress and rewards', () => {
  it('counts pins added to the collection that day, pays the reward once and never again', async () => {
    await ensureAchievementsOnce();
    const { day, noon } = dayWith('add_to_collection');
    const challenge = await challengeOf(day, 'add_to_collection');
    const player = await createUser();
    const pins = await Promise.all(Array.from({ length: challenge.target + 1 }, () => createPin()));

    // a wanted pin is not a pin added to the collection; another copy of the same pin is not a new one
    await createCollectionEntry(player, { pinId: pins[0].id, status: 'wanted' }, { now: noon });
    expect(await progressOf(player.id, challenge.id)).toBeUndefined();
    const first = await createCollectionEntry(player, { pinId: pins[0].id, status: 'owned' }, { now: noon });
    await createCollectionEntry(player, { pinId: pins[0].id, status: 'owned' }, { now: noon });
    expect(await progressOf(player.id, challenge.id)).toMatchObject({ progress: 1, completed: challenge.target === 1 });
    expect(first.completedChallenges.filter((c) => c.id === challenge.id)).toHaveLength(challenge.target === 1 ? 1 : 0);

    // the rest at once: several requests cross the target together
    const rest = await Promise.all(pins.slice(1).map((p) => createCollectionEntry(player, { pinId: p.id, status: 'trading' }, { now: noon })));
    const completions = [first, ...rest].flatMap((r) => r.completedChallenges).filter((c) => c.id === challenge.id);
    expect(completions).toEqual([{ id: challenge.id, name: challenge.name, reward: challenge.reward }]);
    expect(await progressOf(player.id, challenge.id)).toMatchObject({ progress: challenge.target, completed: true });

    // recounting again (directly, in parallel) pays nothing more
    const again = await Promise.all([1, 2, 3].map(() => transaction((tx) => recordChallengeProgress(tx, player.id, 'collection', { now: noon }))));
    expect(again.flat().filter((c) => c.id === challenge.id)).toEqual([]);
    const completedRewards = (await db().select().from(userChallengeProgress).innerJoin(dailyChallenges, eq(dailyChallenges.id, userChallengeProgress.challengeId)).where(and(eq(userChallengeProgress.userId, player.id), eq(userChallengeProgress.completed, true))))
      .reduce((s, r) => s + r.daily_challenges.reward, 0);
    expect(completedRewards).toBeGreaterThanOrEqual(challenge.reward);
    expect(await pointsOf(player.id)).toBe((await badgePointsOf(player.id)) + completedRewards);

    // the next day starts from nothing
    const nextNoon = new Date(noon.getTime() + 86_400_000);
    const next = await listDailyChallenges(player, {}, { now: nextNoon });
    for (const c of next.challenges) expect(c).toMatchObject({ progress: 0, completed: false, percent: 0 });
  });

  it('counts identifications, and rare pins identified or collected, for that day only', async () => {
    const { day, noon } = dayWith('find_rarity');
    const rarity = (await challengeOf(day, 'find_rarity')).rarity as Rarity;
    const findRarity = await challengeOf(day, 'find_rarity');
    const identify = (await ensureDailyChallenges(day)).find((c) => c.type === 'identify_pins');
    const player = await createUser();
    const common = await createPin({ rarity: 'common' });
    const rare = await Promise.all(Array.from({ length: findRarity.target }, () => createPin({ rarity })));
    const identifyAt = async (pinId: string | null, at: Date) =>
      transaction(async (tx) => {
        await tx.insert(identifications).values({ userId: player.id, pinId, confidence: pinId ? 90 : 0, createdAt: at });
        return recordChallengeProgress(tx, player.id, 'identification', { now: at });
      });

    await identifyAt(rare[0].id, new Date(noon.getTime() - 86_400_000)); // the day before: not today's
    await identifyAt(common.id, noon);
    await identifyAt(null, noon); // no match still counts as an identification
    expect(await progressOf(player.id, findRarity.id)).toBeUndefined();
    if (identify) expect((await progressOf(player.id, identify.id))?.progress).toBe(Math.min(2, identify.target));

    await identifyAt(rare[0].id, noon);
    await identifyAt(rare[0].id, noon); // the same pin twice is one pin found
    expect((await progressOf(player.id, findRarity.id))?.progress).toBe(1);
    // the rest collected rather than identified
    for (const p of rare.slice(1)) await createCollectionEntry(player, { pinId: p.id, status: 'owned' }, { now: noon });
    expect(await progressOf(player.id, findRarity.id)).toMatchObject({ progress: findRarity.target, completed: true });
  });

  it('counts a placed marketplace order', async () => {
    const { noon, day } = dayWith('marketplace_activity');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(noon);
    const challenge = await challengeOf(day, 'marketplace_activity');
    const { vendor } = await createVendor();
    const listing = await createListing(vendor.id, { stockQuantity: 3 });
    const buyer = await createUser();
    await addToCart(buyer, { marketplacePinId: listing.id });
    const before = await pointsOf(buyer.id);
    await checkout(buyer, { expected: (await getCart(buyer)).expected });
    expect(await progressOf(buyer.id, challenge.id)).toMatchObject({ progress: 1, completed: true });
    expect(await pointsOf(buyer.id)).toBe(before + challenge.reward);
  });
});

describe('the calls and pages', () => {
  it('GET /api/challenges: open to visitors, with my progress when signed in; bad dates are 400', async () => {
    const me = await session('player');
    const today = new Date().toISOString().slice(0, 10);
    const visitor = await call(challengesLoader, request('/api/challenges'));
    expect(visitor.status).toBe(200);
    expect(visitor.body).toMatchObject({ date: today, signedIn: false });
    expect(visitor.body.challenges).toHaveLength(CHALLENGES_PER_DAY);
    expect(visitor.body.challenges[0]).not.toHaveProperty('progress');

    const mine = await call(challengesLoader, request('/api/challenges', { cookie: me.cookie }));
    expect(mine.body.signedIn).toBe(true);
    expect(mine.body.challenges[0]).toMatchObject({ progress: 0, completed: false, percent: 0 });

    expect(await call(challengesLoader, request('/api/challenges?date=yesterday'))).toMatchObject({ status: 400, body: { error: 'Write the date as YYYY-MM-DD' } });
    expect(await call(challengesLoader, request('/api/challenges?date=2030-02-31'))).toMatchObject({ status: 400 });
    expect(await call(challengesLoader, request('/api/challenges?date=2999-01-01'))).toMatchObject({ status: 400, body: { error: 'Challenges are known up to today' } });
    // a past day nobody opened is not made up afterwards
    expect((await call(challengesLoader, request('/api/challenges?date=2001-01-01'))).body.challenges).toEqual([]);
    expect((await call(challengesAction, request('/api/challenges', { method: 'POST', cookie: me.cookie }))).status).toBe(405);
  });

  it('GET /api/users/{id}/challenges: the owner and admins; 401, 403, 404 and 400 otherwise', async () => {
    const [me, other, admin] = await Promise.all([session('player'), session('player'), session('admin')]);
    const get = (id: string, cookie?: string, query = '') => call(userChallengesLoader, request(`/api/users/${id}/challenges${query}`, { cookie }), { id });
    expect((await get(me.user.id)).status).toBe(401);
    expect((await get(me.user.id, other.cookie)).status).toBe(403);
    expect((await get('nobody', admin.cookie)).status).toBe(404);
    expect((await get(me.user.id, me.cookie, '?date=2026-13-01')).status).toBe(400);
    const own = await get(me.user.id, me.cookie);
    expect(own.status).toBe(200);
    expect(own.body.challenges).toHaveLength(CHALLENGES_PER_DAY);
    expect((await get(me.user.id, admin.cookie)).body.challenges[0]).toHaveProperty('progress', 0);
  });

  it('home shows the challenges to everyone, with progress for the signed-in; /badges too', async () => {
    const me = await session('player');
    const visitorHome = await homeLoader({ request: request('/'), params: {}, context: {} });
    const v = await visitorHome.json();
    expect(v.challenges.signedIn).toBe(false);
    expect(v.challenges.list).toHaveLength(CHALLENGES_PER_DAY);

    const pin = await createPin({ rarity: 'ultra_rare' });
    await createCollectionEntry(me.user, { pinId: pin.id, status: 'owned' });
    const home = await (await homeLoader({ request: request('/', { cookie: me.cookie }), params: {}, context: {} })).json();
    expect(home.challenges.signedIn).toBe(true);
    const collected = (home.challenges.list as { type: string; progress?: number }[]).filter((c) => c.type === 'add_to_collection' || c.type === 'find_rarity');
    for (const c of collected) expect(c.progress).toBe(1);

    const badges = await (await badgesLoader({ request: request('/badges', { cookie: me.cookie }), params: {}, context: {} })).json();
    expect(badges.challenges).toEqual(home.challenges.list);
  });
});
