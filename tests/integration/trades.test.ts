/**
 * Trading (issue 61): matches, proposals and their answers, through the service and the real
 * /api route modules, for every kind of caller; and the race of accept against cancel.
 */
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createUserSession } from '~/auth/session.server';
import { db } from '~/db/index.server';
import { notifications, tradeProposals, userCollections, users, userStats, type CollectionStatus } from '~/db/schema';
import { loader as matchesLoader } from '~/routes/api.trades.matches';
import { loader as tradesLoader, action as tradesAction } from '~/routes/api.trades';
import { loader as tradeLoader } from '~/routes/api.trades.$id';
import { action as acceptAction } from '~/routes/api.trades.$id.accept';
import { action as declineAction } from '~/routes/api.trades.$id.decline';
import { action as cancelAction } from '~/routes/api.trades.$id.cancel';
import { action as counterAction } from '~/routes/api.trades.$id.counter';
import { loader as notificationsLoader, action as notificationsAction } from '~/routes/api.notifications';
import { action as ratingAction } from '~/routes/api.trades.$id.rating';
import { badgeToasts } from '~/components/reward-toasts';
import { acceptTrade, cancelTrade, getPublicProfile, listTradeMatches, pinTradeCounts, proposeTrade, TRADE_EXPIRY_MS } from '~/services/trades.server';
import { call, request, type Handler } from '../support/api';
import { dayWith } from '../support/challenges';
import { createPin, createUser } from '../support/factories';


async function person(nickname?: string) {
  const user = await createUser({ nickname });
  const cookie = (await createUserSession(new Request('http://localhost/'), user.id)).split(';')[0];
  return { user, cookie, actor: { id: user.id, role: user.role } };
}

async function put(userId: string, pinId: string, status: CollectionStatus, quantity = 1) {
  await db().insert(userCollections).values({ userId, pinId, status, quantity, tradeable: status === 'trading' });
}

async function entry(userId: string, pinId: string) {
  return (await db().query.userCollections.findFirst({ where: and(eq(userCollections.userId, userId), eq(userCollections.pinId, pinId)) })) ?? null;
}

/** Ann trades A and wants B; Bob trades B and wants A (a two-way match); Cy only wants A. */
async function scene() {
  const [ann, bob, cy, stranger] = await Promise.all([person(), person(), person(), person()]);
  const [a, b, c] = await Promise.all([createPin({ name: 'Alpha Pin' }), createPin({ name: 'Bravo Pin' }), createPin({ name: 'Charlie Pin' })]);
  await put(ann.user.id, a.id, 'trading');
  await put(ann.user.id, b.id, 'wanted');
  await put(bob.user.id, b.id, 'trading', 2);
  await put(bob.user.id, a.id, 'wanted');
  await put(cy.user.id, a.id, 'wanted');
  await put(cy.user.id, c.id, 'trading');
  return { ann, bob, cy, stranger, a, b, c };
}

describe('trade matches', () => {
  it('ranks two-way matches first and lists the pins on each side', async () => {
    const s = await scene();
    const { matches, paging } = await listTradeMatches(s.ann.actor);
    expect(paging.total).toBe(2);
    expect(matches[0]).toMatchObject({ user: { id: s.bob.user.id }, twoWay: true, give: [{ id: s.a.id }], receive: [{ id: s.b.id }] });
    expect(matches[1]).toMatchObject({ user: { id: s.cy.user.id }, twoWay: false, give: [{ id: s.a.id }], receive: [] });
    expect(await pinTradeCounts(s.a.id)).toEqual({ trading: 1, wanted: 2 });

    expect((await call(matchesLoader as Handler, request('/api/trades/matches'))).status).toBe(401);
    const viaApi = await call(matchesLoader as Handler, request('/api/trades/matches', { cookie: s.bob.cookie }));
    expect(viaApi.status).toBe(200);
    expect(viaApi.body.matches[0]).toMatchObject({ user: { id: s.ann.user.id }, twoWay: true });
  });
});

