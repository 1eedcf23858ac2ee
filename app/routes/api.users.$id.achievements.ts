import type { LoaderFunctionArgs } from '@remix-run/node';
import { getOptionalUser } from '~/auth/user.server';
import { listUserAchievements } from '~/services/achievements.server';
import { api, methodNotAllowed } from '~/utils/http.server';

/** GET /api/users/{id}/achievements: the badges the user earned, with unlockedAt and progress (owner or admin). */
export const loader = api(async ({ request, params }: LoaderFunctionArgs) => listUserAchievements(await getOptionalUser(request), params.id ?? ''));

export const action = api(async () => methodNotAllowed(['GET']));
