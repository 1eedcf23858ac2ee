import type { ActionFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { api, methodNotAllowed } from '~/http/api.server';
import { readBody } from '~/http/body.server';
import { requireUser } from '~/http/guards.server';
import { addStaff } from '~/services/teams.server';

/**
 * POST /api/teams/{teamId}/staff: { userName (an account's e-mail or display name), role } -> 201
 * the staff entry. No such account: 400 with issues.userName saying so.
 */
export const action = api(async ({ request, params }: ActionFunctionArgs) => {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const user = await requireUser(request);
  return json(await addStaff(user, params.id ?? '', await readBody(request)), { status: 201 });
});

export const loader = api(async () => methodNotAllowed(['POST']));
