import type { ActionFunctionArgs } from '@remix-run/node';
import { ADMIN_ROLES } from '~/auth/permissions';
import { api, methodNotAllowed } from '~/http/api.server';
import { readBody } from '~/http/body.server';
import { requireRole } from '~/http/guards.server';
import { setPinsFeatured } from '~/services/admin/pins.server';

/** PATCH /api/admin/pins/bulk/featured { pinIds, featured } -> { updated, pinIds } (the pins that changed). */
export const action = api(async ({ request }: ActionFunctionArgs) => {
  if (request.method !== 'PATCH') return methodNotAllowed(['PATCH']);
  const user = await requireRole(request, ADMIN_ROLES);
  const body = await readBody(request);
  return setPinsFeatured(user, { pinIds: body.pinIds }, body.featured);
});

export const loader = api(async () => methodNotAllowed(['PATCH']));
