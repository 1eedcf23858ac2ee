import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { requireUser } from '~/http/guards.server';
import { deletePin, getPin, updatePin } from '~/services/pins.server';
import { api, methodNotAllowed } from '~/http/api.server';
import { readPinPayload } from '~/http/pin-payload.server';

/** GET, PUT (creator or admin), DELETE (creator or admin) /api/pins/{id}. */
export const loader = api(async ({ params }: LoaderFunctionArgs) => getPin(params.id ?? ''));

export const action = api(async ({ request, params }: ActionFunctionArgs) => {
  const id = params.id ?? '';
  if (request.method !== 'PUT' && request.method !== 'PATCH' && request.method !== 'DELETE') {
    return methodNotAllowed(['GET', 'PUT', 'PATCH', 'DELETE']);
  }
  const user = await requireUser(request);
  if (request.method === 'DELETE') {
    await deletePin(user, id);
    return json({ success: true, id });
  }
  const payload = await readPinPayload(request);
  return updatePin(user, id, payload as unknown as Record<string, unknown>);
});
