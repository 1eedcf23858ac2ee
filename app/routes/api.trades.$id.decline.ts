import type { ActionFunctionArgs } from '@remix-run/node';
import { api, methodNotAllowed } from '~/http/api.server';
import { requireUser } from '~/http/guards.server';
import { declineTrade } from '~/services/trades.server';

/** POST /api/trades/{id}/decline -> the proposal after it (409 when it is no longer open). */
export const loader = api(async () => methodNotAllowed(['POST']));

export const action = api(async ({ request, params }: ActionFunctionArgs) => {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const user = await requireUser(request);
  return declineTrade(user, params.id ?? '');
});
