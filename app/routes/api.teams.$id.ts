import type { ActionFunctionArgs } from '@remix-run/node';
import { api, methodNotAllowed } from '~/http/api.server';
import { requireUser } from '~/http/guards.server';
import { deleteTeam } from '~/services/teams.server';

/**
 * DELETE /api/teams/{id} (the team's manager or an admin): its roster and staff go with it, its pins
 * stay in the catalogue without a team -> { message, id, name, removedPlayers, removedStaff, keptPins }.
 */
export const action = api(async ({ request, params }: ActionFunctionArgs) => {
  if (request.method !== 'DELETE') return methodNotAllowed(['DELETE']);
  const deleted = await deleteTeam(await requireUser(request), params.id ?? '');
  return { message: 'Team deleted successfully!', ...deleted };
});

export const loader = api(async () => methodNotAllowed(['DELETE']));
