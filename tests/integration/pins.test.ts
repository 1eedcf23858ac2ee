import { and, eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SessionUser } from '~/services/users.server';
import { cachedUntilWriteBy, db, keptForRequest } from '~/db/index.server';
import { getDatabase, openDatabase } from '~/db/client.server';
import { identifications, organizations, pins, userCollections, userStats } from '~/db/schema';
import { pinEditSchema, newPinSchema } from '~/forms/pins';
import { recentIdentifications } from '~/services/feed.server';
import { createOrganization, deleteOrganization, listOrganizations, updateOrganization } from '~/services/organizations.server';
import {
  buildMatchQuery,
  createPin,
  deletePin,
  getPin,
  getPinsByIds,
  highestValuePins,
  homeTabCounts,
  listPins,
  listPinYears,
  newestPins,
  rarestPins,
  updatePin,
} from '~/services/pins.server';
import { loader as pinsApiLoader, action as pinsApiAction } from '~/routes/api.pins';
import { loader as pinApiLoader, action as pinApiAction } from '~/routes/api.pins.$id';
import { createOrganization as makeOrg, createPin as makePin, createUser } from '../support/factories';

const asActor = (u: Awaited<ReturnType<typeof createUser>>): SessionUser => ({ ...u, vendor: null });

async function photo(color: { r: number; g: number; b: number }) {
  return sharp({ create: { width: 64, height: 48, channels: 3, background: color } }).png().toBuffer();
}

let vendor: SessionUser;
let manager: SessionUser;
let player: SessionUser;
let admin: SessionUser;

beforeAll(async () => {
  vendor = asActor(await createUser({ role: 'vendor' }));
  manager = asActor(await createUser({ role: 'manager' }));
  player = asActor(await createUser({ role: 'player' }));
  admin = asActor(await createUser({ role: 'admin' }));
});

