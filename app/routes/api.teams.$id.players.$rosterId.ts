import type { ActionFunctionArgs } from '@remix-run/node';
import { api, methodNotAllowed } from '~/http/api.server';
import { readBody } from '~/http/body.server';
import { requireUser } from '~/http/guards.server';
import { removePlayer, updatePlayer } from '~/services/teams.server';

/**
 * PUT /api/teams/{teamId}/players/{rosterId}: { position, jerseyNumber, isActive } (null or ''
 * clears position and jersey number; a field left out stays) -> the roster entry.
 * DELETE -> { message, id, playerName }. A roster id of another team is 404.
 */
export const action = api(async ({ request, params }: ActionFunctionArgs) => {
  if (request.method !== 'PUT' && request.method !== 'PATCH' && request.method !== 'DELETE') return methodNotAllowed(['PUT', 'PATCH', 'DELETE']);
  const user = await requireUser(request);
  const teamId = params.id ?? '';
  const rosterId = params.rosterId ?? '';
  if (request.method === 'DELETE') {
    return { message: 'Player removed successfully!', ...(await removePlayer(user, teamId, rosterId)) };
  }
  return updatePlayer(user, teamId, rosterId, await readBody(request));
});

export const loader = api(async () => methodNotAllowed(['PUT', 'PATCH', 'DELETE']));
