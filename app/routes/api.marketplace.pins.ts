import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { marketplaceQuerySchema } from '~/forms/marketplace';
import { api, methodNotAllowed } from '~/http/api.server';
import { requireUser } from '~/http/guards.server';
import { readListingPayload } from '~/http/listing-payload.server';
import { createListing, listListings } from '~/services/marketplace.server';
import { expireStaleOrders } from '~/services/orders.server';
import { readListQuery } from '~/utils/list-query';

/**
 * GET /api/marketplace/pins?search=&category=&vendorId=&pinId=&sort=&page=&size= -> { pins, total,
 * page, pageCount }: active listings of approved vendors (prices as dollars with 2 decimals).
 * POST /api/marketplace/pins: { name, description, price, stockQuantity, category, pinId? } (JSON,
 * or multipart with up to 5 `images`) -> 201 the listing. Approved vendors only.
 */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const user = await requireUser(request);
  const url = new URL(request.url);
  // the spec names the search `search`; the page's URL uses `q`
  if (url.searchParams.has('search') && !url.searchParams.has('q')) url.searchParams.set('q', url.searchParams.get('search') ?? '');
  const query = readListQuery(url, marketplaceQuerySchema);
  await expireStaleOrders();
  const result = await listListings(user, { q: query.q, ...query.filters, sort: query.sort, page: query.page, size: query.size });
  return { pins: result.pins, total: result.total, page: result.paging.page, pageCount: result.paging.pageCount };
});

export const action = api(async ({ request }: ActionFunctionArgs) => {
  if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
  const user = await requireUser(request);
  const { fields, images } = await readListingPayload(request);
  return json(await createListing(user, fields, images), { status: 201 });
});
