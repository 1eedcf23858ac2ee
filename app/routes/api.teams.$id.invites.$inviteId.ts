import type { ActionFunctionArgs } from '@remix-run/node';
import { api, methodNotAllowed } from '~/http/api.server';
import { requireUser } from '~/http/guards.server';
import { revokeInvite } from '~/services/team-invites.server';

/** DELETE /api/teams/{teamId}/invites/{inviteId} -> { message, id, playerName }: the link stops working. */
export const action = api(async ({ request, params }: ActionFunctionArgs) => {
  if (request.method !== 'DELETE') return methodNotAllowed(['DELETE']);
  const user = await requireUser(request);
  return { message: 'Invite link revoked', ...(await revokeInvite(user, params.id ?? '', params.inviteId ?? '')) };
});

export const loader = api(async () => methodNotAllowed(['DELETE']));
