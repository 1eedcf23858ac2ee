import type { LoaderFunctionArgs } from '@remix-run/node';
import { api, methodNotAllowed } from '~/http/api.server';
import { requireUser } from '~/http/guards.server';
import { getTeamDetails } from '~/services/teams.server';

/**
 * GET /api/teams/{id}/details (its manager, members and admins): { team (with managerName),
 * roster [id, playerName, email, position, jerseyNumber, isActive, joinedAt],
 * staff [id, userName, email, role, isActive, joinedAt] }.
 */
export const loader = api(async ({ request, params }: LoaderFunctionArgs) => getTeamDetails(await requireUser(request), params.id ?? ''));

export const action = api(async () => methodNotAllowed(['GET']));
