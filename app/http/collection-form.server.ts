/**
 * The server half of <AddToCollectionForm>: any page that renders the form calls this from its
 * action when `intent === 'addToCollection'`.
 */
import { parseWithZod } from '@conform-to/zod';
import { AddToCollectionSchema } from '~/forms/collection';
import { isAppError } from '~/services/errors';
import { createCollectionEntry, updateCollectionEntry } from '~/services/collection.server';
import { badgeToasts } from '~/components/reward-toasts';
import { replyWithInvalid, replyWithServiceError } from './form-reply.server';
import { optionalUser } from './guards.server';
import { redirectWithToast } from './toast.server';
import { timeZoneFromRequest } from './time-zone.server';

const STATUS_LABEL = { owned: 'Owned', wanted: 'Wanted', trading: 'Trading' } as const;
const STATUS_TEXT = { owned: 'your collection', wanted: 'your wanted list', trading: 'your trading pins' } as const;

export async function handleAddToCollection(request: Request, formData: FormData, opts: { redirectTo: string }): Promise<Response> {
  const extra = { intent: 'addToCollection' as const };
  const submission = parseWithZod(formData, { schema: AddToCollectionSchema });
  if (submission.status !== 'success') return replyWithInvalid(submission, { extra });
  const user = await optionalUser(request);
  if (!user) {
    return redirectWithToast(`/api/login?redirectTo=${encodeURIComponent(opts.redirectTo)}`, {
      title: 'Please sign in',
      description: 'Sign in to add pins to your collection.',
      variant: 'destructive',
    });
  }
  try {
    const { entry, newlyUnlockedBadges, completedChallenges } = await createCollectionEntry(user, submission.value, { timeZone: timeZoneFromRequest(request) });
    return redirectWithToast(opts.redirectTo, {
      title: 'Added to Collection',
      description: `${entry.pin.name} is in ${STATUS_TEXT[entry.status]} (quantity ${entry.quantity}).`,
      variant: 'success',
      more: badgeToasts(newlyUnlockedBadges, completedChallenges),
    });
  } catch (error) {
    if (isAppError(error) && error.status < 500) return replyWithServiceError(submission, error, { extra, notFoundField: 'pinId' });
    console.error(error);
    // spec §8: 'Failed to Add Pin'
    return redirectWithToast(opts.redirectTo, {
      title: 'Failed to Add Pin',
      description: 'Failed to update your collection. Please try again.',
      variant: 'destructive',
    });
  }
}

/**
 * The server half of the pin page's "Your copy" form (`intent === 'updateCollectionEntry'`): sets the
 * signed-in user's entry to the submitted values.
 */
export async function handleUpdateCollectionEntry(request: Request, formData: FormData, opts: { redirectTo: string }): Promise<Response> {
  const extra = { intent: 'updateCollectionEntry' as const };
  const submission = parseWithZod(formData, { schema: AddToCollectionSchema });
  if (submission.status !== 'success') return replyWithInvalid(submission, { extra });
  const user = await optionalUser(request);
  if (!user) {
    return redirectWithToast(`/api/login?redirectTo=${encodeURIComponent(opts.redirectTo)}`, {
      title: 'Please sign in',
      description: 'Sign in to change your collection.',
      variant: 'destructive',
    });
  }
  try {
    const { entry, newlyUnlockedBadges, completedChallenges } = await updateCollectionEntry(user, submission.value, { timeZone: timeZoneFromRequest(request) });
    return redirectWithToast(opts.redirectTo, {
      title: 'Collection Updated',
      description: `${entry.pin.name}: ${STATUS_LABEL[entry.status]}, quantity ${entry.quantity}, ${entry.condition}.`,
      variant: 'success',
      more: badgeToasts(newlyUnlockedBadges, completedChallenges),
    });
  } catch (error) {
    if (isAppError(error) && error.status < 500) return replyWithServiceError(submission, error, { extra });
    console.error(error);
    return redirectWithToast(opts.redirectTo, {
      title: 'Update Failed',
      description: 'Failed to update your collection. Please try again.',
      variant: 'destructive',
    });
  }
}
