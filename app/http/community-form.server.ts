/**
 * The server half of the pin page's comments and reactions (<PinCommunity>): the page's action
 * hands over the intents 'comment', 'editComment', 'deleteComment' and 'react'.
 */
import { parseWithZod } from '@conform-to/zod';
import { redirect } from '@remix-run/node';
import { commentSchema } from '~/forms/community';
import { addPinComment, deletePinComment, editPinComment, togglePinReaction } from '~/services/community.server';
import { isAppError } from '~/services/errors';
import { replyWithInvalid, replyWithServiceError } from './form-reply.server';
import { optionalUser, signInUrl } from './guards.server';
import { redirectWithToast } from './toast.server';

export const COMMUNITY_INTENTS = ['comment', 'editComment', 'deleteComment', 'react'] as const;
const REACTION_LABEL = { like: 'Like', favorite: 'Favorite', want: 'Want' } as const;

export function isCommunityIntent(intent: unknown): intent is (typeof COMMUNITY_INTENTS)[number] {
  return (COMMUNITY_INTENTS as readonly unknown[]).includes(intent);
}

export async function handleCommunityIntent(request: Request, formData: FormData, pinId: string): Promise<Response> {
  const here = `/pins/${pinId}`;
  const intent = formData.get('intent');
  const user = await optionalUser(request);
  if (!user) throw redirect(signInUrl(request));
  const fail = (error: unknown, title: string) => {
    if (!isAppError(error) || error.status >= 500) throw error;
    return redirectWithToast(`${here}#comments`, { title, description: error.message, variant: 'destructive' });
  };

  if (intent === 'comment' || intent === 'editComment') {
    const extra = { intent: intent as string, commentId: String(formData.get('commentId') ?? '') };
    const submission = parseWithZod(formData, { schema: commentSchema });
    if (submission.status !== 'success') return replyWithInvalid(submission, { extra });
    try {
      if (intent === 'comment') await addPinComment(user, pinId, submission.value);
      else await editPinComment(user, extra.commentId, submission.value);
    } catch (error) {
      return replyWithServiceError(submission, error, { extra });
    }
    return redirectWithToast(`${here}#comments`, { title: intent === 'comment' ? 'Comment posted' : 'Comment updated', variant: 'success' });
  }
  if (intent === 'deleteComment') {
    try {
      await deletePinComment(user, String(formData.get('commentId') ?? ''));
    } catch (error) {
      return fail(error, 'Failed to delete comment');
    }
    return redirectWithToast(`${here}#comments`, { title: 'Comment deleted', variant: 'success' });
  }
  try {
    const result = await togglePinReaction(user, pinId, { type: formData.get('type') });
    const label = REACTION_LABEL[result.type];
    return redirectWithToast(`${here}#reactions`, {
      title: result.on ? `${label} added` : `${label} removed`,
      description: result.addedToWanted ? 'The pin is on your wanted list now.' : undefined,
      variant: 'success',
    });
  } catch (error) {
    return fail(error, 'Reaction failed');
  }
}
