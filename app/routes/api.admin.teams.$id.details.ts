import type { LoaderFunctionArgs } from '@remix-run/node';
import { ADMIN_ROLES } from '~/auth/permissions';
import { api } from '~/http/api.server';
import { requireRole } from '~/http/guards.server';
import { getTeamDetails } from '~/services/teams.server';

/** GET /api/admin/teams/{id}/details -> { team (with managerName), roster, staff } (admins, any team). */
export const loader = api(async ({ request, params }: LoaderFunctionArgs) => {
  const user = await requireRole(request, ADMIN_ROLES);
  return getTeamDetails(user, params.id ?? '');
});
