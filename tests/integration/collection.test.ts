import { and, eq, sum } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { db, transaction } from '~/db/index.server';
import { achievements, dailyChallenges, userAchievements, userChallengeProgress, userStats } from '~/db/schema';
import { ensureAchievements } from '~/services/achievement-definitions.server';
import {
  calendarDay,
  getBadgeOverview,
  getUserStats,
  listUserAchievements,
  recordIdentificationActivity,
} from '~/services/achievements.server';
import {
  addCollectionEntry,
  collectionCsv,
  createCollectionEntry,
  getCollectionValue,
  listCollection,
  moveCollectionEntry,
  removeCollectionEntry,
  updateCollectionEntry,
} from '~/services/collection.server';
import { AppError } from '~/services/errors';
import { createUserSession } from '~/auth/session.server';
import { handleAddToCollection } from '~/http/collection-form.server';
import { getToast } from '~/http/toast.server';
import { createPin as createCataloguePin } from '~/services/pins.server';
import { createOrganization, createPin, createUser } from '../support/factories';
import { listCounts, statsOf } from '../support/collection';

beforeAll(async () => {
  await ensureAchievements();
});

async function expectError(promise: Promise<unknown>, status: number) {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(status);
    return error as AppError;
  }
  throw new Error(`expected an error with status ${status}`);
}

describe('adding to a collection', () => {
  it('adds in each status and keeps stats equal to the lists', async () => {
    const user = await createUser();
    const [a, b, c] = [await createPin(), await createPin(), await createPin()];
    await createCollectionEntry(user, { pinId: a.id, status: 'owned', quantity: 2 });
    await createCollectionEntry(user, { pinId: b.id, status: 'wanted' });
    await createCollectionEntry(user, { pinId: c.id, status: 'trading', condition: 'good' });

    const owned = await listCollection(user, user.id, 'owned');
    expect(owned.map((e) => e.pinId)).toEqual([a.id]);
    expect(owned[0].quantity).toBe(2);
    expect(owned[0].condition).toBe('excellent'); // the default
    const trading = await listCollection(user, user.id, 'trading');
    expect(trading[0].tradeable).toBe(true);
    expect(trading[0].condition).toBe('good');

    const stats = await getUserStats(user, user.id);
    expect(stats.pinsOwned).toBe(1);
    expect(stats.pinsWanted).toBe(1);
  });

  it('adding a pin already collected updates the one entry instead of duplicating it', async () => {
    const user = await createUser();
    const pin = await createPin();
    await createCollectionEntry(user, { pinId: pin.id, status: 'owned', quantity: 1 });
    await createCollectionEntry(user, { pinId: pin.id, status: 'owned', quantity: 2, notes: 'second trip' });
    let owned = await listCollection(user, user.id, 'owned');
    expect(owned).toHaveLength(1);
    expect(owned[0].quantity).toBe(3);
    expect(owned[0].notes).toBe('second trip');

    await createCollectionEntry(user, { pinId: pin.id, status: 'trading', quantity: 1 });
    owned = await listCollection(user, user.id, 'owned');
    expect(owned).toHaveLength(0);
    expect(await listCounts(user.id)).toMatchObject({ total: 1, trading: 1 });
    expect((await statsOf(user.id))?.pinsOwned).toBe(0);
  });

  it('rejects bad input with field messages and writes nothing', async () => {
    const user = await createUser();
    const pin = await createPin();
    const err = await expectError(createCollectionEntry(user, { pinId: pin.id, status: 'owned', quantity: 0, condition: 'shiny' }), 400);
    expect(err.issues?.quantity).toEqual(['Quantity must be at least 1']);
    expect(err.issues?.condition?.[0]).toMatch(/Condition must be/);
    const err2 = await expectError(createCollectionEntry(user, { status: 'lost' }), 400);
    expect(err2.issues?.pinId).toEqual(['Pin is required']);
    expect(err2.issues?.status?.[0]).toMatch(/owned, wanted or trading/);
    await expectError(createCollectionEntry(user, { pinId: 'nope', status: 'owned' }), 404);
    expect((await listCounts(user.id)).total).toBe(0);
    await expectError(createCollectionEntry(null, { pinId: pin.id, status: 'owned' }), 401);
  });
});

