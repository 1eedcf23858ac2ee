import type { LoaderFunctionArgs } from '@remix-run/node';
import { api, methodNotAllowed } from '~/http/api.server';
import { requireUser } from '~/http/guards.server';
import { getOrder } from '~/services/orders.server';

/** GET /api/orders/{id}: one order with items and timeline (its buyer, its vendor, admins; else 404). */
export const loader = api(async ({ request, params }: LoaderFunctionArgs) => getOrder(await requireUser(request), params.id ?? ''));
export const action = api(async () => methodNotAllowed(['GET']));