describe('createPin', () => {
  it('creates the organization first when its name is new (without regard to case) and reuses it otherwise', async () => {
    const a = await createPin(vendor, { name: 'Cooperstown Dreams Park 2024', organizationName: 'Cooperstown Dreams Park', totalQuantity: 40 });
    const b = await createPin(manager, { name: 'Another Cooperstown pin', organizationName: '  cooperstown dreams PARK ' });
    expect(a.organization?.name).toBe('Cooperstown Dreams Park');
    expect(b.organizationId).toBe(a.organizationId);
    const orgs = await db().select().from(organizations).where(eq(organizations.id, a.organizationId));
    expect(orgs).toHaveLength(1);
    // default quantity 100 and rarity derived from it
    expect(b.totalQuantity).toBe(100);
    expect(b.rarity).toBe('rare');
    expect(b.rarityScore).toBe(3);
    expect(a.rarity).toBe('ultra_rare');
    expect(a.rarityScore).toBe(4);
  });

  it('parallel pins with the same new organization name make one organization', async () => {
    const made = await Promise.all(
      ['Parallel League', 'parallel league', 'PARALLEL LEAGUE'].map((org, i) => createPin(vendor, { name: `Parallel ${i}`, organizationName: org })),
    );
    expect(new Set(made.map((p) => p.organizationId)).size).toBe(1);
  });

  it("adds the new pin to the creator's collection as owned, 1, mint, not tradeable, 'Original contributor'", async () => {
    const pin = await createPin(vendor, { name: 'Contributor pin', organizationName: 'Little League' });
    const entry = await db()
      .select()
      .from(userCollections)
      .where(and(eq(userCollections.userId, vendor.id), eq(userCollections.pinId, pin.id)))
      .get();
    expect(entry).toMatchObject({ status: 'owned', quantity: 1, condition: 'mint', tradeable: false, notes: 'Original contributor' });
    const stats = await db().select().from(userStats).where(eq(userStats.userId, vendor.id)).get();
    expect(stats?.pinsOwned).toBeGreaterThanOrEqual(1);
    expect(Array.isArray(pin.newlyUnlockedBadges)).toBe(true);
  });

  it('refuses players and visitors', async () => {
    await expect(createPin(player, { name: 'Nope', organizationName: 'X' })).rejects.toMatchObject({ status: 403 });
    await expect(createPin(null, { name: 'Nope', organizationName: 'X' })).rejects.toMatchObject({ status: 401 });
  });

  it("validates with the specification's messages", async () => {
    await expect(createPin(vendor, { name: '  ', organizationName: 'X' })).rejects.toMatchObject({
      status: 400,
      issues: { name: ['Pin name is required'] },
    });
    await expect(createPin(vendor, { name: 'Pin' })).rejects.toMatchObject({ issues: { organizationName: ['Organization is required'] } });
    await expect(createPin(vendor, { name: 'Pin', organizationName: 'X', totalQuantity: 0 })).rejects.toMatchObject({
      issues: { totalQuantity: ['Total quantity must be at least 1'] },
    });
    await expect(createPin(vendor, { name: 'Pin', organizationName: 'X', year: 1899 })).rejects.toMatchObject({ status: 400 });
    await expect(createPin(vendor, { name: 'Pin', organizationName: 'X', year: new Date().getFullYear() + 1 })).rejects.toMatchObject({
      status: 400,
    });
  });

  it('stores up to 5 images with the primary photo first, and refuses a sixth', async () => {
    const red = await photo({ r: 220, g: 10, b: 10 });
    const blue = await photo({ r: 10, g: 10, b: 220 });
    const pin = await createPin(vendor, { name: 'Two photos', organizationName: 'Photo Org', images: [red, blue], primaryPhotoIndex: 1 });
    expect(pin.images).toHaveLength(2);
    expect(pin.primaryPhotoIndex).toBe(1);
    const stored = await db().select({ images: pins.images }).from(pins).where(eq(pins.id, pin.id)).get();
    // the primary (blue) photo is shown first
    expect(pin.images[0]).toBe(`/images/${stored!.images[1]}`);
    expect(pin.thumbnail).toBe(`/images/${stored!.images[1]}?s=thumb`);
    const six = Array.from({ length: 6 }, () => red);
    await expect(createPin(vendor, { name: 'Too many', organizationName: 'Photo Org', images: six })).rejects.toMatchObject({ status: 400 });
  });

  it('an update keeps existing photos named by URL, adds new ones and refuses what is not an image list', async () => {
    const red = await photo({ r: 200, g: 0, b: 0 });
    const green = await photo({ r: 0, g: 200, b: 0 });
    const pin = await createPin(vendor, { name: 'Photo edit', organizationName: 'Photo Org', images: [red] });
    const updated = await updatePin(vendor, pin.id, { images: [pin.images[0], green], primaryPhotoIndex: 1 });
    expect(updated.images).toHaveLength(2);
    expect(updated.images[1]).toBe(pin.images[0]); // the new (green) photo is primary, so shown first
    // no images key: photos unchanged
    expect((await updatePin(vendor, pin.id, { name: 'Photo edit 2' })).images).toEqual(updated.images);
    await expect(updatePin(vendor, pin.id, { images: [1, 2] } as never)).rejects.toMatchObject({ status: 400 });
    await expect(updatePin(vendor, pin.id, { images: [`/images/${'0'.repeat(32)}`] })).rejects.toMatchObject({ status: 400, message: 'Image not found' });
    // a stored image (e.g. an identification photo) can be used by reference when creating a pin
    const byRef = await createPin(vendor, { name: 'By reference', organizationName: 'Photo Org', images: [pin.images[0]] });
    expect(byRef.images).toEqual([pin.images[0]]);
    // but not another user's picture: another vendor's pin photo, someone's identification photo
    const otherVendor = await createUser({ role: 'vendor' });
    await expect(createPin(otherVendor, { name: 'Copied', organizationName: 'Photo Org', images: [pin.images[0]] })).rejects.toMatchObject({ status: 400, message: 'Image not found' });
    await expect(updatePin(otherVendor, (await createPin(otherVendor, { name: 'Mine', organizationName: 'Photo Org' })).id, { images: [pin.images[0]] })).rejects.toMatchObject({ status: 400, message: 'Image not found' });
    await expect(updatePin(vendor, pin.id, { images: 'x' } as never)).rejects.toMatchObject({ status: 400 });
  });

  it('an admin may set the rarity by hand, which then no longer follows the quantity', async () => {
    const pin = await createPin(admin, { name: 'Hand-set rare', organizationName: 'Admin Org', totalQuantity: 5000, rarity: 'rare' });
    expect(pin).toMatchObject({ rarity: 'rare', rarityScore: 3 });
    const updated = await updatePin(admin, pin.id, { totalQuantity: 10 });
    expect(updated).toMatchObject({ rarity: 'rare', rarityScore: 3 });
    const auto = await updatePin(admin, pin.id, { rarity: 'auto' });
    expect(auto).toMatchObject({ rarity: 'ultra_rare', rarityScore: 4 });
    await expect(createPin(vendor, { name: 'x', organizationName: 'y', rarity: 'ultra_rare' })).rejects.toMatchObject({ status: 403 });
    await expect(updatePin(vendor, (await createPin(vendor, { name: 'v', organizationName: 'y' })).id, { rarity: 'rare' })).rejects.toMatchObject({ status: 403 });
  });
});