describe('the add form handler', () => {
  const form = (fields: Record<string, string>) => {
    const fd = new FormData();
    fd.set('intent', 'addToCollection');
    for (const [k, v] of Object.entries(fields)) fd.set(k, v);
    return fd;
  };

  it('answers 400 with field messages, then adds and flashes one Badge Unlocked! toast per badge', async () => {
    const user = await createUser();
    const pin = await createPin({ rarity: 'ultra_rare', rarityScore: 4 });
    const cookie = (await createUserSession(new Request('http://test/'), user.id)).split(';')[0];
    const post = (fd: FormData) => handleAddToCollection(new Request(`http://test/pins/${pin.id}`, { method: 'POST', headers: { Cookie: cookie } }), fd, { redirectTo: `/pins/${pin.id}` });

    const invalid = await post(form({ pinId: pin.id, quantity: '0', condition: 'excellent', status: 'owned' }));
    expect(invalid.status).toBe(400);
    const body = (await invalid.json()) as { intent: string; lastResult: { error: Record<string, string[]> } };
    expect(body.intent).toBe('addToCollection');
    expect(body.lastResult.error.quantity).toEqual(['Quantity must be at least 1']);
    expect((await listCounts(user.id)).total).toBe(0);

    const ok = await post(form({ pinId: pin.id, quantity: '2', condition: 'mint', status: 'owned', tradeable: 'on', notes: 'hi' }));
    expect(ok.status).toBe(302);
    expect(ok.headers.get('Location')).toBe(`/pins/${pin.id}`);
    const flash = ok.headers.get('Set-Cookie')!.split(';')[0];
    const { toast } = await getToast(new Request('http://test/', { headers: { Cookie: flash } }));
    expect(toast?.title).toBe('Added to Collection');
    expect(toast?.more?.map((t) => [t.title, t.description])).toEqual(
      expect.arrayContaining([
        ['Badge Unlocked!', 'You earned the "First Pin" badge!'],
        ['Badge Unlocked!', 'You earned the "Ultra Rare Hunter" badge!'],
      ]),
    );
    const [entry] = await listCollection(user, user.id, 'owned');
    expect([entry.quantity, entry.condition, entry.tradeable, entry.notes]).toEqual([2, 'mint', true, 'hi']);

    // signed out: sent to sign in, nothing written
    const visitor = await handleAddToCollection(new Request('http://test/pins/x', { method: 'POST' }), form({ pinId: pin.id }), { redirectTo: '/pins/x' });
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get('Location')).toMatch(/^\/api\/login/);
  });
});

describe('moving entries', () => {
  it('follows every allowed move and refreshes lists and stats each time', async () => {
    const user = await createUser();
    const pin = await createPin();
    await createCollectionEntry(user, { pinId: pin.id, status: 'owned' });
    const path: ['owned' | 'wanted' | 'trading', number, number][] = [
      ['wanted', 0, 1], // owned → wanted
      ['owned', 1, 0], // wanted → owned
      ['trading', 0, 0], // owned → trading
      ['owned', 1, 0], // trading → owned (Keep)
      ['wanted', 0, 1], // owned → wanted
      ['trading', 0, 0], // wanted → trading
      ['wanted', 0, 1], // trading → wanted
    ];
    for (const [status, owned, wanted] of path) {
      const { entry } = await moveCollectionEntry(user, user.id, { pinId: pin.id, status });
      expect(entry.status).toBe(status);
      const stats = await getUserStats(user, user.id);
      expect([stats.pinsOwned, stats.pinsWanted]).toEqual([owned, wanted]);
      const counts = await listCounts(user.id);
      expect([counts.owned, counts.wanted, counts.total]).toEqual([owned, wanted, 1]);
    }
  });

  it('Keep takes a trading pin off the table', async () => {
    const user = await createUser();
    const pin = await createPin();
    await createCollectionEntry(user, { pinId: pin.id, status: 'trading' });
    const { entry } = await moveCollectionEntry(user, user.id, { pinId: pin.id, status: 'owned' });
    expect(entry.tradeable).toBe(false);
  });

  it('refuses another user (403), visitors (401), bad status (400) and unknown pins (404)', async () => {
    const owner = await createUser();
    const other = await createUser();
    const admin = await createUser({ role: 'admin' });
    const pin = await createPin();
    await createCollectionEntry(owner, { pinId: pin.id, status: 'owned' });
    await expectError(moveCollectionEntry(other, owner.id, { pinId: pin.id, status: 'wanted' }), 403);
    await expectError(moveCollectionEntry(admin, owner.id, { pinId: pin.id, status: 'wanted' }), 403);
    await expectError(moveCollectionEntry(null, owner.id, { pinId: pin.id, status: 'wanted' }), 401);
    const bad = await expectError(moveCollectionEntry(owner, owner.id, { pinId: pin.id, status: 'gone' }), 400);
    expect(bad.issues?.status?.[0]).toMatch(/owned, wanted or trading/);
    const missing = await expectError(moveCollectionEntry(owner, owner.id, { pinId: pin.id, status: undefined }), 400);
    expect(missing.issues?.status).toEqual(['Status is required']);
    await expectError(moveCollectionEntry(owner, owner.id, { pinId: 'nope', status: 'wanted' }), 404);
    await expectError(listCollection(other, owner.id, 'owned'), 403);
    await expectError(getUserStats(other, owner.id), 403);
    await expectError(listUserAchievements(other, owner.id), 403);
    // admins may read any collection
    expect(await listCollection(admin, owner.id, 'owned')).toHaveLength(1);
    expect((await listCollection(owner, owner.id, 'owned'))[0].status).toBe('owned');
  });
});

