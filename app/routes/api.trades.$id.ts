import type { LoaderFunctionArgs } from '@remix-run/node';
import { api } from '~/http/api.server';
import { requireUser } from '~/http/guards.server';
import { getTradeProposal } from '~/services/trades.server';

/** GET /api/trades/{id} -> the proposal (its two parties and admins; anyone else 404). */
export const loader = api(async ({ request, params }: LoaderFunctionArgs) => {
  const user = await requireUser(request);
  return getTradeProposal(user, params.id ?? '');
});
