import type { LoaderFunctionArgs } from '@remix-run/node';
import { api, methodNotAllowed } from '~/http/api.server';
import { requireUser } from '~/http/guards.server';
import { listVendorApplications } from '~/services/admin/vendors.server';

/** GET /api/admin/vendors?status&search&limit&offset -> { applications, total, counts } (admins). */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const user = await requireUser(request);
  const p = new URL(request.url).searchParams;
  return listVendorApplications(user, { status: p.get('status'), search: p.get('search'), limit: p.get('limit'), offset: p.get('offset') });
});

export const action = api(async () => methodNotAllowed(['GET']));
