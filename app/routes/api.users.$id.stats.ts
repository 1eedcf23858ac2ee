import type { LoaderFunctionArgs } from '@remix-run/node';
import { optionalUser } from '~/http/guards.server';
import { getUserStats } from '~/services/achievements.server';
import { timeZoneFromRequest } from '~/http/time-zone.server';
import { api, methodNotAllowed } from '~/http/api.server';

/** GET /api/users/{id}/stats: pinsOwned, pinsWanted, achievementPoints, currentStreak, pinsIdentified... (owner or admin). */
export const loader = api(async ({ request, params }: LoaderFunctionArgs) =>
  getUserStats(await optionalUser(request), params.id ?? '', { timeZone: timeZoneFromRequest(request) }),
);

export const action = api(async () => methodNotAllowed(['GET']));