describe('reading pins', () => {
  it('getPin throws Pin Not Found (404) for a missing id', async () => {
    await expect(getPin('does-not-exist')).rejects.toMatchObject({ status: 404, message: 'Pin Not Found' });
  });

  it('getPinsByIds keeps the order asked and skips unknown ids', async () => {
    const a = await makePin({ name: 'Order A' });
    const b = await makePin({ name: 'Order B' });
    const list = await getPinsByIds([b.id, 'missing', a.id]);
    expect(list.map((p) => p.name)).toEqual(['Order B', 'Order A']);
  });
});

describe('updating and deleting', () => {
  it('the creator and admins may edit; others get 403; rarity follows the new quantity', async () => {
    const pin = await createPin(vendor, { name: 'Editable', organizationName: 'Edit Org', totalQuantity: 1000 });
    expect(pin.rarity).toBe('common');
    const edited = await updatePin(vendor, pin.id, { name: 'Edited name', totalQuantity: 30, year: 2020, event: 'World Series', description: '' });
    expect(edited).toMatchObject({ name: 'Edited name', totalQuantity: 30, rarity: 'ultra_rare', rarityScore: 4, year: 2020, event: 'World Series', description: null });
    await expect(updatePin(player, pin.id, { name: 'Hacked' })).rejects.toMatchObject({ status: 403 });
    await expect(updatePin(manager, pin.id, { name: 'Hacked' })).rejects.toMatchObject({ status: 403 });
    await expect(updatePin(null, pin.id, { name: 'Hacked' })).rejects.toMatchObject({ status: 401 });
    expect((await updatePin(admin, pin.id, { name: 'Admin fixed' })).name).toBe('Admin fixed');
    await expect(updatePin(vendor, pin.id, { name: '' })).rejects.toMatchObject({ issues: { name: ['Name is required'] } });
    await expect(updatePin(vendor, pin.id, { totalQuantity: 0 })).rejects.toMatchObject({ issues: { totalQuantity: ['Quantity must be at least 1'] } });
    await expect(updatePin(vendor, 'missing', { name: 'x' })).rejects.toMatchObject({ status: 404 });
  });

  it('deleting removes the pin, its identifications and collection entries, for the creator or an admin only', async () => {
    const pin = await createPin(vendor, { name: 'Doomed', organizationName: 'Delete Org' });
    await db().insert(identifications).values({ pinId: pin.id, confidence: 90 });
    await expect(deletePin(player, pin.id)).rejects.toMatchObject({ status: 403 });
    await deletePin(vendor, pin.id);
    await expect(getPin(pin.id)).rejects.toMatchObject({ status: 404 });
    expect(await db().select().from(identifications).where(eq(identifications.pinId, pin.id))).toHaveLength(0);
    expect(await db().select().from(userCollections).where(eq(userCollections.pinId, pin.id))).toHaveLength(0);
    const other = await createPin(manager, { name: 'Admin deletes', organizationName: 'Delete Org' });
    await deletePin(admin, other.id);
    await expect(getPin(other.id)).rejects.toMatchObject({ status: 404 });
  });
});

