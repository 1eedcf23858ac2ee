import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { api, methodNotAllowed } from '~/http/api.server';
import { readBody } from '~/http/body.server';
import { optionalUser, requireUser } from '~/http/guards.server';
import { getPinReactions, togglePinReaction } from '~/services/community.server';

/**
 * GET /api/pins/{id}/reactions -> { counts: { like, favorite, want }, mine }.
 * POST { type: like|favorite|want } -> toggles it: { counts, mine, type, on, addedToWanted }.
 */
export const loader = api(async ({ request, params }: LoaderFunctionArgs) => {
  const user = await optionalUser(request);
  return getPinReactions(user, params.id ?? '');
});

export const action = api(async ({ request, params }: ActionFunctionArgs) => {
  if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
  const user = await requireUser(request, 'Please sign in to react');
  return togglePinReaction(user, params.id ?? '', await readBody(request));
});
