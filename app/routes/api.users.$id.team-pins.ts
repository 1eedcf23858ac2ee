import type { LoaderFunctionArgs } from '@remix-run/node';
import { api, methodNotAllowed } from '~/http/api.server';
import { requireUser } from '~/http/guards.server';
import { listUserTeamPins } from '~/services/teams.server';

/**
 * GET /api/users/{userId}/team-pins (the user or an admin): the pins of the teams the user manages,
 * coaches or plays on, newest first (images, name, description, year, event, totalQuantity, ...).
 */
export const loader = api(async ({ request, params }: LoaderFunctionArgs) => listUserTeamPins(await requireUser(request), params.id ?? ''));

export const action = api(async () => methodNotAllowed(['GET']));
