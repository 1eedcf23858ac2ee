import type { LoaderFunctionArgs } from '@remix-run/node';
import { api } from '~/http/api.server';
import { requireUser } from '~/http/guards.server';
import { listMyOrders } from '~/services/orders.server';

/** GET /api/orders?page= -> { orders, total }: the caller's orders as a buyer, newest first. */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const user = await requireUser(request);
  const page = Number(new URL(request.url).searchParams.get('page') ?? '1');
  const result = await listMyOrders(user, { page: Number.isSafeInteger(page) && page > 0 ? page : 1 });
  return { orders: result.orders, total: result.total };
});
