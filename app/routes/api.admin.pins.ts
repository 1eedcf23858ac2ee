import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { ADMIN_ROLES } from '~/auth/permissions';
import { api, methodNotAllowed } from '~/http/api.server';
import { requireRole } from '~/http/guards.server';
import { readPinPayload } from '~/http/pin-payload.server';
import { createAdminPin, listAdminPins } from '~/services/admin/pins.server';

/**
 * GET /api/admin/pins?search&organizationId&rarity&featured&limit&offset -> { pins, total } (admins).
 * POST /api/admin/pins (multipart: fields as strings, distributionDate an ISO date, `images` files,
 * primaryPhotoIndex; or JSON) -> 201 the pin, identifiable at once.
 */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const user = await requireRole(request, ADMIN_ROLES);
  const p = new URL(request.url).searchParams;
  return listAdminPins(user, {
    search: p.get('search'),
    organizationId: p.get('organizationId'),
    rarity: p.get('rarity'),
    featured: p.get('featured'),
    limit: p.get('limit'),
    offset: p.get('offset'),
  });
});

export const action = api(async ({ request }: ActionFunctionArgs) => {
  if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
  const user = await requireRole(request, ADMIN_ROLES);
  return json(await createAdminPin(user, await readPinPayload(request)), { status: 201 });
});
