import type { LoaderFunctionArgs } from '@remix-run/node';
import { ADMIN_ROLES } from '~/auth/permissions';
import { api, methodNotAllowed } from '~/http/api.server';
import { requireRole } from '~/http/guards.server';
import { listAdminUsers } from '~/services/admin/users.server';

/**
 * GET /api/admin/users?limit&offset&search&role -> { users, total } (admins). Each user carries its
 * status, 'Active' or 'Pending Setup'. The manager list asks `limit=1000&role=manager`.
 */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const user = await requireRole(request, ADMIN_ROLES);
  const url = new URL(request.url);
  const p = (name: string) => url.searchParams.get(name);
  return listAdminUsers(user, { limit: p('limit'), offset: p('offset'), search: p('search'), role: p('role') });
});

export const action = api(async () => methodNotAllowed(['GET']));