describe('search and lists', () => {
  let orgA: string;
  let orgB: string;
  beforeAll(async () => {
    orgA = (await makeOrg('Zephyr Tournament League')).id;
    orgB = (await makeOrg('Quokka Baseball Club')).id;
    await makePin({ name: 'Zebra Slugger', organizationId: orgA, rarity: 'ultra_rare', rarityScore: 4, totalQuantity: 20, estimatedValueCents: 12_550 });
    await makePin({ name: 'Quokka Catcher', organizationId: orgB, rarity: 'common', rarityScore: 1, event: 'Zebra Classic 2023' });
    await makePin({ name: 'Plain pin', organizationId: orgB, description: 'Has a zebra mascot', rarity: 'rare', rarityScore: 3 });
  });

  it('sorts by name, year, value and rarity and filters by year', async () => {
    const orgS = (await makeOrg('Sorting Test Club')).id;
    await makePin({ name: 'Sort Alpha 2019', organizationId: orgS, year: 2019, estimatedValueCents: 500, rarity: 'common', rarityScore: 1 });
    await makePin({ name: 'sort beta 2021', organizationId: orgS, year: 2021, estimatedValueCents: 9_900, rarity: 'ultra_rare', rarityScore: 4 });
    await makePin({ name: 'Sort Gamma', organizationId: orgS, year: null, estimatedValueCents: null, rarity: 'rare', rarityScore: 3 });
    const names = async (opts: Parameters<typeof listPins>[0]) =>
      (await listPins({ organizationId: orgS, limit: 10, ...opts })).pins.map((p) => p.name);
    expect(await names({ sort: 'name' })).toEqual(['Sort Alpha 2019', 'sort beta 2021', 'Sort Gamma']);
    expect(await names({ sort: 'name', dir: 'desc' })).toEqual(['Sort Gamma', 'sort beta 2021', 'Sort Alpha 2019']);
    // pins without a year or value come last, whichever the direction
    expect(await names({ sort: 'year' })).toEqual(['sort beta 2021', 'Sort Alpha 2019', 'Sort Gamma']);
    expect(await names({ sort: 'year', dir: 'asc' })).toEqual(['Sort Alpha 2019', 'sort beta 2021', 'Sort Gamma']);
    expect(await names({ sort: 'value' })).toEqual(['sort beta 2021', 'Sort Alpha 2019', 'Sort Gamma']);
    expect(await names({ sort: 'rarity' })).toEqual(['sort beta 2021', 'Sort Gamma', 'Sort Alpha 2019']);
    expect(await names({ year: 2019 })).toEqual(['Sort Alpha 2019']);
    expect(await listPinYears()).toEqual(expect.arrayContaining([2021, 2019]));
  });

  it('lists every combination of rarity, year and organization in each order, page by page, as a plain sort would', async () => {
    const orgs = [(await makeOrg('Combo League One')).id, (await makeOrg('Combo League Two')).id];
    const rarities = ['common', 'rare', 'ultra_rare'] as const;
    const made: { name: string; organizationId: string; rarity: string; year: number | null; value: number | null; score: number; at: number }[] = [];
    for (let i = 0; i < 36; i++) {
      const pin = {
        name: `Combo ${['delta', 'Alpha', 'charlie', 'Bravo'][i % 4]} ${String(i).padStart(2, '0')}`,
        organizationId: orgs[i % 2],
        rarity: rarities[i % 3],
        year: i % 5 === 0 ? null : 2020 + (i % 3),
        value: i % 4 === 0 ? null : ((i * 37) % 11) * 100,
        score: [1, 3, 4][i % 3],
        at: Date.UTC(2025, 0, 1) + i * 60_000,
      };
      made.push(pin);
      await makePin({ name: pin.name, organizationId: pin.organizationId, rarity: pin.rarity, rarityScore: pin.score, year: pin.year, estimatedValueCents: pin.value, createdAt: new Date(pin.at) });
    }
    type Made = (typeof made)[number];
    const newest = (a: Made, b: Made) => b.at - a.at;
    // highest first, pins without one last
    const descNullsLast = (a: number | null, b: number | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : b - a);
    const orders: Record<string, (a: Made, b: Made) => number> = {
      name: (a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()),
      value: (a, b) => descNullsLast(a.value, b.value) || newest(a, b),
      year: (a, b) => descNullsLast(a.year, b.year) || newest(a, b),
      rarity: (a, b) => b.score - a.score || newest(a, b),
    };
    const filterSets = [{ rarity: 'rare' }, { year: 2021 }, { rarity: 'common', year: 2020 }, { rarity: 'ultra_rare', organizationId: orgs[0] }, { year: 2022, organizationId: orgs[1] }];
    for (const filters of filterSets) {
      for (const sort of ['name', 'value', 'year', 'rarity'] as const) {
        const expected = made
          .filter((p) => orgs.includes(p.organizationId))
          .filter((p) => (!('rarity' in filters) || p.rarity === filters.rarity) && (!('year' in filters) || p.year === filters.year) && (!('organizationId' in filters) || p.organizationId === filters.organizationId))
          .sort(orders[sort])
          .map((p) => p.name);
        // page by page, without and with a search (the other tests' pins match the filters too)
        for (const search of [undefined, 'combo']) {
          const got: string[] = [];
          for (let offset = 0; offset < 1000; offset += 3) {
            const page = await listPins({ ...filters, search, sort, limit: 3, offset });
            got.push(...page.pins.map((p) => p.name));
            if (!page.hasMore) break;
          }
          expect(got.filter((n) => n.startsWith('Combo ')), `${JSON.stringify(filters)} sorted by ${sort}, search ${search}`).toEqual(expected);
        }
      }
    }
  });

  it('builds a safe MATCH query from odd input', () => {
    expect(buildMatchQuery('  ')).toBeNull();
    expect(buildMatchQuery('"*^()-:')).toBeNull();
    expect(buildMatchQuery('Yank NEAR(x) "2024"')).toBe('"Yank"* "NEAR"* "x" "2024"*');
  });

  it('finds by prefix across name, organization, event and description, best match (name) first', async () => {
    const res = await listPins({ search: 'zeb' });
    expect(res.pins.map((p) => p.name)).toEqual(['Zebra Slugger', expect.any(String), expect.any(String)]);
    expect(res.total).toBe(3);
    expect((await listPins({ search: 'zephyr' })).pins.map((p) => p.name)).toEqual(['Zebra Slugger']);
    expect((await listPins({ search: 'classic' })).pins.map((p) => p.name)).toEqual(['Quokka Catcher']);
    expect((await listPins({ search: 'mascot' })).pins.map((p) => p.name)).toEqual(['Plain pin']);
  });

  it('tolerates punctuation and FTS syntax without errors', async () => {
    for (const q of ['"', "O'Brien", 'zeb*', 'a OR b', 'NEAR(', '(((', '-zebra', 'zebra:', '^', '😀', 'AND']) {
      await expect(listPins({ search: q })).resolves.toBeDefined();
    }
    expect((await listPins({ search: 'zebra!!!' })).total).toBe(3);
  });

  it('combines search with rarity and organization filters', async () => {
    expect((await listPins({ search: 'zebra', rarity: 'rare' })).pins.map((p) => p.name)).toEqual(['Plain pin']);
    expect((await listPins({ search: 'zebra', organizationId: orgB })).total).toBe(2);
    expect((await listPins({ organizationId: orgB, rarity: 'common' })).pins.map((p) => p.name)).toEqual(['Quokka Catcher']);
    // an unknown rarity is no filter
    expect((await listPins({ search: 'zebra', rarity: 'all_rarities' })).total).toBe(3);
  });

  it('pages with a stable order and no duplicates', async () => {
    const org = (await makeOrg('Paging Org')).id;
    const t = new Date('2024-01-01T00:00:00Z');
    // identical timestamps: the id breaks the tie
    for (let i = 0; i < 7; i++) await makePin({ name: `Page pin ${i}`, organizationId: org, createdAt: t });
    const seen: string[] = [];
    for (let offset = 0; offset < 7; offset += 3) {
      const res = await listPins({ organizationId: org, limit: 3, offset });
      seen.push(...res.pins.map((p) => p.id));
      expect(res.hasMore).toBe(offset + 3 < 7);
    }
    expect(new Set(seen).size).toBe(7);
  });

  it('createdUpTo keeps later pages stable while new pins are added', async () => {
    const org = (await makeOrg('Snapshot Org')).id;
    for (let i = 0; i < 4; i++) await makePin({ name: `Snap ${i}`, organizationId: org, createdAt: new Date(Date.now() - 10_000 + i) });
    const asOf = new Date();
    const first = await listPins({ organizationId: org, limit: 2, offset: 0, createdUpTo: asOf });
    await makePin({ name: 'Snap new', organizationId: org, createdAt: new Date(Date.now() + 5) });
    const second = await listPins({ organizationId: org, limit: 2, offset: 2, createdUpTo: asOf });
    const names = [...first.pins, ...second.pins].map((p) => p.name);
    expect(names).toEqual(['Snap 3', 'Snap 2', 'Snap 1', 'Snap 0']);
    expect(second.hasMore).toBe(false);
    expect((await listPins({ organizationId: org })).pins[0].name).toBe('Snap new');
  });

  it('keeps the home counts, years and organizations only until something is written, here or by another process', async () => {
    const before = await homeTabCounts();
    await listOrganizations();
    await makePin({ year: 1901, rarity: 'ultra_rare' });
    const after = await homeTabCounts();
    expect(after.newest).toBe(before.newest + 1);
    expect(after.rarest).toBe(before.rarest + 1);
    expect(await listPinYears()).toContain(1901);
    // another connection to the same file (a second process, the catalogue import)
    const other = openDatabase(getDatabase().url, { durable: false });
    try {
      await other.db.insert(organizations).values({ name: 'Written Elsewhere Club' });
      await other.db.update(pins).set({ year: 1899 }).where(eq(pins.year, 1901));
    } finally {
      other.close();
    }
    expect((await listOrganizations()).map((o) => o.name)).toContain('Written Elsewhere Club');
    const years = await listPinYears();
    expect(years).toContain(1899);
    expect(years).not.toContain(1901);
  });

  it('keeps a read per argument, at most the given number, until something is written', async () => {
    const loads: string[] = [];
    const kept = cachedUntilWriteBy((name: string) => name, async (name: string) => (loads.push(name), { name }), 2);
    const a = await kept('a');
    expect(await kept('a')).toBe(a);
    await kept('b');
    await kept('c'); // the oldest, 'a', makes room
    expect(await kept('b')).toEqual({ name: 'b' });
    expect(await kept('a')).not.toBe(a);
    expect(loads).toEqual(['a', 'b', 'c', 'a']);
    await makePin({ name: 'Kept Reads Written' });
    await kept('a');
    expect(loads).toEqual(['a', 'b', 'c', 'a', 'a']);
  });

  it.skipIf(getDatabase().driver !== 'better-sqlite3')('runs a kept drizzle query once, however often it is awaited', async () => {
    // a drizzle query runs its SQL each time it is awaited: the SQL here counts its runs
    let runs = 0;
    const sqlite = (db() as unknown as { $client: { function(name: string, fn: () => number): void } }).$client;
    sqlite.function('pindex_test_runs', () => ++runs);
    await makePin({ name: 'Counted Reads' });
    const counted = db().select({ n: sql<number>`pindex_test_runs()` }).from(pins).limit(1).prepare();
    const perRequest = keptForRequest((_: string) => counted.execute());
    const owner = {};
    expect(await perRequest(owner, 'k')).toHaveLength(1);
    await perRequest(owner, 'k');
    await perRequest(owner, 'k');
    expect(runs).toBe(1);
    const untilWrite = cachedUntilWriteBy((k: string) => k, () => counted.execute(), 10);
    await untilWrite('k');
    await untilWrite('k');
    expect(runs).toBe(2);
  });

  it('home lists and counts', async () => {
    const counts = await homeTabCounts();
    const all = await listPins({ limit: 1 });
    expect(counts.newest).toBe(all.total);
    expect(counts.rarest).toBe(await db().$count(pins, eq(pins.rarity, 'ultra_rare')));
    expect((await newestPins(4)).length).toBe(4);
    const rarest = await rarestPins(4, { ultraRareOnly: true });
    expect(rarest.every((p) => p.rarity === 'ultra_rare')).toBe(true);
    const valued = await highestValuePins(4);
    expect(valued[0].estimatedValue).toBeGreaterThanOrEqual(valued.at(-1)!.estimatedValue!);
    expect(valued.every((p) => p.estimatedValue != null)).toBe(true);
  });
});

