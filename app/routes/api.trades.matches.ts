import type { LoaderFunctionArgs } from '@remix-run/node';
import { api } from '~/http/api.server';
import { requireUser } from '~/http/guards.server';
import { listTradeMatches } from '~/services/trades.server';

/** GET /api/trades/matches?page= -> { matches: [{ user, give, receive, twoWay }], paging }, two-way first. */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const user = await requireUser(request);
  const page = Number(new URL(request.url).searchParams.get('page') ?? '1');
  return listTradeMatches(user, { page: Number.isInteger(page) && page > 0 ? page : 1 });
});