describe('trade proposals', () => {
  it('proposes, then the recipient accepts: both collections move once, stats follow, both are told', async () => {
    const s = await scene();
    const created = await call(tradesAction as Handler, request('/api/trades', { method: 'POST', cookie: s.ann.cookie, json: { recipientId: s.bob.user.id, give: [s.a.id], receive: [s.b.id], note: 'Swap?' } }));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'open', note: 'Swap?', proposerGives: [{ id: s.a.id }], recipientGives: [{ id: s.b.id }], canCancel: true, canAnswer: false });
    const id = created.body.id;

    const inbox = await call(tradesLoader as Handler, request('/api/trades?box=incoming', { cookie: s.bob.cookie }));
    expect(inbox.body.proposals.map((p: { id: string }) => p.id)).toEqual([id]);
    const bell = await call(notificationsLoader as Handler, request('/api/notifications', { cookie: s.bob.cookie }));
    expect(bell.body.unread).toBe(1);
    expect(bell.body.notifications[0]).toMatchObject({ type: 'trade_proposed', read: false });

    // the proposer cannot accept their own proposal; a stranger does not see it
    expect((await call(acceptAction as Handler, request(`/api/trades/${id}/accept`, { method: 'POST', cookie: s.ann.cookie }), { id })).status).toBe(403);
    expect((await call(acceptAction as Handler, request(`/api/trades/${id}/accept`, { method: 'POST', cookie: s.stranger.cookie }), { id })).status).toBe(404);
    expect((await call(tradeLoader as Handler, request(`/api/trades/${id}`, { cookie: s.stranger.cookie }), { id })).status).toBe(404);
    expect((await call(acceptAction as Handler, request(`/api/trades/${id}/accept`, { method: 'POST' }), { id })).status).toBe(401);

    const accepted = await call(acceptAction as Handler, request(`/api/trades/${id}/accept`, { method: 'POST', cookie: s.bob.cookie }), { id });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ status: 'accepted', canAnswer: false, canCancel: false });

    // Ann gave her only A (gone) and owns B (was wanted); Bob has one B left to trade and owns A
    expect(await entry(s.ann.user.id, s.a.id)).toBeNull();
    expect(await entry(s.ann.user.id, s.b.id)).toMatchObject({ status: 'owned', quantity: 1 });
    expect(await entry(s.bob.user.id, s.b.id)).toMatchObject({ status: 'trading', quantity: 1 });
    expect(await entry(s.bob.user.id, s.a.id)).toMatchObject({ status: 'owned', quantity: 1 });
    const annStats = await db().query.userStats.findFirst({ where: eq(userStats.userId, s.ann.user.id) });
    expect(annStats).toMatchObject({ pinsOwned: 1, pinsWanted: 0 });

    // answering again is a conflict and moves nothing
    expect((await call(acceptAction as Handler, request(`/api/trades/${id}/accept`, { method: 'POST', cookie: s.bob.cookie }), { id })).status).toBe(409);
    expect(await entry(s.bob.user.id, s.b.id)).toMatchObject({ quantity: 1 });
    const annBell = await call(notificationsLoader as Handler, request('/api/notifications', { cookie: s.ann.cookie }));
    expect(annBell.body.notifications[0]).toMatchObject({ type: 'trade_accepted' });
    expect((await call(notificationsAction as Handler, request('/api/notifications', { method: 'POST', cookie: s.ann.cookie }))).body).toEqual({ marked: 1 });
    const history = await call(tradesLoader as Handler, request('/api/trades?box=history', { cookie: s.ann.cookie }));
    expect(history.body.proposals[0]).toMatchObject({ id, status: 'accepted' });
  });

  it('refuses bad input with 4xx and writes nothing', async () => {
    const s = await scene();
    const post = (json: unknown, cookie = s.ann.cookie) => call(tradesAction as Handler, request('/api/trades', { method: 'POST', cookie, json }));
    expect((await post({ recipientId: s.bob.user.id, give: [s.a.id], receive: [s.b.id] }, '')).status).toBe(401);
    expect(await post({ recipientId: s.bob.user.id, give: [], receive: [s.b.id] })).toMatchObject({ status: 400, body: { error: 'Choose at least one of your pins to give' } });
    expect(await post({ recipientId: s.ann.user.id, give: [s.a.id], receive: [s.b.id] })).toMatchObject({ status: 400, body: { error: 'You cannot trade with yourself' } });
    expect(await post({ recipientId: 'nobody', give: [s.a.id], receive: [s.b.id] })).toMatchObject({ status: 400, body: { error: 'Collector not found' } });
    // B is not Ann's to give; C is not on Bob's trading list
    expect(await post({ recipientId: s.bob.user.id, give: [s.b.id], receive: [s.b.id] })).toMatchObject({ status: 400, body: { error: 'Some of these pins are not on your trading list' } });
    expect(await post({ recipientId: s.bob.user.id, give: [s.a.id], receive: [s.c.id] })).toMatchObject({ status: 400, body: { error: 'Some of these pins are not on their trading list' } });
    expect((await post({ recipientId: s.bob.user.id, give: [s.a.id], receive: [s.b.id], note: 'x'.repeat(501) })).status).toBe(400);
    const broken = await call(tradesAction as Handler, new Request('http://localhost/api/trades', { method: 'POST', headers: { Cookie: s.ann.cookie, 'Content-Type': 'application/json' }, body: '{nope' }));
    expect(broken.status).toBe(400);
    expect(await db().select().from(tradeProposals).where(eq(tradeProposals.proposerId, s.ann.user.id))).toHaveLength(0);
    expect(await db().select().from(notifications).where(eq(notifications.userId, s.bob.user.id))).toHaveLength(0);
    expect((await call(tradesLoader as Handler, request('/api/trades?box=nope', { cookie: s.ann.cookie }))).status).toBe(400);
  });

  it('takes a form-encoded proposal: repeated keys and name[] are lists of pins', async () => {
    const s = await scene();
    const d = await createPin({ name: 'Delta Pin' });
    await put(s.ann.user.id, d.id, 'trading');
    const form = (body: string, cookie = s.ann.cookie) =>
      call(tradesAction as Handler, new Request('http://localhost/api/trades', { method: 'POST', headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' }, body }));
    const twoPins = await form(`recipientId=${s.bob.user.id}&give=${s.a.id}&give=${d.id}&receive=${s.b.id}&note=From+a+form`);
    expect(twoPins.status).toBe(201);
    expect(twoPins.body.proposerGives.map((p: { id: string }) => p.id).sort()).toEqual([s.a.id, d.id].sort());
    expect(twoPins.body).toMatchObject({ note: 'From a form', recipientGives: [{ id: s.b.id }] });
    const brackets = await form(`recipientId=${s.bob.user.id}&give%5B%5D=${d.id}&receive[]=${s.b.id}`);
    expect(brackets.status).toBe(201);
    expect(brackets.body).toMatchObject({ proposerGives: [{ id: d.id }], recipientGives: [{ id: s.b.id }] });
    // bad input is still a 400 with the form's message
    expect(await form(`recipientId=${s.bob.user.id}&receive[]=${s.b.id}`)).toMatchObject({ status: 400, body: { error: 'Choose at least one of your pins to give' } });
    expect(await form(`recipientId=${s.bob.user.id}&recipientId=${s.cy.user.id}&give=${s.a.id}&receive=${s.b.id}`)).toMatchObject({ status: 400 });
  });

  it('declines, cancels and counters only while open, by the right side', async () => {
    const s = await scene();
    const propose = () => proposeTrade(s.ann.actor, { recipientId: s.bob.user.id, give: [s.a.id], receive: [s.b.id] });
    const one = await propose();
    expect((await call(declineAction as Handler, request(`/api/trades/${one.id}/decline`, { method: 'POST', cookie: s.ann.cookie }), { id: one.id })).status).toBe(403);
    expect((await call(declineAction as Handler, request(`/api/trades/${one.id}/decline`, { method: 'POST', cookie: s.bob.cookie }), { id: one.id })).body).toMatchObject({ status: 'declined' });
    expect((await call(cancelAction as Handler, request(`/api/trades/${one.id}/cancel`, { method: 'POST', cookie: s.ann.cookie }), { id: one.id })).status).toBe(409);

    const two = await propose();
    expect((await call(cancelAction as Handler, request(`/api/trades/${two.id}/cancel`, { method: 'POST', cookie: s.stranger.cookie }), { id: two.id })).status).toBe(404);
    expect((await call(cancelAction as Handler, request(`/api/trades/${two.id}/cancel`, { method: 'POST', cookie: s.bob.cookie }), { id: two.id })).body).toMatchObject({ status: 'cancelled' });

    const three = await propose();
    expect((await call(counterAction as Handler, request(`/api/trades/${three.id}/counter`, { method: 'POST', cookie: s.ann.cookie, json: { give: [s.a.id], receive: [s.b.id] } }), { id: three.id })).status).toBe(403);
    const countered = await call(counterAction as Handler, request(`/api/trades/${three.id}/counter`, { method: 'POST', cookie: s.bob.cookie, json: { give: [s.b.id], receive: [s.a.id], note: 'Two for one?' } }), { id: three.id });
    expect(countered.status).toBe(201);
    expect(countered.body).toMatchObject({ status: 'open', parentId: three.id, proposer: { id: s.bob.user.id }, recipient: { id: s.ann.user.id } });
    expect((await call(tradeLoader as Handler, request(`/api/trades/${three.id}`, { cookie: s.ann.cookie }), { id: three.id })).body.status).toBe('countered');
    // nothing moved by any of it
    expect(await entry(s.ann.user.id, s.a.id)).toMatchObject({ status: 'trading' });
  });

  it('expires after 14 days: it reads expired and cannot be accepted', async () => {
    const s = await scene();
    const start = new Date('2026-01-01T12:00:00Z');
    const p = await proposeTrade(s.ann.actor, { recipientId: s.bob.user.id, give: [s.a.id], receive: [s.b.id] }, { now: start });
    const later = new Date(start.getTime() + TRADE_EXPIRY_MS + 1000);
    await expect(acceptTrade(s.bob.actor, p.id, { now: later })).rejects.toMatchObject({ status: 409, message: 'This trade proposal has expired' });
    expect(await entry(s.ann.user.id, s.a.id)).toMatchObject({ status: 'trading' });
  });

  it('tells the one who accepts of the daily challenge the pins received completed', async () => {
    // a day far from today whose set asks for one pin added to the collection
    const { noon, rule: addition } = dayWith('add_to_collection', { from: '2031-03-01', target: 1 });
    const s = await scene();
    const p = await proposeTrade(s.ann.actor, { recipientId: s.bob.user.id, give: [s.a.id], receive: [s.b.id] }, { now: noon });
    const accepted = await acceptTrade(s.bob.actor, p.id, { now: new Date(noon.getTime() + 3_600_000) });
    expect(accepted.completedChallenges).toContainEqual(expect.objectContaining({ name: addition.name, reward: addition.reward }));
    expect(badgeToasts(accepted.newlyUnlockedBadges, accepted.completedChallenges)).toContainEqual({
      title: 'Challenge Complete!',
      description: `"${addition.name}" is done: +${addition.reward} points.`,
      variant: 'success',
    });
  });

  it('an accept racing a cancel: exactly one wins and the pins move at most once', async () => {
    for (let round = 0; round < 5; round++) {
      const s = await scene();
      const p = await proposeTrade(s.ann.actor, { recipientId: s.bob.user.id, give: [s.a.id], receive: [s.b.id] });
      const results = await Promise.allSettled([acceptTrade(s.bob.actor, p.id), cancelTrade(s.ann.actor, p.id), acceptTrade(s.bob.actor, p.id)]);
      const won = results.filter((r) => r.status === 'fulfilled');
      expect(won).toHaveLength(1);
      for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ status: 409 });
      const row = await db().query.tradeProposals.findFirst({ where: eq(tradeProposals.id, p.id) });
      const bobB = await entry(s.bob.user.id, s.b.id);
      if (row?.status === 'accepted') {
        expect(bobB).toMatchObject({ quantity: 1 });
        expect(await entry(s.bob.user.id, s.a.id)).toMatchObject({ status: 'owned', quantity: 1 });
      } else {
        expect(row?.status).toBe('cancelled');
        expect(bobB).toMatchObject({ quantity: 2 });
        expect(await entry(s.ann.user.id, s.a.id)).toMatchObject({ status: 'trading' });
      }
    }
  });
});

