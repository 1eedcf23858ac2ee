import type { ActionFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { api, methodNotAllowed } from '~/http/api.server';
import { readPinPayload } from '~/http/pin-payload.server';
import { requireUser } from '~/http/guards.server';
import { createTeamPin } from '~/services/teams.server';

/**
 * POST /api/teams/{teamId}/pins (multipart: name, description, totalQuantity, year, event and
 * repeated images; or JSON with data-URL images) -> 201 the new pin. An error body carries `error`.
 */
export const action = api(async ({ request, params }: ActionFunctionArgs) => {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const user = await requireUser(request);
  const { images, ...fields } = await readPinPayload(request);
  return json(await createTeamPin(user, params.id ?? '', fields, images ?? []), { status: 201 });
});

export const loader = api(async () => methodNotAllowed(['POST']));
