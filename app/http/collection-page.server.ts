/**
 * The collection.tsx route's loader and action (the route module re-exports them). They live here, not in
 * the route module, so that the page's browser bundle reaches none of the modules they import (the
 * services, and zod and the form library for the action): in the browser this file is one empty module.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { optionalUser, promptedPageUser } from '~/http/guards.server';
import { toCardData } from '~/components/pin-card';
import type { CollectionStatus } from '~/utils/constants';
import { communityCountsOf } from '~/services/community.server';
import { ensureAchievementsOnce } from '~/services/achievement-definitions.server';
import { getUserStats, listEarnedBadges } from '~/services/achievements.server';
import { timeZoneFromRequest } from '~/http/time-zone.server';
import { badgeToasts } from '~/components/reward-toasts';
import { handleAddToCollection } from '~/http/collection-form.server';
import { getCollectionCounts, getCollectionValue, listCollection, moveCollectionEntry, removeCollectionEntry } from '~/services/collection.server';
import { isAppError } from '~/services/errors';
import { collectionTabOf } from '~/utils/constants';
import { page } from '~/http/page.server';
import { redirectWithToast } from '~/http/toast.server';


const TAB_LABEL: Record<CollectionStatus, string> = { owned: 'Owned', wanted: 'Wanted', trading: 'Trading' };

export async function collectionPageLoader({ request }: LoaderFunctionArgs) {
  const user = await promptedPageUser(request, { title: 'Collection Access Required', message: 'Please sign in to view your collection' });
  const url = new URL(request.url);
  const tab = collectionTabOf(url);
  // without JavaScript, '?confirm=remove&pin=<id>' renders the remove confirmation inline
  const confirmRemove = url.searchParams.get('confirm') === 'remove' ? url.searchParams.get('pin') : null;
  return page(async () => {
    await ensureAchievementsOnce();
    const [stats, counts, badges, list, value] = await Promise.all([
      getUserStats(user, user.id, { timeZone: timeZoneFromRequest(request) }),
      getCollectionCounts(user.id),
      listEarnedBadges(user.id),
      // a failing list shows its own load-failure text (spec §8) while the rest of the page works
      listCollection(user, user.id, tab).catch((error: unknown) => {
        console.error(error);
        return null;
      }),
      getCollectionValue(user.id),
    ]);
    const entries = list ?? [];
    const community = await communityCountsOf(entries.map((e) => e.pinId));
    return json({
      tab,
      confirmRemove,
      stats: { pinsOwned: stats.pinsOwned, pinsWanted: stats.pinsWanted, achievementPoints: stats.achievementPoints, currentStreak: stats.currentStreak, longestStreak: stats.longestStreak },
      counts,
      badges: badges.map((b) => ({ id: b.id, name: b.name, description: b.description, points: b.points, category: b.category, iconUrl: b.iconUrl, unlockedAt: b.unlockedAt })),
      entries: entries.map((e) => ({
        id: e.id,
        pinId: e.pinId,
        pin: { ...toCardData({ ...e.pin, ...community.get(e.pinId) }), estimatedValue: e.pin.estimatedValue },
        quantity: e.quantity,
        condition: e.condition,
        tradeable: e.tradeable,
        notes: e.notes,
      })),
      valueCents: value.cents,
      listFailed: list === null,
    });
  });
}

export async function collectionPageAction({ request }: ActionFunctionArgs) {
  const url = new URL(request.url);
  const tab = collectionTabOf(url);
  const back = `/collection?tab=${tab}`;
  // a body that is not a form (bad multipart, JSON) is the client's mistake: 400, not 500
  const formData = await request.formData().catch(() => null);
  if (!formData) return json({ error: 'The form could not be read' }, { status: 400 });
  const intent = formData.get('intent');
  if (intent === 'addToCollection') return handleAddToCollection(request, formData, { redirectTo: back });
  if (intent !== 'move' && intent !== 'remove') return json({ error: 'Unknown action' }, { status: 400 });

  const user = await optionalUser(request);
  if (!user) return redirectWithToast('/collection', { title: 'Please sign in', description: 'Please sign in to view your collection', variant: 'destructive' });
  if (intent === 'remove') {
    const pinName = String(formData.get('pinName') ?? 'The pin');
    try {
      await removeCollectionEntry(user, user.id, String(formData.get('pinId') ?? ''));
      return redirectWithToast(back, { title: 'Removed from Collection', description: `${pinName} was removed from your collection.`, variant: 'success' });
    } catch (error) {
      if (!isAppError(error)) console.error(error);
      return redirectWithToast(back, { title: 'Update Failed', description: 'Failed to update your collection. Please try again.', variant: 'destructive' });
    }
  }
  try {
    const { entry, newlyUnlockedBadges, completedChallenges } = await moveCollectionEntry(
      user,
      user.id,
      { pinId: formData.get('pinId'), status: formData.get('status') },
      { timeZone: timeZoneFromRequest(request) },
    );
    const description = entry.status === 'owned' && tab === 'trading' ? `You kept ${entry.pin.name}.` : `${entry.pin.name} moved to ${TAB_LABEL[entry.status]}.`;
    return redirectWithToast(back, { title: 'Collection Updated', description, variant: 'success', more: badgeToasts(newlyUnlockedBadges, completedChallenges) });
  } catch (error) {
    if (!isAppError(error)) console.error(error);
    // spec §8: 'Update Failed' for the collection
    return redirectWithToast(back, { title: 'Update Failed', description: 'Failed to update your collection. Please try again.', variant: 'destructive' });
  }
}
