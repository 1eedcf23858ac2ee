import type { ActionFunctionArgs } from '@remix-run/node';
import { requireUser } from '~/http/guards.server';
import { completeOnboarding, toPublicUser } from '~/services/users.server';
import { api, methodNotAllowed } from '~/http/api.server';
import { readBody } from '~/http/body.server';

/** POST /api/auth/complete-onboarding { nickname, role } -> the updated user. */
export const action = api(async ({ request }: ActionFunctionArgs) => {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const user = await requireUser(request);
  const body = await readBody(request);
  return toPublicUser(await completeOnboarding(user, body));
});

export async function loader() {
  return methodNotAllowed(['POST']);
}
