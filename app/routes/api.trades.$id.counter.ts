import type { ActionFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { api, methodNotAllowed } from '~/http/api.server';
import { readBody } from '~/http/body.server';
import { requireUser } from '~/http/guards.server';
import { counterTrade } from '~/services/trades.server';

/**
 * POST /api/trades/{id}/counter { give: [pinId], receive: [pinId], note? } -> 201 the new proposal
 * (to the original proposer); the original becomes 'countered'. Only its recipient, while open.
 */
export const loader = api(async () => methodNotAllowed(['POST']));

export const action = api(async ({ request, params }: ActionFunctionArgs) => {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const user = await requireUser(request);
  const body = await readBody(request);
  return json(await counterTrade(user, params.id ?? '', body), { status: 201 });
});
