import type { ActionFunctionArgs } from '@remix-run/node';
import { api, methodNotAllowed } from '~/http/api.server';
import { readBody } from '~/http/body.server';
import { requireUser } from '~/http/guards.server';
import { getCart, removeFromCart, setCartQuantity } from '~/services/cart.server';

/**
 * PATCH /api/cart/{listingId}: { quantity } (1..99, at most what is in stock) -> the cart.
 * DELETE /api/cart/{listingId} -> the cart without that line.
 */
export const action = api(async ({ request, params }: ActionFunctionArgs) => {
  const user = await requireUser(request);
  if (request.method === 'PATCH' || request.method === 'PUT') await setCartQuantity(user, params.listingId ?? '', await readBody(request));
  else if (request.method === 'DELETE') await removeFromCart(user, params.listingId ?? '');
  else return methodNotAllowed(['PATCH', 'PUT', 'DELETE']);
  return getCart(user);
});
export const loader = api(async () => methodNotAllowed(['PATCH', 'PUT', 'DELETE']));
