import type { ActionFunctionArgs } from '@remix-run/node';
import { ADMIN_ROLES } from '~/auth/permissions';
import { api, methodNotAllowed } from '~/http/api.server';
import { readBody } from '~/http/body.server';
import { requireRole } from '~/http/guards.server';
import { deleteOrganization, updateOrganization } from '~/services/organizations.server';

/**
 * PATCH /api/admin/organizations/{id} { name, description } -> the organization.
 * DELETE /api/admin/organizations/{id}: 409 'You cannot delete an organization that has pins
 * associated with it.' while it has pins.
 */
export const action = api(async ({ request, params }: ActionFunctionArgs) => {
  const id = params.id ?? '';
  if (request.method === 'PATCH') {
    const user = await requireRole(request, ADMIN_ROLES);
    return updateOrganization(user, id, await readBody(request));
  }
  if (request.method === 'DELETE') {
    const user = await requireRole(request, ADMIN_ROLES);
    await deleteOrganization(user, id);
    return { message: 'Organization deleted', id };
  }
  return methodNotAllowed(['PATCH', 'DELETE']);
});

export const loader = api(async () => methodNotAllowed(['PATCH', 'DELETE']));
