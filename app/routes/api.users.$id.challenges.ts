import type { LoaderFunctionArgs } from '@remix-run/node';
import { optionalUser } from '~/http/guards.server';
import { api, methodNotAllowed } from '~/http/api.server';
import { getUserChallenges } from '~/services/challenges.server';

/** GET /api/users/{id}/challenges?date=: that collector's progress on a day's challenges (owner or admin). */
export const loader = api(async ({ request, params }: LoaderFunctionArgs) =>
  getUserChallenges(await optionalUser(request), params.id ?? '', Object.fromEntries(new URL(request.url).searchParams)),
);

export const action = api(async () => methodNotAllowed(['GET']));
