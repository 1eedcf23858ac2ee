import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { api, methodNotAllowed } from '~/http/api.server';
import { readBody } from '~/http/body.server';
import { requireUser } from '~/http/guards.server';
import { addToCart, getCart } from '~/services/cart.server';

/**
 * GET /api/cart -> the cart grouped by vendor, with today's prices and stock (changes pointed out).
 * POST /api/cart: { marketplacePinId, quantity? } -> 201 the cart after adding.
 */
export const loader = api(async ({ request }: LoaderFunctionArgs) => getCart(await requireUser(request)));

export const action = api(async ({ request }: ActionFunctionArgs) => {
  if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
  const user = await requireUser(request);
  await addToCart(user, await readBody(request));
  return json(await getCart(user), { status: 201 });
});
