import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { api, methodNotAllowed } from '~/http/api.server';
import { requireUser } from '~/http/guards.server';
import { readListingPayload } from '~/http/listing-payload.server';
import { getListing, updateListing } from '~/services/marketplace.server';

/**
 * GET /api/marketplace/pins/{id}: one listing (buyers while it is on sale; its vendor always).
 * PATCH /api/marketplace/pins/{id}: any of name, description, price, stockQuantity, category, pinId,
 * isActive, keepImages (JSON or multipart with new `images`). Its vendor (or an admin) only.
 */
export const loader = api(async ({ request, params }: LoaderFunctionArgs) => getListing(await requireUser(request), params.id ?? ''));

export const action = api(async ({ request, params }: ActionFunctionArgs) => {
  if (request.method !== 'PATCH' && request.method !== 'PUT') return methodNotAllowed(['GET', 'PATCH', 'PUT']);
  const user = await requireUser(request);
  const { fields, images } = await readListingPayload(request);
  return updateListing(user, params.id ?? '', fields, images);
});
