import type { LoaderFunctionArgs } from '@remix-run/node';
import { optionalUser } from '~/http/guards.server';
import { listUserAchievements } from '~/services/achievements.server';
import { api, methodNotAllowed } from '~/http/api.server';

/** GET /api/users/{id}/achievements: the badges the user earned, with unlockedAt and progress (owner or admin). */
export const loader = api(async ({ request, params }: LoaderFunctionArgs) => listUserAchievements(await optionalUser(request), params.id ?? ''));

export const action = api(async () => methodNotAllowed(['GET']));
