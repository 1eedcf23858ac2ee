import type { ActionFunctionArgs } from '@remix-run/node';
import { api, methodNotAllowed } from '~/http/api.server';
import { readBody } from '~/http/body.server';
import { requireUser } from '~/http/guards.server';
import { cancelOrder } from '~/services/orders.server';

/** POST /api/orders/{id}/cancel: { reason } -> the order, cancelled (buyer: pending only; vendor: pending or paid). */
export const action = api(async ({ request, params }: ActionFunctionArgs) => {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const user = await requireUser(request);
  return cancelOrder(user, params.id ?? '', await readBody(request));
});
export const loader = api(async () => methodNotAllowed(['POST']));
