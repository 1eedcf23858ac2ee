import type { ActionFunctionArgs } from '@remix-run/node';
import { api, methodNotAllowed } from '~/http/api.server';
import { requireUser } from '~/http/guards.server';
import { acceptInvite } from '~/services/team-invites.server';

/**
 * POST /api/invites/{token}/accept -> { teamId, teamName, playerName }: the signed-in account joins
 * the roster as the invited player. 404 unknown link, 410 expired or revoked, 409 already claimed.
 */
export const action = api(async ({ request, params }: ActionFunctionArgs) => {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const user = await requireUser(request);
  return acceptInvite(user, params.token ?? '');
});

export const loader = api(async () => methodNotAllowed(['POST']));
