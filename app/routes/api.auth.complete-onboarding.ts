import type { ActionFunctionArgs } from '@remix-run/node';
import { getOptionalUser } from '~/auth/user.server';
import { completeOnboarding, toPublicUser } from '~/services/users.server';
import { api, methodNotAllowed, readBody } from '~/utils/http.server';

/** POST /api/auth/complete-onboarding { nickname, role } -> the updated user. */
export const action = api(async ({ request }: ActionFunctionArgs) => {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const user = await getOptionalUser(request);
  const body = await readBody(request);
  return toPublicUser(await completeOnboarding(user, body));
});

export async function loader() {
  return methodNotAllowed(['POST']);
}
