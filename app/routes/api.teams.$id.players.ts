import type { ActionFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { api, methodNotAllowed } from '~/http/api.server';
import { readBody } from '~/http/body.server';
import { requireUser } from '~/http/guards.server';
import { addPlayer } from '~/services/teams.server';

/**
 * POST /api/teams/{teamId}/players: { playerName, position, jerseyNumber } -> 201 the roster entry.
 * A jersey number worn by another active player of the team is 409 (issues.jerseyNumber).
 */
export const action = api(async ({ request, params }: ActionFunctionArgs) => {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const user = await requireUser(request);
  return json(await addPlayer(user, params.id ?? '', await readBody(request)), { status: 201 });
});

export const loader = api(async () => methodNotAllowed(['POST']));
