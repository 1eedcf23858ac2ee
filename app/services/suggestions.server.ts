/**
 * Pin suggestions: a signed-in user whose role may not add pins suggests one from a no-match (the
 * new-pin form, up to 5 photos). Admins work through the queue: approving makes the pin through
 * the one pin-creation path (createPin, with the suggester as its contributor: it enters their
 * collection and counts for the Contributor and Archivist badges); rejecting records a reason the
 * suggester sees on /suggestions.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import { assertCanReviewSuggestions, assertCanSuggestPin, type Actor } from '~/auth/permissions';
import { db, transaction } from '~/db/index.server';
import { pinSuggestions, users, type SuggestionStatus } from '~/db/schema';
import { newPinSchema } from '~/forms/pins';
import { MAX_PIN_PHOTOS } from '~/utils/constants';
import { REJECT_REASON_MAX } from '~/utils/suggestions';
import { parseWith } from '~/utils/validation';
import { recordAudit } from './audit.server';
import { Conflict, Invalid, NotFound } from './errors';
import { imageUrl, prepareImage, savePreparedImage, type PreparedImage } from './images.server';
import { assertImagesUsableBy, createPin } from './pins.server';
import type { UnlockedBadge } from '~/types/achievements';

export { REJECT_REASON_MAX };

export interface SuggestionDto {
  id: string;
  status: SuggestionStatus;
  name: string;
  description: string;
  organizationName: string;
  totalQuantity: number;
  year: number | null;
  event: string | null;
  images: string[];
  suggestedBy: { id: string; name: string } | null;
  rejectReason: string | null;
  pinId: string | null;
  createdAt: string;
  reviewedAt: string | null;
}

/** Stores a suggestion: the identification photo (an image already stored) and up to 4 uploads. */
export async function createSuggestion(
  actor: Actor | null,
  input: Record<string, unknown>,
  photos: { photoImageId?: string | null; uploads?: Blob[] } = {},
): Promise<SuggestionDto> {
  assertCanSuggestPin(actor);
  const data = parseWith(newPinSchema, input);
  const uploads = photos.uploads ?? [];
  const kept = photos.photoImageId ? [photos.photoImageId] : [];
  if (kept.length + uploads.length > MAX_PIN_PHOTOS) {
    const message = `You can only add ${MAX_PIN_PHOTOS - kept.length} more photo(s). Maximum is ${MAX_PIN_PHOTOS} photos total.`;
    throw new Invalid(message, { images: [message] });
  }
  if (kept.length + uploads.length === 0) throw new Invalid('Add at least one photo of the pin', { images: ['Add at least one photo of the pin'] });
  // decoded and re-encoded before the transaction (it holds database work only)
  const prepared: PreparedImage[] = [];
  for (const file of uploads) prepared.push(await prepareImage(file));
  const id = await transaction(async (tx) => {
    // the identification photo must be the suggester's own (the rule new pins follow)
    await assertImagesUsableBy(tx, actor.id, kept);
    const ids = [...kept];
    for (const p of prepared) ids.push((await savePreparedImage(tx, p)).id);
    const [row] = await tx
      .insert(pinSuggestions)
      .values({
        suggestedBy: actor.id,
        name: data.name,
        description: data.description,
        organizationName: data.organizationName,
        totalQuantity: data.totalQuantity,
        year: data.year ?? null,
        event: data.event ?? null,
        teamId: null,
        images: [...new Set(ids)],
      })
      .returning({ id: pinSuggestions.id });
    return row.id;
  });
  return getSuggestion(id);
}

