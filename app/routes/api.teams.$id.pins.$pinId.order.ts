import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { api, methodNotAllowed } from '~/http/api.server';
import { readBody } from '~/http/body.server';
import { requireUser } from '~/http/guards.server';
import { getPinOrder, setPinOrder } from '~/services/team-pin-orders.server';

/**
 * GET /api/teams/{teamId}/pins/{pinId}/order -> the team's order of that pin and each active
 * player's share (members of the team). PUT { quantity, shares? } (rosterId -> pins; left out for
 * an even split) -> the order (manager and admins).
 */
export const loader = api(async ({ request, params }: LoaderFunctionArgs) => {
  const user = await requireUser(request);
  return getPinOrder(user, params.id ?? '', params.pinId ?? '');
});

export const action = api(async ({ request, params }: ActionFunctionArgs) => {
  if (request.method !== 'PUT') return methodNotAllowed(['GET', 'PUT']);
  const user = await requireUser(request);
  return setPinOrder(user, params.id ?? '', params.pinId ?? '', await readBody(request));
});
