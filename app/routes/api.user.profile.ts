import type { ActionFunctionArgs } from '@remix-run/node';
import { requireUser } from '~/http/guards.server';
import { toPublicUser, updateNickname } from '~/services/users.server';
import { api, methodNotAllowed } from '~/http/api.server';
import { readBody } from '~/http/body.server';

/** PATCH /api/user/profile { nickname } -> the updated user. */
export const action = api(async ({ request }: ActionFunctionArgs) => {
  if (request.method !== 'PATCH') return methodNotAllowed(['PATCH']);
  const user = await requireUser(request);
  const body = await readBody(request);
  return toPublicUser(await updateNickname(user, body));
});

export async function loader() {
  return methodNotAllowed(['PATCH']);
}
