import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { ADMIN_ROLES } from '~/auth/permissions';
import { api, methodNotAllowed } from '~/http/api.server';
import { readBody } from '~/http/body.server';
import { requireRole } from '~/http/guards.server';
import { listAdminOrganizations } from '~/services/admin/pins.server';
import { createOrganization } from '~/services/organizations.server';

/**
 * GET /api/admin/organizations?search&limit&offset -> { organizations, total } (admins; each with
 * its pin count). POST /api/admin/organizations { name, description } -> 201 the organization.
 */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const user = await requireRole(request, ADMIN_ROLES);
  const p = new URL(request.url).searchParams;
  return listAdminOrganizations(user, { search: p.get('search'), limit: p.get('limit') ?? 1000, offset: p.get('offset') });
});

export const action = api(async ({ request }: ActionFunctionArgs) => {
  if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
  const user = await requireRole(request, ADMIN_ROLES);
  return json(await createOrganization(user, await readBody(request)), { status: 201 });
});
