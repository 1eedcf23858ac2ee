import type { ActionFunctionArgs } from '@remix-run/node';
import { api, methodNotAllowed } from '~/http/api.server';
import { readBody } from '~/http/body.server';
import { requireUser } from '~/http/guards.server';
import { changeOrderStatus } from '~/services/orders.server';

/**
 * POST /api/orders/{id}/status: { status, reason? } -> the order after the move. The vendor marks
 * paid, processing, shipped, delivered; cancelling needs a reason. Moves outside the machine: 409.
 */
export const action = api(async ({ request, params }: ActionFunctionArgs) => {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const user = await requireUser(request);
  return changeOrderStatus(user, params.id ?? '', await readBody(request));
});
export const loader = api(async () => methodNotAllowed(['POST']));
