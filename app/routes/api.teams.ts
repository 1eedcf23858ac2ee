import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { api, methodNotAllowed } from '~/http/api.server';
import { readBody } from '~/http/body.server';
import { requireUser } from '~/http/guards.server';
import { createTeam, listMyTeams } from '~/services/teams.server';

/**
 * GET /api/teams: the teams the user manages, coaches or plays on (id, name, location, description,
 * managerId, logoUrl, and the small logo, the user's relation and the member count).
 * POST /api/teams: { name, description, location } -> 201 the new team, managed by the caller.
 */
export const loader = api(async ({ request }: LoaderFunctionArgs) => listMyTeams(await requireUser(request)));

export const action = api(async ({ request }: ActionFunctionArgs) => {
  if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
  const user = await requireUser(request);
  return json(await createTeam(user, await readBody(request)), { status: 201 });
});
