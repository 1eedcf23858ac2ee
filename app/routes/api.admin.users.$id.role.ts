import type { ActionFunctionArgs } from '@remix-run/node';
import { ADMIN_ROLES } from '~/auth/permissions';
import { api, methodNotAllowed } from '~/http/api.server';
import { readBody } from '~/http/body.server';
import { requireRole } from '~/http/guards.server';
import { toAdminUser } from '~/services/admin/users.server';
import { changeUserRole } from '~/services/users.server';

/**
 * PATCH /api/admin/users/{id}/role { role } -> the user. The rules (app/auth/permissions.ts): a
 * super admin changes anyone; an admin changes only roles other than admin and super admin, to and
 * from; nobody changes their own role (403); the last super admin keeps it (409); the same role 400.
 */
export const action = api(async ({ request, params }: ActionFunctionArgs) => {
  if (request.method !== 'PATCH') return methodNotAllowed(['PATCH']);
  const user = await requireRole(request, ADMIN_ROLES);
  const body = await readBody(request);
  return toAdminUser(await changeUserRole(user, params.id ?? '', body.role));
});

export const loader = api(async () => methodNotAllowed(['PATCH']));