describe('reputation', () => {
  it('the parties of a completed trade rate each other once; the profile shows trades, lists and rating', async () => {
    const s = await scene();
    const nick = `ann${Date.now()}`;
    await db().update(users).set({ nickname: nick }).where(eq(users.id, s.ann.user.id));
    const open = await proposeTrade(s.ann.actor, { recipientId: s.bob.user.id, give: [s.a.id], receive: [s.b.id] });
    const rate = (id: string, cookie: string, json: unknown) => call(ratingAction as Handler, request(`/api/trades/${id}/rating`, { method: 'POST', cookie, json }), { id });
    expect((await rate(open.id, s.bob.cookie, { score: 5 })).status).toBe(409);
    await acceptTrade(s.bob.actor, open.id);
    expect((await rate(open.id, '', { score: 5 })).status).toBe(401);
    expect((await rate(open.id, s.stranger.cookie, { score: 5 })).status).toBe(404);
    expect(await rate(open.id, s.bob.cookie, { score: 9 })).toMatchObject({ status: 400, body: { error: 'Choose a rating from 1 to 5' } });
    expect((await rate(open.id, s.bob.cookie, { score: 4 })).status).toBe(201);
    expect(await rate(open.id, s.bob.cookie, { score: 5 })).toMatchObject({ status: 409, body: { error: 'You have already rated this trade' } });

    const profile = await getPublicProfile(null, nick.toUpperCase());
    expect(profile).toMatchObject({ completedTrades: 1, rating: { average: 4, count: 1 }, trading: [], wanted: [], isMe: false });
    await expect(getPublicProfile(null, 'no-such-collector')).rejects.toMatchObject({ status: 404 });
  });
});