function select() {
  return db()
    .select({ s: pinSuggestions, nickname: users.nickname, firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(pinSuggestions)
    .leftJoin(users, eq(users.id, pinSuggestions.suggestedBy));
}

function toDto(row: Awaited<ReturnType<typeof select>>[number]): SuggestionDto {
  const { s } = row;
  const name = row.nickname || [row.firstName, row.lastName].filter(Boolean).join(' ') || (row.email ?? '').split('@')[0];
  return {
    id: s.id,
    status: s.status,
    name: s.name,
    description: s.description,
    organizationName: s.organizationName,
    totalQuantity: s.totalQuantity,
    year: s.year,
    event: s.event,
    images: s.images.map((i) => imageUrl(i)),
    suggestedBy: s.suggestedBy ? { id: s.suggestedBy, name } : null,
    rejectReason: s.rejectReason,
    pinId: s.pinId,
    createdAt: s.createdAt.toISOString(),
    reviewedAt: s.reviewedAt ? s.reviewedAt.toISOString() : null,
  };
}

async function getSuggestion(id: string): Promise<SuggestionDto> {
  const [row] = await select().where(eq(pinSuggestions.id, id));
  if (!row) throw new NotFound('Suggestion not found');
  return toDto(row);
}

/** The signed-in user's own suggestions, newest first (with the reason of a rejection). */
export async function listMySuggestions(actor: Actor | null): Promise<SuggestionDto[]> {
  assertCanSuggestPin(actor);
  const rows = await select().where(eq(pinSuggestions.suggestedBy, actor.id)).orderBy(desc(pinSuggestions.createdAt), desc(pinSuggestions.id));
  return rows.map(toDto);
}

/** The review queue (admins): one status, oldest first for pending (first come, first served). */
export async function listSuggestions(actor: Actor | null, status: SuggestionStatus = 'pending'): Promise<{ suggestions: SuggestionDto[]; counts: Record<SuggestionStatus, number> }> {
  assertCanReviewSuggestions(actor);
  const rows = await select()
    .where(eq(pinSuggestions.status, status))
    .orderBy(status === 'pending' ? pinSuggestions.createdAt : desc(pinSuggestions.reviewedAt), pinSuggestions.id)
    .limit(200);
  const counted = await db().select({ status: pinSuggestions.status, n: sql<number>`count(*)` }).from(pinSuggestions).groupBy(pinSuggestions.status);
  const counts: Record<SuggestionStatus, number> = { pending: 0, approved: 0, rejected: 0 };
  for (const c of counted) counts[c.status] = Number(c.n);
  return { suggestions: rows.map(toDto), counts };
}

/**
 * Approves a pending suggestion: it is claimed (one conditional update, so two admins cannot both
 * approve it), then created through createPin with the suggester as contributor. Should creating
 * fail, the claim is undone and the suggestion waits again.
 */
export async function approveSuggestion(actor: Actor | null, id: string): Promise<{ pinId: string; newlyUnlockedBadges: UnlockedBadge[] }> {
  assertCanReviewSuggestions(actor);
  const claimed = await transaction(async (tx) => {
    const [row] = await tx
      .update(pinSuggestions)
      .set({ status: 'approved', reviewedBy: actor.id, reviewedAt: new Date() })
      .where(and(eq(pinSuggestions.id, id), eq(pinSuggestions.status, 'pending')))
      .returning();
    if (!row) {
      const exists = await tx.select({ id: pinSuggestions.id }).from(pinSuggestions).where(eq(pinSuggestions.id, id)).get();
      if (!exists) throw new NotFound('Suggestion not found');
      throw new Conflict('This suggestion was already reviewed');
    }
    return row;
  });
  const suggester = claimed.suggestedBy ? await db().select({ id: users.id, role: users.role, deletedAt: users.deletedAt }).from(users).where(eq(users.id, claimed.suggestedBy)).get() : undefined;
  try {
    if (!suggester || suggester.deletedAt) throw new Conflict('The account that suggested this pin no longer exists');
    const pin = await createPin(
      actor,
      {
        name: claimed.name,
        description: claimed.description,
        organizationName: claimed.organizationName,
        totalQuantity: claimed.totalQuantity,
        year: claimed.year,
        event: claimed.event,
        images: claimed.images.map((i) => imageUrl(i)),
        primaryPhotoIndex: 0,
      },
      // the suggestion's photos: the suggester's, checked when the suggestion was made
      { contributor: { id: suggester.id, role: suggester.role }, vouchedImageIds: claimed.images },
    );
    await transaction(async (tx) => {
      await tx.update(pinSuggestions).set({ pinId: pin.id }).where(eq(pinSuggestions.id, id));
      await recordAudit(tx, {
        actor,
        action: 'suggestion.approve',
        targetType: 'pin_suggestion',
        targetId: id,
        details: { before: { status: 'pending' }, after: { status: 'approved', pinId: pin.id }, name: claimed.name, suggestedBy: suggester.id },
      });
    });
    return { pinId: pin.id, newlyUnlockedBadges: pin.newlyUnlockedBadges };
  } catch (error) {
    await db().update(pinSuggestions).set({ status: 'pending', reviewedBy: null, reviewedAt: null }).where(eq(pinSuggestions.id, id));
    throw error;
  }
}

/** Rejects a pending suggestion with a reason (required) that the suggester sees. */
export async function rejectSuggestion(actor: Actor | null, id: string, reason: unknown): Promise<void> {
  assertCanReviewSuggestions(actor);
  const text = typeof reason === 'string' ? reason.trim() : '';
  if (!text) throw new Invalid('Give a reason for the suggester', { reason: ['Give a reason for the suggester'] });
  if (text.length > REJECT_REASON_MAX) throw new Invalid(`The reason is too long (at most ${REJECT_REASON_MAX} characters)`, { reason: [`The reason is too long (at most ${REJECT_REASON_MAX} characters)`] });
  await transaction(async (tx) => {
    const [row] = await tx
      .update(pinSuggestions)
      .set({ status: 'rejected', rejectReason: text, reviewedBy: actor.id, reviewedAt: new Date() })
      .where(and(eq(pinSuggestions.id, id), eq(pinSuggestions.status, 'pending')))
      .returning({ id: pinSuggestions.id, name: pinSuggestions.name });
    if (!row) {
      const exists = await tx.select({ id: pinSuggestions.id }).from(pinSuggestions).where(eq(pinSuggestions.id, id)).get();
      if (!exists) throw new NotFound('Suggestion not found');
      throw new Conflict('This suggestion was already reviewed');
    }
    await recordAudit(tx, {
      actor,
      action: 'suggestion.reject',
      targetType: 'pin_suggestion',
      targetId: id,
      details: { before: { status: 'pending' }, after: { status: 'rejected', reason: text }, name: row.name },
    });
  });
}

