import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { api, methodNotAllowed } from '~/http/api.server';
import { readBody } from '~/http/body.server';
import { requireUser } from '~/http/guards.server';
import { Invalid } from '~/services/errors';
import { listTradeProposals, PROPOSAL_BOXES, proposeTrade, type ProposalBox } from '~/services/trades.server';
import { isOneOf } from '~/utils/constants';

/**
 * GET /api/trades?box=incoming|outgoing|history&page= -> { proposals, paging } (default incoming).
 * POST { recipientId, give: [pinId], receive: [pinId], note? } -> 201 the proposal.
 */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const box = url.searchParams.get('box') ?? 'incoming';
  if (!isOneOf(PROPOSAL_BOXES, box)) throw new Invalid('box must be incoming, outgoing or history', { box: ['box must be incoming, outgoing or history'] });
  const page = Number(url.searchParams.get('page') ?? '1');
  return listTradeProposals(user, box as ProposalBox, { page: Number.isInteger(page) && page > 0 ? page : 1 });
});

export const action = api(async ({ request }: ActionFunctionArgs) => {
  if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
  const user = await requireUser(request);
  const body = await readBody(request);
  return json(await proposeTrade(user, body), { status: 201 });
});
