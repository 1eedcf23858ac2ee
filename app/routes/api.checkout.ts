import type { ActionFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { api, methodNotAllowed } from '~/http/api.server';
import { readBody } from '~/http/body.server';
import { requireUser } from '~/http/guards.server';
import { checkout } from '~/services/orders.server';

/**
 * POST /api/checkout: { expected?, note? } -> 201 { checkoutId, orders, provider, redirectUrl }.
 * One order per vendor; `expected` (the cart's token when it was shown) refuses a changed cart (409).
 */
export const action = api(async ({ request }: ActionFunctionArgs) => {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const user = await requireUser(request);
  return json(await checkout(user, await readBody(request), { origin: new URL(request.url).origin }), { status: 201 });
});
export const loader = api(async () => methodNotAllowed(['POST']));
