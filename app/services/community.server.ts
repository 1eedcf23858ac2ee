/**
 * Comments and reactions on pin pages.
 *
 * - Comments are 1-1,000 characters of plain text (pages render them as text, never as HTML); the
 *   author edits and deletes their own, admins delete any. Writing is rate limited per user.
 * - Reactions (like, favorite, want) are toggles: one of each type per user and pin (unique index).
 *   Reacting 'want' also puts the pin on the wanted list when it is not in the collection yet
 *   (through addCollectionEntry, so counts and badges follow); a pin already owned or traded stays
 *   as it is, and taking the reaction back leaves the list alone.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import { assertCanDeleteComment, assertCanEditComment, assertSignedIn, canDeleteComment, canEditComment, type Actor } from '~/auth/permissions';
import { db, prepared, transaction } from '~/db/index.server';
import { pinComments, pinReactions, pins, userCollections, users } from '~/db/schema';
import { commentSchema, reactionSchema } from '~/forms/community';
import type { PinCommentDto, PinReactionsDto } from '~/types/community';
import { REACTION_TYPES, type ReactionType } from '~/utils/constants';
import { displayName } from '~/utils/user';
import { parseWith } from '~/utils/validation';
import { ensureAchievementsOnce } from './achievement-definitions.server';
import { addCollectionEntry } from './collection.server';
import { NotFound } from './errors';
import { consumeRateLimit } from './rate-limit.server';

export type { PinCommentDto, PinReactionsDto };

// pin detail reads these on every view: built and prepared once
const pinExists = prepared((conn) => conn.query.pins.findFirst({ where: eq(pins.id, sql.placeholder('pinId')), columns: { id: true } }).prepare());
const pinCommentsQuery = prepared((conn) =>
  conn
    .select({ c: pinComments, u: { id: users.id, nickname: users.nickname, firstName: users.firstName, lastName: users.lastName, email: users.email, deletedAt: users.deletedAt } })
    .from(pinComments)
    .leftJoin(users, eq(users.id, pinComments.userId))
    .where(eq(pinComments.pinId, sql.placeholder('pinId')))
    .orderBy(asc(pinComments.createdAt), asc(pinComments.id))
    .limit(200)
    .prepare(),
);
const pinReactionsQuery = prepared((conn) =>
  conn
    .select({ type: pinReactions.type, n: sql<number>`count(*)`, mine: sql<number>`sum(case when ${pinReactions.userId} = ${sql.placeholder('viewerId')} then 1 else 0 end)` })
    .from(pinReactions)
    .where(eq(pinReactions.pinId, sql.placeholder('pinId')))
    .groupBy(pinReactions.type)
    .prepare(),
);

async function assertPin(pinId: string) {
  const pin = await pinExists().execute({ pinId });
  if (!pin) throw new NotFound('Pin Not Found');
}

/** A pin's comments, oldest first, with what the viewer may do to each. */
export async function listPinComments(viewer: Actor | null, pinId: string): Promise<PinCommentDto[]> {
  await assertPin(pinId);
  return commentsOf(viewer, pinId);
}

/**
 * The comments and reactions of a pin the caller has just read (the pin page, which read it for
 * itself): without the two lookups of the pin that listPinComments and getPinReactions make.
 */
export async function pinCommunity(viewer: Actor | null, pin: { id: string }): Promise<{ comments: PinCommentDto[]; reactions: PinReactionsDto }> {
  return { comments: await commentsOf(viewer, pin.id), reactions: await reactionsOf(viewer, pin.id) };
}

async function commentsOf(viewer: Actor | null, pinId: string): Promise<PinCommentDto[]> {
  const rows = await pinCommentsQuery().all({ pinId });
  return rows.map(({ c, u }) => ({
    id: c.id,
    pinId: c.pinId,
    content: c.content,
    author: u && !u.deletedAt ? { id: u.id, name: displayName(u), nickname: u.nickname } : { id: null, name: 'Deleted account', nickname: null },
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
    edited: c.updatedAt.getTime() - c.createdAt.getTime() > 1000,
    canEdit: canEditComment(viewer, c),
    canDelete: canDeleteComment(viewer, c),
  }));
}

async function getComment(viewer: Actor | null, id: string): Promise<PinCommentDto> {
  const row = await db().query.pinComments.findFirst({ where: eq(pinComments.id, id) });
  if (!row) throw new NotFound('Comment not found');
  const all = await listPinComments(viewer, row.pinId);
  const found = all.find((c) => c.id === id);
  if (!found) throw new NotFound('Comment not found');
  return found;
}

export async function addPinComment(actor: Actor | null, pinId: string, input: unknown): Promise<PinCommentDto> {
  assertSignedIn(actor, 'Please sign in to comment');
  const { content } = parseWith(commentSchema, input);
  await assertPin(pinId);
  await consumeRateLimit('comment-user', actor.id);
  const [row] = await db().insert(pinComments).values({ pinId, userId: actor.id, content }).returning({ id: pinComments.id });
  return getComment(actor, row.id);
}