describe('removing', () => {
  it('removes only your own entry and keeps the stats true', async () => {
    const user = await createUser();
    const other = await createUser();
    const pin = await createPin();
    await createCollectionEntry(user, { pinId: pin.id, status: 'owned' });
    await expectError(removeCollectionEntry(other, user.id, pin.id), 403);
    expect((await statsOf(user.id))?.pinsOwned).toBe(1);
    await removeCollectionEntry(user, user.id, pin.id);
    expect((await listCounts(user.id)).total).toBe(0);
    expect((await statsOf(user.id))?.pinsOwned).toBe(0);
    await expectError(removeCollectionEntry(user, user.id, pin.id), 404);
  });
});

/** Points from today's challenges: which ones a day has depends on the date, so tests add them. */
async function challengePoints(userId: string) {
  const row = await db()
    .select({ n: sum(dailyChallenges.reward) })
    .from(userChallengeProgress)
    .innerJoin(dailyChallenges, eq(dailyChallenges.id, userChallengeProgress.challengeId))
    .where(and(eq(userChallengeProgress.userId, userId), eq(userChallengeProgress.completed, true)))
    .get();
  return Number(row?.n ?? 0);
}

describe('badges', () => {
  it('seeds at least 12 badges covering every condition type', async () => {
    const rows = await db().select().from(achievements);
    expect(rows.length).toBeGreaterThanOrEqual(12);
    const types = new Set(rows.map((r) => r.condition.type));
    for (const t of ['identification_count', 'pins_owned_count', 'pins_wanted_count', 'trading_count', 'streak_days', 'owns_rarity', 'organizations_collected', 'pins_contributed']) {
      expect(types.has(t as never)).toBe(true);
    }
    await ensureAchievements(); // idempotent
    expect((await db().select().from(achievements)).length).toBe(rows.length);
  });

  it('awards a badge exactly once with its points, in the action that earned it', async () => {
    const user = await createUser();
    const p1 = await createPin();
    const p2 = await createPin();
    const first = await createCollectionEntry(user, { pinId: p1.id, status: 'owned' });
    const names = first.newlyUnlockedBadges.map((b) => b.name);
    expect(names).toContain('First Pin');
    const firstPin = first.newlyUnlockedBadges.find((b) => b.name === 'First Pin')!;
    const pointsAfterFirst = (await statsOf(user.id))!.achievementPoints;
    expect(pointsAfterFirst).toBe(first.newlyUnlockedBadges.reduce((s, b) => s + b.points, 0) + (await challengePoints(user.id)));
    expect(firstPin.points).toBe(10);

    // losing and regaining the condition does not award it again
    await moveCollectionEntry(user, user.id, { pinId: p1.id, status: 'wanted' });
    const again = await moveCollectionEntry(user, user.id, { pinId: p1.id, status: 'owned' });
    expect(again.newlyUnlockedBadges.map((b) => b.name)).not.toContain('First Pin');
    const second = await createCollectionEntry(user, { pinId: p2.id, status: 'owned' });
    expect(second.newlyUnlockedBadges.map((b) => b.name)).not.toContain('First Pin');

    const held = await db().select().from(userAchievements).where(eq(userAchievements.userId, user.id));
    const byId = held.filter((h) => h.achievementId === firstPin.id);
    expect(byId).toHaveLength(1);
    const allBadgePoints = (await listUserAchievements(user, user.id)).reduce((s, ua) => s + ua.achievement.points, 0);
    expect((await statsOf(user.id))!.achievementPoints).toBe(allBadgePoints + (await challengePoints(user.id)));
  });

  it('identification badges come from recordIdentificationActivity; rollback removes the award', async () => {
    const user = await createUser();
    const unlocked = await transaction((tx) => recordIdentificationActivity(tx, user.id, { successful: true }));
    expect(unlocked.map((b) => b.name)).toEqual(['First Identification']);
    const stats = await getUserStats(user, user.id);
    expect(stats.pinsIdentified).toBe(1);
    expect(stats.successfulIdentifications).toBe(1);
    expect(stats.achievementPoints).toBe(10 + (await challengePoints(user.id)));

    const other = await createUser();
    await expect(
      transaction(async (tx) => {
        await recordIdentificationActivity(tx, other.id, { successful: false });
        throw new Error('identification failed after the award');
      }),
    ).rejects.toThrow();
    expect(await listUserAchievements(other, other.id)).toHaveLength(0);
    expect((await statsOf(other.id))?.achievementPoints ?? 0).toBe(0);
  });

  it('rarity, organization, trading and wanted badges', async () => {
    const user = await createUser();
    const ultra = await createPin({ rarity: 'ultra_rare', rarityScore: 4, totalQuantity: 5 });
    const r1 = await createCollectionEntry(user, { pinId: ultra.id, status: 'owned' });
    expect(r1.newlyUnlockedBadges.map((b) => b.name)).toEqual(expect.arrayContaining(['First Pin', 'Ultra Rare Hunter']));
    const orgs = [await createOrganization(), await createOrganization()];
    for (const org of orgs) await createCollectionEntry(user, { pinId: (await createPin({ organizationId: org.id })).id, status: 'owned' });
    const overview = await getBadgeOverview(user, user.id);
    expect(overview.earned.map((b) => b.name)).toContain('League Explorer');
    const t = await createCollectionEntry(user, { pinId: (await createPin()).id, status: 'trading' });
    expect(t.newlyUnlockedBadges.map((b) => b.name)).toContain('Open for Trade');
    let last: string[] = [];
    for (let i = 0; i < 5; i++) last = (await createCollectionEntry(user, { pinId: (await createPin()).id, status: 'wanted' })).newlyUnlockedBadges.map((b) => b.name);
    expect(last).toContain('Wishful Thinker');
  });

  it("a contributor's new pin lands in their collection and earns Contributor and First Pin", async () => {
    const vendor = await createUser({ role: 'vendor' });
    const dto = await createCataloguePin(vendor, { name: `Contributed ${Date.now()}`, description: 'A new pin', organizationName: `Org ${Date.now()}` });
    expect(dto.newlyUnlockedBadges.map((b) => b.name)).toEqual(expect.arrayContaining(['Contributor', 'First Pin']));
    const owned = await listCollection(vendor, vendor.id, 'owned');
    expect(owned.map((e) => [e.pinId, e.condition, e.notes])).toEqual([[dto.id, 'mint', 'Original contributor']]);
    expect((await statsOf(vendor.id))!.achievementPoints).toBe(dto.newlyUnlockedBadges.reduce((s, b) => s + b.points, 0) + (await challengePoints(vendor.id)));
  });

  it('locked badges show progress x / target capped at 100%', async () => {
    const user = await createUser();
    for (let i = 0; i < 3; i++) await createCollectionEntry(user, { pinId: (await createPin()).id, status: 'owned' });
    const overview = await getBadgeOverview(user, user.id);
    const collector = overview.locked.find((b) => b.key === 'collector')!;
    expect([collector.current, collector.target, collector.percent]).toEqual([3, 10, 30]);
    const firstPin = overview.earned.find((b) => b.key === 'first_pin')!;
    expect(firstPin.percent).toBe(100);
    expect(overview.earned.length + overview.locked.length).toBe(overview.total);
    for (const b of overview.locked) expect(b.percent).toBeLessThanOrEqual(100);
  });
});

