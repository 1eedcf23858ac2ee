import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { api, methodNotAllowed } from '~/http/api.server';
import { readBody } from '~/http/body.server';
import { requireUser } from '~/http/guards.server';
import { getVendorApplication } from '~/services/admin/vendors.server';
import { reviewVendorApplication } from '~/services/vendor-review.server';

/**
 * GET /api/admin/vendors/{id}: the application with its history.
 * PATCH /api/admin/vendors/{id} { status, notes?, rejectionReason? }: moves it (400 a rejection
 * without a reason, 409 a move the state machine does not allow) -> the application.
 */
export const loader = api(async ({ request, params }: LoaderFunctionArgs) => getVendorApplication(await requireUser(request), params.id ?? ''));

export const action = api(async ({ request, params }: ActionFunctionArgs) => {
  if (request.method !== 'PATCH') return methodNotAllowed(['GET', 'PATCH']);
  const user = await requireUser(request);
  const id = params.id ?? '';
  await reviewVendorApplication(user, id, await readBody(request));
  return getVendorApplication(user, id);
});
