import type { ActionFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { api, methodNotAllowed } from '~/http/api.server';
import { readBody } from '~/http/body.server';
import { requireUser } from '~/http/guards.server';
import { rateTrade } from '~/services/trades.server';

/** POST /api/trades/{id}/rating { score: 1-5, comment? } -> 201 (a party of a completed trade, once). */
export const loader = api(async () => methodNotAllowed(['POST']));

export const action = api(async ({ request, params }: ActionFunctionArgs) => {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const user = await requireUser(request);
  return json(await rateTrade(user, params.id ?? '', await readBody(request)), { status: 201 });
});