describe('streaks', () => {
  const at = (iso: string) => new Date(iso);

  it('counts consecutive calendar days, resets after a gap, keeps the longest', async () => {
    const user = await createUser();
    const pins = await Promise.all(Array.from({ length: 6 }, () => createPin()));
    const add = (i: number, now: Date, timeZone?: string) =>
      transaction((tx) => addCollectionEntry(tx, user.id, { pinId: pins[i].id, status: 'wanted' }, { now, timeZone }));
    await add(0, at('2026-03-01T10:00:00Z'));
    await add(1, at('2026-03-01T23:00:00Z')); // same day: no change
    expect((await statsOf(user.id))!.currentStreak).toBe(1);
    await add(2, at('2026-03-02T08:00:00Z'));
    const r = await add(3, at('2026-03-03T08:00:00Z'));
    expect(r.newlyUnlockedBadges.map((b) => b.name)).toContain('On a Roll');
    expect((await statsOf(user.id))).toMatchObject({ currentStreak: 3, longestStreak: 3, lastActiveDate: '2026-03-03' });
    // the streak lapses on display after a missed day
    expect((await getUserStats(user, user.id, { now: at('2026-03-04T12:00:00Z') })).currentStreak).toBe(3);
    expect((await getUserStats(user, user.id, { now: at('2026-03-05T12:00:00Z') })).currentStreak).toBe(0);
    await add(4, at('2026-03-06T08:00:00Z'));
    expect((await statsOf(user.id))).toMatchObject({ currentStreak: 1, longestStreak: 3 });
  });

  it('uses the user time zone for the calendar day', async () => {
    expect(calendarDay(at('2026-03-02T03:00:00Z'), 'America/Los_Angeles')).toBe('2026-03-01');
    expect(calendarDay(at('2026-03-02T03:00:00Z'), 'Not/AZone')).toBe('2026-03-02');
    const user = await createUser();
    const [p1, p2] = [await createPin(), await createPin()];
    // 20:00 and 03:00Z next day are the same evening in Los Angeles: still a 1-day streak
    await transaction((tx) => addCollectionEntry(tx, user.id, { pinId: p1.id, status: 'wanted' }, { now: at('2026-03-01T20:00:00Z'), timeZone: 'America/Los_Angeles' }));
    await transaction((tx) => addCollectionEntry(tx, user.id, { pinId: p2.id, status: 'wanted' }, { now: at('2026-03-02T03:00:00Z'), timeZone: 'America/Los_Angeles' }));
    expect((await statsOf(user.id))).toMatchObject({ currentStreak: 1, lastActiveDate: '2026-03-01' });
  });
});

