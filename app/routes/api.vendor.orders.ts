import type { LoaderFunctionArgs } from '@remix-run/node';
import { vendorOrdersQuerySchema } from '~/forms/marketplace';
import { api } from '~/http/api.server';
import { requireUser } from '~/http/guards.server';
import { listVendorOrders } from '~/services/orders.server';
import { readListQuery } from '~/utils/list-query';

/**
 * GET /api/vendor/orders?status=active|pending|paid|...&page= -> { orders, total, counts }: the
 * calling vendor's orders (id, status, totalAmount, createdAt, plus items, buyer and timeline).
 */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const user = await requireUser(request);
  const query = readListQuery(new URL(request.url), vendorOrdersQuerySchema);
  const result = await listVendorOrders(user, { status: query.filters.status, page: query.page });
  return { orders: result.orders, total: result.total, counts: result.counts };
});
