import type { ActionFunctionArgs } from '@remix-run/node';
import { ADMIN_ROLES } from '~/auth/permissions';
import { api, methodNotAllowed } from '~/http/api.server';
import { readBody } from '~/http/body.server';
import { requireRole } from '~/http/guards.server';
import { getAdminTeam } from '~/services/admin/teams.server';
import { deleteTeam, updateTeam } from '~/services/teams.server';

/**
 * PATCH /api/admin/teams/{id} (partial: name, description, location, managerId) -> the team.
 * DELETE /api/admin/teams/{id}: the team, its roster and staff -> { message, ... }.
 */
export const action = api(async ({ request, params }: ActionFunctionArgs) => {
  const id = params.id ?? '';
  if (request.method === 'PATCH') {
    const user = await requireRole(request, ADMIN_ROLES);
    const team = await updateTeam(user, id, await readBody(request));
    return getAdminTeam(user, team.id);
  }
  if (request.method === 'DELETE') {
    const user = await requireRole(request, ADMIN_ROLES);
    return { message: 'Team Deleted', ...(await deleteTeam(user, id)) };
  }
  return methodNotAllowed(['PATCH', 'DELETE']);
});

export const loader = api(async () => methodNotAllowed(['PATCH', 'DELETE']));
