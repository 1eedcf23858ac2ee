import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { ADMIN_ROLES } from '~/auth/permissions';
import { api, methodNotAllowed } from '~/http/api.server';
import { readBody } from '~/http/body.server';
import { requireRole } from '~/http/guards.server';
import { getAdminTeam, listAdminTeams } from '~/services/admin/teams.server';
import { createTeamForManager } from '~/services/teams.server';

/**
 * GET /api/admin/teams?limit&offset&search -> { items, total } (every team, with managerName and
 * memberCount). POST /api/admin/teams { name, description, location, managerId } -> 201 the team.
 */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const user = await requireRole(request, ADMIN_ROLES);
  const p = new URL(request.url).searchParams;
  return listAdminTeams(user, { search: p.get('search'), limit: p.get('limit'), offset: p.get('offset') });
});

export const action = api(async ({ request }: ActionFunctionArgs) => {
  if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
  const user = await requireRole(request, ADMIN_ROLES);
  const team = await createTeamForManager(user, await readBody(request));
  return json(await getAdminTeam(user, team.id), { status: 201 });
});
