import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { optionalUser } from '~/http/guards.server';
import { toPublicUser } from '~/services/users.server';
import { api, methodNotAllowed } from '~/http/api.server';

/** GET /api/auth/user: the signed-in user (with its vendor record, if any); 401 with no body otherwise. */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const user = await optionalUser(request);
  if (!user) return new Response(null, { status: 401, headers: { 'Cache-Control': 'no-store' } });
  return json(toPublicUser(user), { headers: { 'Cache-Control': 'no-store' } });
});

export async function action(_args: ActionFunctionArgs) {
  return methodNotAllowed(['GET']);
}