export async function editPinComment(actor: Actor | null, id: string, input: unknown): Promise<PinCommentDto> {
  assertSignedIn(actor, 'Please sign in to comment');
  const row = await db().query.pinComments.findFirst({ where: eq(pinComments.id, id) });
  if (!row) throw new NotFound('Comment not found');
  assertCanEditComment(actor, row);
  const { content } = parseWith(commentSchema, input);
  await consumeRateLimit('comment-user', actor.id);
  await db().update(pinComments).set({ content, updatedAt: new Date() }).where(eq(pinComments.id, id));
  return getComment(actor, id);
}

export async function deletePinComment(actor: Actor | null, id: string): Promise<{ id: string; pinId: string }> {
  assertSignedIn(actor, 'Please sign in to comment');
  const row = await db().query.pinComments.findFirst({ where: eq(pinComments.id, id) });
  if (!row) throw new NotFound('Comment not found');
  assertCanDeleteComment(actor, row);
  await db().delete(pinComments).where(eq(pinComments.id, id));
  return { id, pinId: row.pinId };
}

export async function countPinComments(pinId: string): Promise<number> {
  const [row] = await db().select({ n: sql<number>`count(*)` }).from(pinComments).where(eq(pinComments.pinId, pinId));
  return Number(row?.n ?? 0);
}

/** A pin's reaction counts, and the viewer's own. */
export async function getPinReactions(viewer: Actor | null, pinId: string): Promise<PinReactionsDto> {
  await assertPin(pinId);
  return reactionsOf(viewer, pinId);
}

async function reactionsOf(viewer: Actor | null, pinId: string): Promise<PinReactionsDto> {
  const rows = await pinReactionsQuery().all({ pinId, viewerId: viewer?.id ?? '' });
  const counts = Object.fromEntries(REACTION_TYPES.map((t) => [t, 0])) as Record<ReactionType, number>;
  const mine: ReactionType[] = [];
  for (const r of rows) {
    counts[r.type] = Number(r.n);
    if (Number(r.mine) > 0) mine.push(r.type);
  }
  return { counts, mine };
}

/**
 * Toggles the actor's reaction of `type` on a pin: adds it when missing, removes it when there.
 * Returns the pin's reactions after it and whether the reaction is now on.
 */
export async function togglePinReaction(actor: Actor | null, pinId: string, input: unknown): Promise<PinReactionsDto & { type: ReactionType; on: boolean; addedToWanted: boolean }> {
  assertSignedIn(actor, 'Please sign in to react');
  const { type } = parseWith(reactionSchema, input);
  await assertPin(pinId);
  await consumeRateLimit('reaction-user', actor.id);
  await ensureAchievementsOnce();
  const result = await transaction(async (tx) => {
    const removed = await tx
      .delete(pinReactions)
      .where(and(eq(pinReactions.pinId, pinId), eq(pinReactions.userId, actor.id), eq(pinReactions.type, type)))
      .returning({ id: pinReactions.id });
    if (removed.length) return { on: false, addedToWanted: false };
    await tx.insert(pinReactions).values({ pinId, userId: actor.id, type });
    let addedToWanted = false;
    if (type === 'want') {
      const entry = await tx.query.userCollections.findFirst({ where: and(eq(userCollections.userId, actor.id), eq(userCollections.pinId, pinId)) });
      if (!entry) {
        await addCollectionEntry(tx, actor.id, { pinId, status: 'wanted', quantity: 1 });
        addedToWanted = true;
      }
    }
    return { on: true, addedToWanted };
  });
  return { ...(await getPinReactions(actor, pinId)), type, ...result };
}

// ---------------------------------------------------------------- counts on grid cards

export interface PinCommunityCounts {
  likes: number;
  comments: number;
}

/**
 * Likes and comments of a page of pins in one grouped query (from the reactions' unique index and
 * the comments' pin index), so a grid does not ask once per card. Pins with neither are left out.
 */
export async function communityCountsOf(pinIds: string[]): Promise<Map<string, PinCommunityCounts>> {
  const ids = [...new Set(pinIds)];
  if (!ids.length) return new Map();
  const rows = await communityCountsQuery().all({ ids: JSON.stringify(ids) });
  return new Map(rows.map((r) => [r.pinId, { likes: Number(r.likes), comments: Number(r.comments) }]));
}
// on every page with cards: built and prepared once (the ids go in as one JSON array)
const communityCountsQuery = prepared((conn) =>
  conn
    .select({ pinId: sql<string>`pin_id`, likes: sql<number>`likes`, comments: sql<number>`comments` })
    .from(
      sql`(select pin_id, sum(likes) as likes, sum(comments) as comments from (
        select pin_id, count(*) as likes, 0 as comments from pin_reactions where pin_id in (select value from json_each(${sql.placeholder('ids')})) and type = 'like' group by pin_id
        union all
        select pin_id, 0, count(*) from pin_comments where pin_id in (select value from json_each(${sql.placeholder('ids')})) group by pin_id
      ) group by pin_id)`,
    )
    .prepare(),
);

/** Cards with their like and comment counts (only the ones that have some). */
export async function withCommunityCounts<T extends { id: string }>(cards: T[]): Promise<(T & Partial<PinCommunityCounts>)[]> {
  const counts = await communityCountsOf(cards.map((c) => c.id));
  return cards.map((c) => {
    const n = counts.get(c.id);
    return n ? { ...c, ...(n.likes ? { likes: n.likes } : {}), ...(n.comments ? { comments: n.comments } : {}) } : c;
  });
}
