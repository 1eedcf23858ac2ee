import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { api, methodNotAllowed } from '~/http/api.server';
import { readBody } from '~/http/body.server';
import { optionalUser, requireUser } from '~/http/guards.server';
import { addPinComment, listPinComments } from '~/services/community.server';

/** GET /api/pins/{id}/comments -> the pin's comments (oldest first). POST { content } -> 201 the comment. */
export const loader = api(async ({ request, params }: LoaderFunctionArgs) => {
  const user = await optionalUser(request);
  return listPinComments(user, params.id ?? '');
});

export const action = api(async ({ request, params }: ActionFunctionArgs) => {
  if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
  const user = await requireUser(request, 'Please sign in to comment');
  const body = await readBody(request);
  return json(await addPinComment(user, params.id ?? '', body), { status: 201 });
});
