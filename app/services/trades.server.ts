/**
 * Trading: matches between collectors' lists, proposals and their answers, and the notices each
 * side gets.
 *
 * - A match is another collector who has in trading a pin I want, or wants a pin I have in
 *   trading. Two-way matches (pins go both ways) come first, then by how many pins go each way.
 *   One grouped query over user_collections(status, pin_id, user_id), an index it reads alone.
 * - A proposal names the pins each side gives. Its status leaves 'open' only through a
 *   conditional UPDATE (WHERE status = 'open' AND expires_at > now) whose changed-row count is
 *   checked before anything else happens: an accept and a cancel racing each other (two requests,
 *   two processes on a libSQL server) cannot both win, so pins never move twice.
 * - Acceptance moves both collections in that same transaction through addCollectionEntry (the
 *   path every collection change takes: counts, activity day, badges); the giver's entry loses a
 *   copy, or leaves the trading list when it was the last one.
 * - An open proposal older than 14 days reads as expired (computed on read; no sweeper needed).
 */
import { and, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import {
  assertCanCancelTrade,
  assertCanProposeTrade,
  assertCanRespondToTrade,
  assertCanViewTrade,
  assertSignedIn,
  canCancelTrade,
  canRespondToTrade,
  type Actor,
} from '~/auth/permissions';
import { db, prepared, transaction, type Db } from '~/db/index.server';
import {
  notifications,
  pins,
  tradeProposalItems,
  tradeProposals,
  tradeRatings,
  userCollections,
  users,
  type NotificationType,
  type TradeProposal,
  type TradeStatus,
} from '~/db/schema';
import type { NotificationDto, TradeMatch, TradePin, TradeProposalDto, TraderSummary } from '~/types/trades';
import type { CompletedChallenge } from '~/types/achievements';
import { proposeTradeSchema, rateTradeSchema, TRADE_EXPIRY_DAYS } from '~/forms/trades';
import { paginate, type Paging } from '~/utils/paging';
import { displayName } from '~/utils/user';
import { parseWith } from '~/utils/validation';
import { evaluateBadges, refreshCollectionCounts, type UnlockedBadge } from './achievements.server';
import { ensureAchievementsOnce } from './achievement-definitions.server';
import { addCollectionEntry } from './collection.server';
import { Conflict, Invalid, NotFound } from './errors';
import { imageUrl } from './images.server';

const DAY_MS = 24 * 60 * 60 * 1000;
export const TRADE_EXPIRY_MS = TRADE_EXPIRY_DAYS * DAY_MS;

export type { NotificationDto, TradeMatch, TradePin, TradeProposalDto, TraderSummary };

const traderOf = (u: { id: string; nickname: string | null; firstName: string | null; lastName: string | null; email: string }): TraderSummary => ({
  id: u.id,
  name: displayName(u),
  nickname: u.nickname,
});

function pinOf(p: { id: string; name: string; images: string[]; primaryPhotoIndex: number; rarity: string }): TradePin {
  const primary = p.images[p.primaryPhotoIndex] ?? p.images[0];
  return { id: p.id, name: p.name, thumbnail: primary ? imageUrl(primary, 'thumb') : null, rarity: p.rarity };
}

async function loadPins(conn: Db, ids: string[]): Promise<Map<string, TradePin>> {
  if (!ids.length) return new Map();
  const rows = await conn
    .select({ id: pins.id, name: pins.name, images: pins.images, primaryPhotoIndex: pins.primaryPhotoIndex, rarity: pins.rarity })
    .from(pins)
    .where(inArray(pins.id, [...new Set(ids)]));
  return new Map(rows.map((r) => [r.id, pinOf(r)]));
}

async function loadTraders(conn: Db, ids: string[]): Promise<Map<string, TraderSummary>> {
  if (!ids.length) return new Map();
  const rows = await conn
    .select({ id: users.id, nickname: users.nickname, firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(users)
    .where(inArray(users.id, [...new Set(ids)]));
  return new Map(rows.map((r) => [r.id, traderOf(r)]));
}

// ---------------------------------------------------------------- matches

/**
 * The pairs (other user, pin, direction) between `userId`'s lists and everyone else's:
 * 'receive' = they trade a pin I want; 'give' = they want a pin I trade. CROSS JOIN keeps my own
 * (few) entries as the outer loop: without table statistics SQLite otherwise scans every trading
 * row first (measured 44 ms -> see tests/bench/trade-matches.ts).
 */
function pairsSql(userId: string, only?: string[]) {
  const onlyClause = only?.length ? sql` and uc.user_id in (${sql.join(only.map((id) => sql`${id}`), sql`, `)})` : sql``;
  return sql`
    select uc.user_id as user_id, uc.pin_id as pin_id, 'receive' as dir
      from user_collections mine
      cross join user_collections uc on uc.status = 'trading' and uc.pin_id = mine.pin_id and uc.user_id <> mine.user_id${onlyClause}
     where mine.user_id = ${userId} and mine.status = 'wanted'
    union all
    select uc.user_id, uc.pin_id, 'give'
      from user_collections mine
      cross join user_collections uc on uc.status = 'wanted' and uc.pin_id = mine.pin_id and uc.user_id <> mine.user_id${onlyClause}
     where mine.user_id = ${userId} and mine.status = 'trading'`;
}

/** The ranked partners (ids and counts) of one page; the benchmark times this query. */
export async function matchPartners(userId: string, page = 1, size = 20): Promise<{ total: number; rows: { userId: string; give: number; receive: number }[] }> {
  const grouped = sql`
    select p.user_id as user_id, sum(p.dir = 'give') as give, sum(p.dir = 'receive') as receive
      from (${pairsSql(userId)}) p
      join users u on u.id = p.user_id and u.deleted_at is null
     group by p.user_id`;
  const rows = await db().all<{ user_id: string; give: number; receive: number; total: number }>(sql`
    select g.user_id, g.give, g.receive, count(*) over () as total
      from (${grouped}) g
     order by (g.give > 0 and g.receive > 0) desc, min(g.give, g.receive) desc, g.give + g.receive desc, g.user_id
     limit ${size} offset ${(page - 1) * size}`);
  let total = Number(rows[0]?.total ?? 0);
  if (!rows.length && page > 1) {
    const [row] = await db().all<{ n: number }>(sql`select count(*) as n from (${grouped})`);
    total = Number(row?.n ?? 0);
  }
  return { total, rows: rows.map((r) => ({ userId: r.user_id, give: Number(r.give), receive: Number(r.receive) })) };
}

/** GET /trades, /api/trades/matches: the signed-in collector's matches, ranked, with pins each side. */
export async function listTradeMatches(
  actor: Actor | null,
  opts: { page?: number; size?: number } = {},
): Promise<{ matches: TradeMatch[]; paging: Paging }> {
  assertSignedIn(actor, 'Please sign in to trade');
  const size = Math.min(50, Math.max(1, opts.size ?? 20));
  const page = Math.max(1, opts.page ?? 1);
  const { total, rows } = await matchPartners(actor.id, page, size);
  const ids = rows.map((r) => r.userId);
  const pairs = ids.length ? await db().all<{ user_id: string; pin_id: string; dir: 'give' | 'receive' }>(pairsSql(actor.id, ids)) : [];
  const [pinMap, traders] = await Promise.all([loadPins(db(), pairs.map((p) => p.pin_id)), loadTraders(db(), ids)]);
  const byName = (a: TradePin, b: TradePin) => a.name.localeCompare(b.name);
  const matches = rows.flatMap((r) => {
    const user = traders.get(r.userId);
    if (!user) return [];
    const side = (dir: 'give' | 'receive') =>
      pairs
        .filter((p) => p.user_id === r.userId && p.dir === dir)
        .flatMap((p) => pinMap.get(p.pin_id) ?? [])
        .sort(byName);
    return [{ user, give: side('give'), receive: side('receive'), twoWay: r.give > 0 && r.receive > 0 }];
  });
  return { matches, paging: paginate({ total, page, size }) };
}

/** Pin detail: how many collectors have the pin in trading, and how many want it. */
const pinTradeCountsQuery = prepared((conn) =>
  conn
    .select({ status: userCollections.status, n: sql<number>`count(*)` })
    .from(userCollections)
    .where(and(eq(userCollections.pinId, sql.placeholder('pinId')), inArray(userCollections.status, ['trading', 'wanted'])))
    .groupBy(userCollections.status)
    .prepare(),
);

export async function pinTradeCounts(pinId: string): Promise<{ trading: number; wanted: number }> {
  const rows = await pinTradeCountsQuery().all({ pinId });
  const by = Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
  return { trading: by.trading ?? 0, wanted: by.wanted ?? 0 };
}

// ---------------------------------------------------------------- the form's choices

/** A user's trading list as pins (the proposal form's two checkbox groups). */
async function tradingPins(conn: Db, userId: string): Promise<TradePin[]> {
  const rows = await conn
    .select({ id: pins.id, name: pins.name, images: pins.images, primaryPhotoIndex: pins.primaryPhotoIndex, rarity: pins.rarity })
    .from(userCollections)
    .innerJoin(pins, eq(pins.id, userCollections.pinId))
    .where(and(eq(userCollections.userId, userId), eq(userCollections.status, 'trading')))
    .orderBy(pins.name);
  return rows.map(pinOf);
}

async function wantedPinIds(conn: Db, userId: string): Promise<Set<string>> {
  const rows = await conn
    .select({ pinId: userCollections.pinId })
    .from(userCollections)
    .where(and(eq(userCollections.userId, userId), eq(userCollections.status, 'wanted')));
  return new Set(rows.map((r) => r.pinId));
}

export interface ProposalFormData {
  partner: TraderSummary;
  /** my trading pins, and which of them the partner wants (pre-checked) */
  mine: (TradePin & { wanted: boolean })[];
  /** the partner's trading pins, and which of them I want (pre-checked) */
  theirs: (TradePin & { wanted: boolean })[];
  /** a counter-offer: the proposal it answers */
  counterTo: TradeProposalDto | null;
}

/**
 * /trades/new?with={user id or nickname}[&counter={proposal id}]: both trading lists for the form.
 * A counter-offer pre-checks the original's pins the other way round.
 */
export async function getProposalForm(actor: Actor | null, input: { with?: string | null; counter?: string | null }): Promise<ProposalFormData> {
  assertSignedIn(actor, 'Please sign in to trade');
  let counterTo: TradeProposalDto | null = null;
  let partnerId = input.with?.trim() ?? '';
  if (input.counter) {
    counterTo = await getTradeProposal(actor, input.counter);
    if (!counterTo.canAnswer) throw new Conflict('This proposal can no longer be countered');
    partnerId = counterTo.proposer.id;
  }
  if (!partnerId) throw new NotFound('Collector not found');
  const partnerRow = await db().query.users.findFirst({
    where: and(or(eq(users.id, partnerId), sql`lower(${users.nickname}) = lower(${partnerId})`), isNull(users.deletedAt)),
  });
  if (!partnerRow) throw new NotFound('Collector not found');
  assertCanProposeTrade(actor, partnerRow.id);
  const [mine, theirs, iWant, theyWant] = await Promise.all([
    tradingPins(db(), actor.id),
    tradingPins(db(), partnerRow.id),
    wantedPinIds(db(), actor.id),
    wantedPinIds(db(), partnerRow.id),
  ]);
  const giveChecked = counterTo ? new Set(counterTo.recipientGives.map((p) => p.id)) : theyWant;
  const receiveChecked = counterTo ? new Set(counterTo.proposerGives.map((p) => p.id)) : iWant;
  return {
    partner: traderOf(partnerRow),
    mine: mine.map((p) => ({ ...p, wanted: giveChecked.has(p.id) })),
    theirs: theirs.map((p) => ({ ...p, wanted: receiveChecked.has(p.id) })),
    counterTo,
  };
}

// ---------------------------------------------------------------- proposals

async function notify(tx: Db, userId: string, type: NotificationType, message: string, link: string | null) {
  await tx.insert(notifications).values({ userId, type, message, link });
}

/** Ids among `pinIds` that `userId` does not have in the trading list. */
async function missingFromTrading(tx: Db, userId: string, pinIds: string[]): Promise<string[]> {
  if (!pinIds.length) return [];
  const rows = await tx
    .select({ pinId: userCollections.pinId })
    .from(userCollections)
    .where(and(eq(userCollections.userId, userId), eq(userCollections.status, 'trading'), inArray(userCollections.pinId, pinIds)));
  const have = new Set(rows.map((r) => r.pinId));
  return pinIds.filter((id) => !have.has(id));
}

async function nameOf(tx: Db, userId: string): Promise<string> {
  const row = await tx.query.users.findFirst({ where: eq(users.id, userId) });
  return row ? displayName(row) : 'A collector';
}

/**
 * POST /trades/new, POST /api/trades: proposes my `give` pins for their `receive` pins, with a
 * note. Each pin must be on its giver's trading list now. With `counterTo`, the actor answers an
 * open proposal made to them: it becomes 'countered' and this one opens in its place (one
 * transaction; a proposal already answered is 409).
 */
export async function proposeTrade(actor: Actor | null, input: unknown, opts: { now?: Date } = {}): Promise<TradeProposalDto> {
  assertSignedIn(actor, 'Please sign in to trade');
  const data = parseWith(proposeTradeSchema, input);
  assertCanProposeTrade(actor, data.recipientId);
  const now = opts.now ?? new Date();
  const recipient = await db().query.users.findFirst({ where: and(eq(users.id, data.recipientId), isNull(users.deletedAt)) });
  if (!recipient) throw new Invalid('Collector not found', { recipientId: ['Collector not found'] });

  const id = await transaction(async (tx) => {
    if (data.counterTo) {
      const parent = await tx.query.tradeProposals.findFirst({ where: eq(tradeProposals.id, data.counterTo) });
      if (!parent) throw new NotFound('Trade proposal not found');
      assertCanRespondToTrade(actor, parent);
      if (parent.proposerId !== data.recipientId) throw new Invalid('A counter-offer goes back to the collector who proposed the trade', { recipientId: ['A counter-offer goes back to the collector who proposed the trade'] });
      await closeOpen(tx, parent, 'countered', actor.id, now);
    }
    const myMissing = await missingFromTrading(tx, actor.id, data.give);
    if (myMissing.length) throw new Invalid('Some of these pins are not on your trading list', { give: ['Some of these pins are not on your trading list'] });
    const theirMissing = await missingFromTrading(tx, recipient.id, data.receive);
    if (theirMissing.length) throw new Invalid('Some of these pins are not on their trading list', { receive: ['Some of these pins are not on their trading list'] });
    const [row] = await tx
      .insert(tradeProposals)
      .values({
        proposerId: actor.id,
        recipientId: recipient.id,
        note: data.note ?? null,
        parentId: data.counterTo ?? null,
        expiresAt: new Date(now.getTime() + TRADE_EXPIRY_MS),
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: tradeProposals.id });
    await tx.insert(tradeProposalItems).values([
      ...data.give.map((pinId) => ({ proposalId: row.id, giverId: actor.id, pinId })),
      ...data.receive.map((pinId) => ({ proposalId: row.id, giverId: recipient.id, pinId })),
    ]);
    const who = await nameOf(tx, actor.id);
    await notify(
      tx,
      recipient.id,
      data.counterTo ? 'trade_countered' : 'trade_proposed',
      data.counterTo ? `${who} made a counter-offer` : `${who} proposed a trade`,
      `/trades?tab=incoming#trade-${row.id}`,
    );
    return row.id;
  });
  return getTradeProposal(actor, id, { now });
}

/** POST /api/trades/{id}/counter: a counter-offer to the proposal's proposer (see proposeTrade). */
export async function counterTrade(actor: Actor | null, id: string, input: unknown, opts: { now?: Date } = {}): Promise<TradeProposalDto> {
  assertSignedIn(actor, 'Please sign in to trade');
  const parent = await findProposal(db(), id);
  assertCanRespondToTrade(actor, parent);
  const body = input && typeof input === 'object' ? input : {};
  return proposeTrade(actor, { ...body, recipientId: parent.proposerId, counterTo: id }, opts);
}

/**
 * Moves `proposal` out of open, or throws: the one guard every answer goes through. The UPDATE
 * changes a row only while it is still open and unexpired, so of two racing answers one changes it
 * and the other gets 409.
 */
async function closeOpen(tx: Db, proposal: TradeProposal, status: Exclude<TradeStatus, 'open' | 'expired'>, by: string, now: Date) {
  const changed = await tx
    .update(tradeProposals)
    .set({ status, closedAt: now, closedBy: by, updatedAt: now })
    .where(and(eq(tradeProposals.id, proposal.id), eq(tradeProposals.status, 'open'), sql`${tradeProposals.expiresAt} > ${now.getTime()}`))
    .returning({ id: tradeProposals.id });
  if (changed.length !== 1) {
    const expired = proposal.status === 'open' && proposal.expiresAt.getTime() <= now.getTime();
    throw new Conflict(expired ? 'This trade proposal has expired' : 'This trade proposal is no longer open');
  }
}

async function findProposal(tx: Db, id: string): Promise<TradeProposal> {
  const row = await tx.query.tradeProposals.findFirst({ where: eq(tradeProposals.id, id) });
  if (!row) throw new NotFound('Trade proposal not found');
  return row;
}

/** Gives one copy of `pinId` from `giverId` to `takerId` (inside the accept transaction). */
async function movePin(tx: Db, giverId: string, takerId: string, pinId: string, now: Date): Promise<{ badges: UnlockedBadge[]; challenges: CompletedChallenge[] }> {
  const entry = await tx.query.userCollections.findFirst({
    where: and(eq(userCollections.userId, giverId), eq(userCollections.pinId, pinId), eq(userCollections.status, 'trading')),
  });
  if (!entry) throw new Conflict('Some pins in this trade are no longer up for trade');
  if (entry.quantity > 1) {
    await tx.update(userCollections).set({ quantity: entry.quantity - 1, updatedAt: now }).where(eq(userCollections.id, entry.id));
  } else {
    await tx.delete(userCollections).where(eq(userCollections.id, entry.id));
  }
  const takers = await tx.query.userCollections.findFirst({ where: and(eq(userCollections.userId, takerId), eq(userCollections.pinId, pinId)) });
  // a pin the taker also trades stays on the trading list with one more copy; otherwise it is owned
  const status = takers?.status === 'trading' ? 'trading' : 'owned';
  const added = await addCollectionEntry(tx, takerId, { pinId, status, quantity: 1, condition: entry.condition, tradeable: status === 'trading' }, { now });
  return { badges: added.newlyUnlockedBadges, challenges: added.completedChallenges };
}

/**
 * The recipient accepts: in one transaction the proposal leaves open (guarded), each pin moves to
 * its new owner, both sides' counts and badges are updated and the proposer is told.
 */
export async function acceptTrade(
  actor: Actor | null,
  id: string,
  opts: { now?: Date } = {},
): Promise<{ trade: TradeProposalDto; newlyUnlockedBadges: UnlockedBadge[]; completedChallenges: CompletedChallenge[] }> {
  assertSignedIn(actor, 'Please sign in to trade');
  await ensureAchievementsOnce();
  const now = opts.now ?? new Date();
  const rewards = await transaction(async (tx) => {
    const proposal = await findProposal(tx, id);
    assertCanRespondToTrade(actor, proposal);
    await closeOpen(tx, proposal, 'accepted', actor.id, now);
    const items = await tx.select().from(tradeProposalItems).where(eq(tradeProposalItems.proposalId, id));
    const unlocked: UnlockedBadge[] = [];
    const completed: CompletedChallenge[] = [];
    for (const item of items) {
      const taker = item.giverId === proposal.proposerId ? proposal.recipientId : proposal.proposerId;
      const got = await movePin(tx, item.giverId, taker, item.pinId, now);
      if (taker !== actor.id) continue;
      unlocked.push(...got.badges);
      completed.push(...got.challenges);
    }
    // the givers' counts and badges (the takers' were done by addCollectionEntry)
    for (const userId of [proposal.proposerId, proposal.recipientId]) {
      await refreshCollectionCounts(tx, userId);
      const more = await evaluateBadges(tx, userId, { now });
      if (userId === actor.id) unlocked.push(...more);
    }
    await notify(tx, proposal.proposerId, 'trade_accepted', `${await nameOf(tx, actor.id)} accepted your trade`, `/trades?tab=history#trade-${id}`);
    return { badges: unlocked, challenges: completed };
  });
  return { trade: await getTradeProposal(actor, id, { now }), newlyUnlockedBadges: rewards.badges, completedChallenges: rewards.challenges };
}

/** The recipient declines an open proposal; the proposer is told. */
export async function declineTrade(actor: Actor | null, id: string, opts: { now?: Date } = {}): Promise<TradeProposalDto> {
  assertSignedIn(actor, 'Please sign in to trade');
  const now = opts.now ?? new Date();
  await transaction(async (tx) => {
    const proposal = await findProposal(tx, id);
    assertCanRespondToTrade(actor, proposal);
    await closeOpen(tx, proposal, 'declined', actor.id, now);
    await notify(tx, proposal.proposerId, 'trade_declined', `${await nameOf(tx, actor.id)} declined your trade`, `/trades?tab=history#trade-${id}`);
  });
  return getTradeProposal(actor, id, { now });
}

/** Either party cancels an open proposal; the other is told. */
export async function cancelTrade(actor: Actor | null, id: string, opts: { now?: Date } = {}): Promise<TradeProposalDto> {
  assertSignedIn(actor, 'Please sign in to trade');
  const now = opts.now ?? new Date();
  await transaction(async (tx) => {
    const proposal = await findProposal(tx, id);
    assertCanCancelTrade(actor, proposal);
    await closeOpen(tx, proposal, 'cancelled', actor.id, now);
    const other = actor.id === proposal.proposerId ? proposal.recipientId : proposal.proposerId;
    await notify(tx, other, 'trade_cancelled', `${await nameOf(tx, actor.id)} cancelled a trade`, `/trades?tab=history#trade-${id}`);
  });
  return getTradeProposal(actor, id, { now });
}

// ---------------------------------------------------------------- reads

export const effectiveStatus = (p: Pick<TradeProposal, 'status' | 'expiresAt'>, now: Date): TradeStatus =>
  p.status === 'open' && p.expiresAt.getTime() <= now.getTime() ? 'expired' : p.status;

async function toDtos(actor: Actor, rows: TradeProposal[], now: Date): Promise<TradeProposalDto[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const items = await db().select().from(tradeProposalItems).where(inArray(tradeProposalItems.proposalId, ids));
  const [pinMap, traders] = await Promise.all([
    loadPins(db(), items.map((i) => i.pinId)),
    loadTraders(db(), rows.flatMap((r) => [r.proposerId, r.recipientId])),
  ]);
  const unknown: TraderSummary = { id: '', name: 'Deleted account', nickname: null };
  return rows.map((r) => {
    const status = effectiveStatus(r, now);
    const side = (giverId: string) =>
      items
        .filter((i) => i.proposalId === r.id && i.giverId === giverId)
        .flatMap((i) => pinMap.get(i.pinId) ?? [])
        .sort((a, b) => a.name.localeCompare(b.name));
    return {
      id: r.id,
      status,
      proposer: traders.get(r.proposerId) ?? unknown,
      recipient: traders.get(r.recipientId) ?? unknown,
      proposerGives: side(r.proposerId),
      recipientGives: side(r.recipientId),
      note: r.note,
      parentId: r.parentId,
      createdAt: r.createdAt.toISOString(),
      expiresAt: r.expiresAt.toISOString(),
      closedAt: r.closedAt ? r.closedAt.toISOString() : null,
      canAnswer: status === 'open' && canRespondToTrade(actor, r),
      canCancel: status === 'open' && canCancelTrade(actor, r),
    };
  });
}

/** One proposal: its two parties and admins; anyone else 404. */
export async function getTradeProposal(actor: Actor | null, id: string, opts: { now?: Date } = {}): Promise<TradeProposalDto> {
  assertSignedIn(actor, 'Please sign in to trade');
  const row = await findProposal(db(), id);
  assertCanViewTrade(actor, row);
  const [dto] = await toDtos(actor, [row], opts.now ?? new Date());
  return dto;
}

export type ProposalBox = 'incoming' | 'outgoing' | 'history';
export const PROPOSAL_BOXES: readonly ProposalBox[] = ['incoming', 'outgoing', 'history'];

/**
 * The actor's proposals: incoming and outgoing are the open ones (newest first); history is every
 * closed or expired one, either side.
 */
export async function listTradeProposals(
  actor: Actor | null,
  box: ProposalBox,
  opts: { page?: number; size?: number; now?: Date } = {},
): Promise<{ proposals: TradeProposalDto[]; paging: Paging }> {
  assertSignedIn(actor, 'Please sign in to trade');
  const now = opts.now ?? new Date();
  const size = Math.min(50, Math.max(1, opts.size ?? 20));
  const page = Math.max(1, opts.page ?? 1);
  const live = and(eq(tradeProposals.status, 'open'), sql`${tradeProposals.expiresAt} > ${now.getTime()}`);
  const where =
    box === 'incoming'
      ? and(eq(tradeProposals.recipientId, actor.id), live)
      : box === 'outgoing'
        ? and(eq(tradeProposals.proposerId, actor.id), live)
        : and(or(eq(tradeProposals.proposerId, actor.id), eq(tradeProposals.recipientId, actor.id)), sql`not (${live})`);
  const [{ n }] = await db().select({ n: sql<number>`count(*)` }).from(tradeProposals).where(where);
  const rows = await db()
    .select()
    .from(tradeProposals)
    .where(where)
    .orderBy(desc(tradeProposals.updatedAt), desc(tradeProposals.id))
    .limit(size)
    .offset((page - 1) * size);
  return { proposals: await toDtos(actor, rows, now), paging: paginate({ total: Number(n), page, size }) };
}

/** Counts for the tabs of /trades. */
export async function countTradeProposals(actor: Actor, opts: { now?: Date } = {}): Promise<{ incoming: number; outgoing: number }> {
  const now = (opts.now ?? new Date()).getTime();
  const [row] = await db()
    .select({
      incoming: sql<number>`coalesce(sum(case when ${tradeProposals.recipientId} = ${actor.id} then 1 else 0 end), 0)`,
      outgoing: sql<number>`coalesce(sum(case when ${tradeProposals.proposerId} = ${actor.id} then 1 else 0 end), 0)`,
    })
    .from(tradeProposals)
    .where(and(eq(tradeProposals.status, 'open'), sql`${tradeProposals.expiresAt} > ${now}`, or(eq(tradeProposals.proposerId, actor.id), eq(tradeProposals.recipientId, actor.id))));
  return { incoming: Number(row?.incoming ?? 0), outgoing: Number(row?.outgoing ?? 0) };
}

/** Completed trades of a user (profile pages). */
export async function countCompletedTrades(userId: string): Promise<number> {
  const [row] = await db()
    .select({ n: sql<number>`count(*)` })
    .from(tradeProposals)
    .where(and(eq(tradeProposals.status, 'accepted'), or(eq(tradeProposals.proposerId, userId), eq(tradeProposals.recipientId, userId))));
  return Number(row?.n ?? 0);
}

// ---------------------------------------------------------------- notifications

// the navigation bar's count, on every signed-in page: built and prepared once
const unreadCountQuery = prepared((conn) =>
  conn
    .select({ n: sql<number>`count(*)` })
    .from(notifications)
    .where(and(eq(notifications.userId, sql.placeholder('userId')), isNull(notifications.readAt)))
    .prepare(),
);

export async function unreadNotificationCount(userId: string): Promise<number> {
  const row = await unreadCountQuery().get({ userId });
  return Number(row?.n ?? 0);
}

/** The actor's notices, newest first (at most `limit`), and how many are unread. */
export async function listNotifications(actor: Actor | null, opts: { limit?: number } = {}): Promise<{ unread: number; notifications: NotificationDto[] }> {
  assertSignedIn(actor);
  const rows = await db()
    .select()
    .from(notifications)
    .where(eq(notifications.userId, actor.id))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(Math.min(100, opts.limit ?? 20));
  return {
    unread: await unreadNotificationCount(actor.id),
    notifications: rows.map((r) => ({ id: r.id, type: r.type, message: r.message, link: r.link, read: r.readAt != null, createdAt: r.createdAt.toISOString() })),
  };
}

/** Marks all of the actor's notices read; returns how many changed. */
export async function markNotificationsRead(actor: Actor | null, opts: { now?: Date } = {}): Promise<{ marked: number }> {
  assertSignedIn(actor);
  const changed = await db()
    .update(notifications)
    .set({ readAt: opts.now ?? new Date() })
    .where(and(eq(notifications.userId, actor.id), isNull(notifications.readAt)))
    .returning({ id: notifications.id });
  return { marked: changed.length };
}

// ---------------------------------------------------------------- reputation

/**
 * After a completed (accepted) trade each party may rate the other once, 1-5 with an optional
 * comment (unique per trade and rater: a second rating is 409).
 */
export async function rateTrade(actor: Actor | null, id: string, input: unknown): Promise<{ proposalId: string; score: number }> {
  assertSignedIn(actor, 'Please sign in to trade');
  const data = parseWith(rateTradeSchema, input);
  const proposal = await findProposal(db(), id);
  assertCanCancelTrade(actor, proposal); // 404 for strangers, 403 for a non-party admin: the parties only
  if (proposal.status !== 'accepted') throw new Conflict('Only a completed trade can be rated');
  const rateeId = actor.id === proposal.proposerId ? proposal.recipientId : proposal.proposerId;
  const inserted = await db()
    .insert(tradeRatings)
    .values({ proposalId: id, raterId: actor.id, rateeId, score: data.score, comment: data.comment ?? null })
    .onConflictDoNothing()
    .returning({ id: tradeRatings.id });
  if (!inserted.length) throw new Conflict('You have already rated this trade');
  return { proposalId: id, score: data.score };
}

/** The trades (ids) of `proposalIds` the actor has already rated. */
export async function ratedTradeIds(actorId: string, proposalIds: string[]): Promise<string[]> {
  if (!proposalIds.length) return [];
  const rows = await db()
    .select({ id: tradeRatings.proposalId })
    .from(tradeRatings)
    .where(and(eq(tradeRatings.raterId, actorId), inArray(tradeRatings.proposalId, proposalIds)));
  return rows.map((r) => r.id);
}

export interface PublicProfile {
  user: TraderSummary & { memberSince: string };
  trading: TradePin[];
  wanted: TradePin[];
  completedTrades: number;
  rating: { average: number | null; count: number };
  isMe: boolean;
}

/**
 * /u/{nickname}: a collector's public page, open to everyone: their trading and wanted lists (what
 * others need to trade with them), completed trades and the rating partners left. Deleted
 * accounts and unknown nicknames are 404.
 */
export async function getPublicProfile(viewer: Actor | null, nickname: string): Promise<PublicProfile> {
  const row = await db().query.users.findFirst({ where: and(sql`lower(${users.nickname}) = lower(${nickname})`, isNull(users.deletedAt)) });
  if (!row) throw new NotFound('Collector not found');
  const listOf = async (status: 'trading' | 'wanted') => {
    const rows = await db()
      .select({ id: pins.id, name: pins.name, images: pins.images, primaryPhotoIndex: pins.primaryPhotoIndex, rarity: pins.rarity })
      .from(userCollections)
      .innerJoin(pins, eq(pins.id, userCollections.pinId))
      .where(and(eq(userCollections.userId, row.id), eq(userCollections.status, status)))
      .orderBy(pins.name)
      .limit(100);
    return rows.map(pinOf);
  };
  const [trading, wanted, completedTrades, [rating]] = await Promise.all([
    listOf('trading'),
    listOf('wanted'),
    countCompletedTrades(row.id),
    db().select({ avg: sql<number | null>`avg(${tradeRatings.score})`, n: sql<number>`count(*)` }).from(tradeRatings).where(eq(tradeRatings.rateeId, row.id)),
  ]);
  return {
    user: { ...traderOf(row), memberSince: row.createdAt.toISOString() },
    trading,
    wanted,
    completedTrades,
    rating: { average: rating?.avg == null ? null : Math.round(Number(rating.avg) * 10) / 10, count: Number(rating?.n ?? 0) },
    isMe: viewer?.id === row.id,
  };
}
