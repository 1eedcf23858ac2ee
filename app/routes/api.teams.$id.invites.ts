import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { api, methodNotAllowed } from '~/http/api.server';
import { readBody } from '~/http/body.server';
import { requireUser } from '~/http/guards.server';
import { createInvite, listInvites } from '~/services/team-invites.server';

/**
 * GET /api/teams/{teamId}/invites -> { invites } (the team's links, newest first).
 * POST { rosterId } -> 201 the invite, with `path` (/join/{token}) to share. Manager and admins.
 */
export const loader = api(async ({ request, params }: LoaderFunctionArgs) => {
  const user = await requireUser(request);
  return { invites: await listInvites(user, params.id ?? '') };
});

export const action = api(async ({ request, params }: ActionFunctionArgs) => {
  if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
  const user = await requireUser(request);
  const body = await readBody(request);
  return json(await createInvite(user, params.id ?? '', body.rosterId), { status: 201 });
});
