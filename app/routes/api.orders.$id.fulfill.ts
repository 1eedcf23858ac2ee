import type { ActionFunctionArgs } from '@remix-run/node';
import { api, methodNotAllowed } from '~/http/api.server';
import { requireUser } from '~/http/guards.server';
import { fulfilOrder } from '~/services/orders.server';

/** POST /api/orders/{id}/fulfill: the order's vendor ships a paid order (409 unless paid). */
export const action = api(async ({ request, params }: ActionFunctionArgs) => {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  return fulfilOrder(await requireUser(request), params.id ?? '');
});
export const loader = api(async () => methodNotAllowed(['POST']));