describe('recent identifications feed', () => {
  it('lists the latest matched identifications with their pin and confidence, newest first', async () => {
    const p1 = await makePin({ name: 'Feed one' });
    const p2 = await makePin({ name: 'Feed two' });
    await db().insert(identifications).values({ pinId: p1.id, confidence: 71, createdAt: new Date(Date.now() - 1000) });
    await db().insert(identifications).values({ pinId: null, confidence: 0, createdAt: new Date() });
    await db().insert(identifications).values({ pinId: p2.id, confidence: 93, createdAt: new Date(Date.now() + 1000) });
    const feed = await recentIdentifications(6);
    expect(feed[0]).toMatchObject({ confidence: 93, pin: { name: 'Feed two' } });
    expect(feed[1]).toMatchObject({ confidence: 71, pin: { name: 'Feed one' } });
  });
});

describe('organizations', () => {
  it('lists, creates (409 on a name that exists in any case) and refuses deleting one with pins', async () => {
    const org = await createOrganization(manager, { name: 'Brand New League', description: 'Fresh' });
    await expect(createOrganization(manager, { name: 'brand new LEAGUE' })).rejects.toMatchObject({ status: 409 });
    await expect(createOrganization(player, { name: 'Player League' })).rejects.toMatchObject({ status: 403 });
    await expect(createOrganization(manager, { name: '' })).rejects.toMatchObject({ status: 400 });
    expect((await listOrganizations()).some((o) => o.id === org.id && o.description === 'Fresh')).toBe(true);
    await makePin({ organizationId: org.id });
    await expect(deleteOrganization(admin, org.id)).rejects.toMatchObject({ status: 409 });
  });

  it('a renamed organization is found by its new name in pin search', async () => {
    const org = await makeOrg('Oldname Association');
    await makePin({ name: 'Rename test pin', organizationId: org.id });
    await expect(updateOrganization(manager, org.id, { name: 'Freshname Association' })).rejects.toMatchObject({ status: 403 });
    await updateOrganization(admin, org.id, { name: 'Freshname Association' });
    expect((await listPins({ search: 'freshname' })).pins.map((p) => p.name)).toEqual(['Rename test pin']);
    expect((await listPins({ search: 'oldname' })).total).toBe(0);
  });
});

