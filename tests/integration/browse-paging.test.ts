/**
 * Browse at scale: one page per URL (a deep page renders 24 cards, not every page before it),
 * 'Previous pins' / 'Load More Pins' by page number, and a count that stops at 1,000 ("1,000+")
 * while /api/pins keeps the exact count.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { listPins } from '~/services/pins.server';
import { loader as browseLoader } from '~/routes/browse';
import { loader as apiPins } from '~/routes/api.pins';
import { eq } from 'drizzle-orm';
import { db } from '~/db/index.server';
import { pins } from '~/db/schema';
import { addPinComment, togglePinReaction } from '~/services/community.server';
import { createOrganization, createPin, createUser } from '../support/factories';

let orgId: string;

beforeAll(async () => {
  orgId = (await createOrganization('Paging League')).id;
  const start = Date.UTC(2024, 0, 1);
  for (let i = 0; i < 30; i++) {
    await createPin({ name: `Paging Comets ${String(i).padStart(2, '0')}`, organizationId: orgId, rarity: i % 3 === 0 ? 'rare' : 'common', createdAt: new Date(start + i * 60_000) });
  }
});

const browse = async (qs: string) => {
  const res = (await browseLoader({ request: new Request(`http://localhost/browse?${qs}`), params: {}, context: {} })) as Response;
  return (await res.json()) as { pins: { id: string; name: string; likes?: number; comments?: number }[]; total: number; totalCapped: boolean; hasMore: boolean; page: number; firstPage: number; offset: number };
};

describe('browse paging', () => {
  it('renders one page per URL: page 2 is the 25th pin on, not pages 1 and 2', async () => {
    const first = await browse('q=paging');
    expect(first.pins).toHaveLength(24);
    expect(first).toMatchObject({ total: 30, totalCapped: false, hasMore: true, page: 1, firstPage: 1 });
    const second = await browse(`q=paging&page=2&asOf=${Date.now()}`);
    expect(second.pins).toHaveLength(6);
    expect(second).toMatchObject({ total: 30, hasMore: false, page: 2, firstPage: 2, offset: 24 });
    expect(second.pins.filter((p) => first.pins.some((f) => f.id === p.id))).toEqual([]);
    // newest first, without a search too
    const newest = await browse(`organizationId=${orgId}&page=2&asOf=${Date.now()}`);
    expect(newest.pins.map((p) => p.name)).toEqual(['05', '04', '03', '02', '01', '00'].map((n) => `Paging Comets ${n}`));
  });

  it('stops counting at countUpTo and says so; the exact count stays for /api/pins', async () => {
    const capped = await listPins({ search: 'paging', limit: 5, countUpTo: 12 });
    expect(capped).toMatchObject({ total: 12, totalCapped: true, hasMore: true });
    expect(capped.pins).toHaveLength(5);
    const rare = await listPins({ rarity: 'rare', organizationId: orgId, limit: 4, countUpTo: 1000 });
    expect(rare).toMatchObject({ total: 10, totalCapped: false, hasMore: true });
    // the last page counts itself: no count query, and the exact total
    const last = await listPins({ organizationId: orgId, limit: 24, offset: 24 });
    expect(last).toMatchObject({ total: 30, hasMore: false });
    expect(last.pins).toHaveLength(6);
    const res = await apiPins({ request: new Request('http://localhost/api/pins?search=paging&limit=5'), params: {}, context: {} });
    expect(res.headers.get('X-Total-Count')).toBe('30');
    expect(res.headers.get('X-Next-Offset')).toBe('5');
  });
});

describe('a search ranks its most recently added matches', () => {
  it('ranks the window by best match, lists older matches after it, and pages without repeats', async () => {
    const org = (await createOrganization('Window League')).id;
    const start = Date.UTC(2024, 1, 1);
    // oldest first: the word in the name (a strong match) or only in the description (a weak one)
    for (const [i, inName] of [true, false, true, false, false, true].entries()) {
      await createPin({
        name: inName ? `Quasarwin Star ${i}` : `Plain Star ${i}`,
        description: inName ? 'Soft enamel' : 'Soft enamel quasarwin',
        organizationId: org,
        createdAt: new Date(start + i * 60_000),
      });
    }
    const names = (pins: { name: string }[]) => pins.map((p) => p.name.replace(/^\D+/, ''));
    // a window that holds every match: the full ranking (names first, newest first among equals)
    expect(names((await listPins({ search: 'quasarwin' })).pins)).toEqual(['5', '2', '0', '4', '3', '1']);
    // a window of the 3 most recently added: those ranked, then the older ones, newest first
    const page = (offset: number, createdUpTo?: Date) => listPins({ search: 'quasarwin', rankWindow: 3, limit: 2, offset, countUpTo: 1000, createdUpTo });
    const first = await page(0);
    expect(first).toMatchObject({ total: 6, totalCapped: false, hasMore: true });
    const asOf = new Date();
    // a pin added after the list was first shown stays out of its later pages
    // (a second later: added in the same millisecond as asOf, it would count as shown)
    await createPin({ name: 'Quasarwin Star 6', description: 'Soft enamel', organizationId: org, createdAt: new Date(asOf.getTime() + 1000) });
    const second = await page(2, asOf);
    const third = await page(4, asOf);
    expect(third.hasMore).toBe(false);
    expect([...names(first.pins), ...names(second.pins), ...names(third.pins)]).toEqual(['5', '4', '3', '2', '1', '0']);
  });
});

describe('a page of the list is kept until the next write', () => {
  it('shows a new pin, a renamed pin and new likes and comments on the next visit', async () => {
    const org = (await createOrganization('Kept League')).id;
    const first = await createPin({ name: 'Keptwin One', organizationId: org });
    const page = () => browse(`organizationId=${org}`);
    const before = await page();
    expect(before.pins.map((p) => p.name)).toEqual(['Keptwin One']);
    expect(await page()).toEqual({ ...before, asOf: expect.any(Number) });

    await createPin({ name: 'Keptwin Two', organizationId: org, createdAt: new Date(Date.now() + 60_000) });
    expect((await page()).pins.map((p) => p.name)).toEqual(['Keptwin Two', 'Keptwin One']);
    const fan = await createUser({ role: 'player' });
    await togglePinReaction(fan, first.id, { type: 'like' });
    await addPinComment(fan, first.id, { content: 'Kept and shown' });
    expect((await page()).pins[1]).toMatchObject({ id: first.id, likes: 1, comments: 1 });
    await db().update(pins).set({ name: 'Keptwin First' }).where(eq(pins.id, first.id));
    expect((await page()).pins[1]).toMatchObject({ id: first.id, name: 'Keptwin First' });
    // a search, another page and another order are kept apart
    expect((await browse(`organizationId=${org}&sort=name`)).pins.map((p) => p.name)).toEqual(['Keptwin First', 'Keptwin Two']);
    expect((await browse('q=keptwin+two')).pins.map((p) => p.name)).toEqual(['Keptwin Two']);
  });
});
