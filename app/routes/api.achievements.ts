import { ensureAchievementsOnce } from '~/services/achievement-definitions.server';
import { listAchievements } from '~/services/achievements.server';
import { api, methodNotAllowed } from '~/http/api.server';

/** GET /api/achievements: every (visible) badge with its condition and points. Public. */
export const loader = api(async () => {
  await ensureAchievementsOnce();
  return listAchievements();
});

export const action = api(async () => methodNotAllowed(['GET']));
