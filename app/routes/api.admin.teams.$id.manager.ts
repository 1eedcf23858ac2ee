import type { ActionFunctionArgs } from '@remix-run/node';
import { ADMIN_ROLES } from '~/auth/permissions';
import { api, methodNotAllowed } from '~/http/api.server';
import { readBody } from '~/http/body.server';
import { requireRole } from '~/http/guards.server';
import { getAdminTeam } from '~/services/admin/teams.server';
import { transferTeamOwnership } from '~/services/teams.server';

/** PATCH /api/admin/teams/{id}/manager { newManagerId } -> the team, now managed by that manager. */
export const action = api(async ({ request, params }: ActionFunctionArgs) => {
  if (request.method !== 'PATCH') return methodNotAllowed(['PATCH']);
  const user = await requireRole(request, ADMIN_ROLES);
  const team = await transferTeamOwnership(user, params.id ?? '', await readBody(request));
  return getAdminTeam(user, team.id);
});

export const loader = api(async () => methodNotAllowed(['PATCH']));
