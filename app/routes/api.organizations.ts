import type { ActionFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { requireUser } from '~/http/guards.server';
import { createOrganization, listOrganizations } from '~/services/organizations.server';
import { api, methodNotAllowed } from '~/http/api.server';
import { readBody } from '~/http/body.server';

/** GET /api/organizations: [{ id, name, description }]; POST { name, description } creates one. */
export const loader = api(async () => listOrganizations());

export const action = api(async ({ request }: ActionFunctionArgs) => {
  if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
  const user = await requireUser(request);
  return json(await createOrganization(user, await readBody(request)), { status: 201 });
});