describe('forms', () => {
  it('pin edit messages', () => {
    const bad = pinEditSchema.safeParse({ name: '', totalQuantity: '0', year: '1800' });
    expect(bad.success).toBe(false);
    const msgs = bad.error!.issues.map((i) => i.message);
    expect(msgs).toContain('Name is required');
    expect(msgs).toContain('Quantity must be at least 1');
    expect(msgs).toContain(`Year must be between 1900 and ${new Date().getFullYear()}`);
    expect(pinEditSchema.safeParse({ name: 'x', totalQuantity: '5', year: '' }).success).toBe(true);
  });
  it('new pin defaults to 100 pieces and requires description and organization', () => {
    const r = newPinSchema.safeParse({ name: 'x', description: 'd', organizationName: 'o' });
    expect(r.success && r.data.totalQuantity).toBe(100);
    const bad = newPinSchema.safeParse({ name: '', description: '', organizationName: '' });
    expect(bad.error!.issues.map((i) => i.message)).toEqual(['Pin name is required', 'Description is required', 'Organization is required']);
  });
});

describe('the API routes', () => {
  const call = (fn: (a: never) => Promise<Response>, request: Request, params: Record<string, string> = {}) =>
    fn({ request, params, context: {} } as never);

  it('GET /api/pins: an array with paging headers; odd input is not a 500', async () => {
    const res = await call(pinsApiLoader, new Request('http://x/api/pins?search=%22%28&rarity=all_rarities&limit=2&offset=abc'));
    expect(res.status).toBe(200);
    expect(Array.isArray(await res.json())).toBe(true);
    const res2 = await call(pinsApiLoader, new Request('http://x/api/pins?limit=2'));
    expect(Number(res2.headers.get('X-Total-Count'))).toBeGreaterThan(2);
    expect(res2.headers.get('X-Next-Offset')).toBe('2');
  });

  it('GET /api/pins with an unknown rarity is a 400, not a silent full list', async () => {
    const res = await call(pinsApiLoader, new Request('http://x/api/pins?rarity=legendary'));
    expect(res.status).toBe(400);
  });

  it('GET /api/pins/{id}: 404 with the error JSON', async () => {
    const res = await call(pinApiLoader, new Request('http://x/api/pins/nope'), { id: 'nope' });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'Pin Not Found' });
  });

  it('POST /api/pins signed out is 401; PUT with bad JSON is 400 (signed-out first: 401); PATCH-less methods 405', async () => {
    const form = new FormData();
    form.set('name', 'x');
    expect((await call(pinsApiAction, new Request('http://x/api/pins', { method: 'POST', body: form }))).status).toBe(401);
    expect((await call(pinsApiAction, new Request('http://x/api/pins', { method: 'DELETE' }))).status).toBe(405);
    const pin = await makePin();
    expect((await call(pinApiAction, new Request(`http://x/api/pins/${pin.id}`, { method: 'POST' }), { id: pin.id })).status).toBe(405);
    expect((await call(pinApiAction, new Request(`http://x/api/pins/${pin.id}`, { method: 'DELETE' }), { id: pin.id })).status).toBe(401);
  });
});