describe('value and export', () => {
  it('sums value × quantity over held pins and exports the rows as CSV', async () => {
    const user = await createUser();
    const a = await createPin({ name: 'Value, "Quoted" Pin', estimatedValueCents: 1250 });
    const b = await createPin({ estimatedValueCents: 400 });
    const c = await createPin({ estimatedValueCents: 99999 });
    const d = await createPin({ name: '=HYPERLINK("x")' });
    await createCollectionEntry(user, { pinId: a.id, status: 'owned', quantity: 2 });
    await createCollectionEntry(user, { pinId: b.id, status: 'trading', quantity: 3 });
    await createCollectionEntry(user, { pinId: c.id, status: 'wanted' });
    await createCollectionEntry(user, { pinId: d.id, status: 'owned' });
    expect(await getCollectionValue(user.id)).toEqual({ cents: 2 * 1250 + 3 * 400, unvalued: 1 });

    const csv = await collectionCsv(user, user.id);
    const lines = csv.replace(/^\ufeff/, '').trim().split('\r\n');
    expect(lines[0]).toMatch(/^Pin ID,Name,Organization,Status,Quantity,Condition/);
    expect(lines).toHaveLength(5);
    expect(csv).toContain('"Value, ""Quoted"" Pin"');
    expect(csv).toContain(`"'=HYPERLINK(""x"")"`);
    expect(lines.filter((l) => l.includes(',owned,'))).toHaveLength(2);
    await expectError(collectionCsv(await createUser(), user.id), 403);
  });
});

