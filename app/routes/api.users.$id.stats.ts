import type { LoaderFunctionArgs } from '@remix-run/node';
import { getOptionalUser } from '~/auth/user.server';
import { getUserStats, timeZoneFromRequest } from '~/services/achievements.server';
import { api, methodNotAllowed } from '~/utils/http.server';

/** GET /api/users/{id}/stats: pinsOwned, pinsWanted, achievementPoints, currentStreak, pinsIdentified... (owner or admin). */
export const loader = api(async ({ request, params }: LoaderFunctionArgs) =>
  getUserStats(await getOptionalUser(request), params.id ?? '', { timeZone: timeZoneFromRequest(request) }),
);

export const action = api(async () => methodNotAllowed(['GET']));
