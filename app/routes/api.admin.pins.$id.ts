import type { ActionFunctionArgs } from '@remix-run/node';
import { ADMIN_ROLES } from '~/auth/permissions';
import { api, methodNotAllowed } from '~/http/api.server';
import { requireRole } from '~/http/guards.server';
import { readPinPayload } from '~/http/pin-payload.server';
import { updateAdminPin } from '~/services/admin/pins.server';
import { deletePin, type UpdatePinInput } from '~/services/pins.server';

/**
 * PATCH /api/admin/pins/{id} (a plain object of form entries, JSON or a form) -> the pin.
 * DELETE /api/admin/pins/{id}: the pin and its identification records -> { message, id }.
 */
export const action = api(async ({ request, params }: ActionFunctionArgs) => {
  const id = params.id ?? '';
  if (request.method === 'PATCH') {
    const user = await requireRole(request, ADMIN_ROLES);
    return updateAdminPin(user, id, (await readPinPayload(request)) as UpdatePinInput);
  }
  if (request.method === 'DELETE') {
    const user = await requireRole(request, ADMIN_ROLES);
    await deletePin(user, id);
    return { message: 'Pin deleted', id };
  }
  return methodNotAllowed(['PATCH', 'DELETE']);
});

export const loader = api(async () => methodNotAllowed(['PATCH', 'DELETE']));