describe('concurrency', () => {
  it('parallel adds and moves leave stats equal to the lists', async () => {
    const user = await createUser();
    const pins = await Promise.all(Array.from({ length: 24 }, () => createPin()));
    // adds of distinct pins, repeated adds of the same pin, all at once
    await Promise.all([
      ...pins.map((p, i) => createCollectionEntry(user, { pinId: p.id, status: (['owned', 'wanted', 'trading'] as const)[i % 3] })),
      ...pins.slice(0, 6).map((p) => createCollectionEntry(user, { pinId: p.id, status: 'owned' })),
    ]);
    let counts = await listCounts(user.id);
    expect(counts.total).toBe(24);
    let stats = await statsOf(user.id);
    expect([stats!.pinsOwned, stats!.pinsWanted]).toEqual([counts.owned, counts.wanted]);

    // many parallel moves, several racing on the same entries
    const targets = ['owned', 'wanted', 'trading'] as const;
    await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        moveCollectionEntry(user, user.id, { pinId: pins[i % pins.length].id, status: targets[(i * 7) % 3] }).catch((e: unknown) => {
          // a move racing another to an unreachable status is refused cleanly, never half-written
          if (!(e instanceof AppError)) throw e;
        }),
      ),
    );
    counts = await listCounts(user.id);
    stats = await statsOf(user.id);
    expect(counts.total).toBe(24);
    expect([stats!.pinsOwned, stats!.pinsWanted]).toEqual([counts.owned, counts.wanted]);
    const api = await getUserStats(user, user.id);
    expect([api.pinsOwned, api.pinsWanted]).toEqual([counts.owned, counts.wanted]);
    // badges were awarded at most once each even though many transactions crossed thresholds
    const held = await db().select().from(userAchievements).where(eq(userAchievements.userId, user.id));
    expect(new Set(held.map((h) => h.achievementId)).size).toBe(held.length);
    const points = (await listUserAchievements(user, user.id)).reduce((s, ua) => s + ua.achievement.points, 0);
    expect((await db().query.userStats.findFirst({ where: eq(userStats.userId, user.id) }))!.achievementPoints).toBe(points + (await challengePoints(user.id)));
  });
});

describe('changing your own entry (the pin page)', () => {
  it('sets exactly the submitted values, without merging, and keeps stats true', async () => {
    const user = await createUser();
    const pin = await createPin();
    await createCollectionEntry(user, { pinId: pin.id, status: 'owned', quantity: 3, condition: 'good', notes: 'Swap meet' });
    const { entry } = await updateCollectionEntry(user, { pinId: pin.id, status: 'wanted', quantity: 1, condition: 'mint', tradeable: false, notes: '' });
    expect(entry).toMatchObject({ status: 'wanted', quantity: 1, condition: 'mint', tradeable: false, notes: null });
    expect(await listCounts(user.id)).toMatchObject({ owned: 0, wanted: 1 });
    expect(await statsOf(user.id)).toMatchObject({ pinsOwned: 0, pinsWanted: 1 });
    // the same status again: the quantity is set, not added
    const again = await updateCollectionEntry(user, { pinId: pin.id, status: 'wanted', quantity: 2 });
    expect(again.entry.quantity).toBe(2);
  });

  it('refuses a visitor (401), bad input (400) and a pin not in your collection (404), changing nothing', async () => {
    const owner = await createUser();
    const other = await createUser();
    const pin = await createPin();
    await createCollectionEntry(owner, { pinId: pin.id, status: 'owned', quantity: 2 });
    await expectError(updateCollectionEntry(null, { pinId: pin.id, status: 'owned', quantity: 1 }), 401);
    await expectError(updateCollectionEntry(owner, { pinId: pin.id, status: 'owned', quantity: 0 }), 400);
    await expectError(updateCollectionEntry(owner, { pinId: pin.id, status: 'lost', quantity: 1 }), 400);
    // another user cannot reach the owner's entry: they have none for that pin
    await expectError(updateCollectionEntry(other, { pinId: pin.id, status: 'wanted', quantity: 5 }), 404);
    const [entry] = await listCollection(owner, owner.id, 'owned');
    expect(entry).toMatchObject({ pinId: pin.id, quantity: 2 });
    expect(await listCounts(other.id)).toMatchObject({ owned: 0, wanted: 0, trading: 0 });
  });
});
