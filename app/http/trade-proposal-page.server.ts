/**
 * The loader and action of /trades/new, a proposal or a counter-offer (routes/trades_.new.tsx
 * re-exports them). They live here, not in the route module, so that the page's browser bundle
 * reaches none of the modules they import (the services, zod and the form library): in the browser
 * this file is one empty module. The page's form reads the action's reply with ui/form-state.ts;
 * the checking is the action's.
 */
import { parseWithZod } from '@conform-to/zod';
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { proposeTradeSchema, TRADE_EXPIRY_DAYS } from '~/forms/trades';
import { replyWithInvalid, replyWithServiceError } from '~/http/form-reply.server';
import { requirePageUser } from '~/http/guards.server';
import { page } from '~/http/page.server';
import { redirectWithToast } from '~/http/toast.server';
import { getProposalForm, proposeTrade } from '~/services/trades.server';

export async function tradeProposalLoader({ request }: LoaderFunctionArgs) {
  const user = await requirePageUser(request);
  const url = new URL(request.url);
  return page(async () => json(await getProposalForm(user, { with: url.searchParams.get('with'), counter: url.searchParams.get('counter') })));
}

export async function tradeProposalAction({ request }: ActionFunctionArgs) {
  const user = await requirePageUser(request);
  const form = await request.formData().catch(() => new FormData());
  const submission = parseWithZod(form, { schema: proposeTradeSchema });
  if (submission.status !== 'success') return replyWithInvalid(submission);
  try {
    const trade = await proposeTrade(user, submission.value);
    return redirectWithToast(`/trades?tab=outgoing#trade-${trade.id}`, {
      title: submission.value.counterTo ? 'Counter-offer sent' : 'Trade proposed',
      description: `${trade.recipient.name} has ${TRADE_EXPIRY_DAYS} days to answer.`,
      variant: 'success',
    });
  } catch (error) {
    return replyWithServiceError(submission, error);
  }
}
