import type { ActionFunctionArgs } from '@remix-run/node';
import { api, methodNotAllowed } from '~/http/api.server';
import { readBody } from '~/http/body.server';
import { requireUser } from '~/http/guards.server';
import { deletePinComment, editPinComment } from '~/services/community.server';

/** PATCH /api/comments/{id} { content } -> the comment (its author only). DELETE -> { id, pinId } (author or admin). */
export const loader = api(async () => methodNotAllowed(['PATCH', 'DELETE']));

export const action = api(async ({ request, params }: ActionFunctionArgs) => {
  const user = await requireUser(request, 'Please sign in to comment');
  if (request.method === 'PATCH') return editPinComment(user, params.id ?? '', await readBody(request));
  if (request.method === 'DELETE') return deletePinComment(user, params.id ?? '');
  return methodNotAllowed(['PATCH', 'DELETE']);
});
