import type { ActionFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { api, methodNotAllowed } from '~/http/api.server';
import { readBody } from '~/http/body.server';
import { requireUser } from '~/http/guards.server';
import { submitVendorApplication } from '~/services/vendors.server';

/**
 * POST /api/vendors: { businessName, description, contactEmail } -> 201 the vendor record, pending.
 * The client then reloads the current user (GET /api/auth/user), which carries it as `vendor`.
 */
export const action = api(async ({ request }: ActionFunctionArgs) => {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const user = await requireUser(request);
  return json(await submitVendorApplication(user, await readBody(request)), { status: 201 });
});

export const loader = api(async () => methodNotAllowed(['POST']));
