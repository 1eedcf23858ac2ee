import type { LoaderFunctionArgs } from '@remix-run/node';
import { optionalUser } from '~/http/guards.server';
import { api, methodNotAllowed } from '~/http/api.server';
import { listDailyChallenges } from '~/services/challenges.server';

/**
 * GET /api/challenges?date=YYYY-MM-DD: a day's challenges (today when no date; created on first
 * need). Public; a signed-in caller also gets their own progress on each.
 */
export const loader = api(async ({ request }: LoaderFunctionArgs) =>
  listDailyChallenges(await optionalUser(request), Object.fromEntries(new URL(request.url).searchParams)),
);

export const action = api(async () => methodNotAllowed(['GET']));
