/**
 * The loader and action of a team pin's order, /teams/{id}/pins/{pinId}/order (the route module
 * re-exports them). They live here, not in the route module, so that the page's browser bundle
 * reaches none of the modules they import (the services, zod and the form library): in the
 * browser this file is one empty module. The form reads the action's reply with ui/form-state.ts.
 */
import { parseWithZod } from '@conform-to/zod';
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { pinOrderFormSchema } from '~/forms/teams';
import { replyWithServiceError } from '~/http/form-reply.server';
import { requireUserOr404 } from '~/http/guards.server';
import { page } from '~/http/page.server';
import { redirectWithToast } from '~/http/toast.server';
import { getPinOrder, setPinOrder } from '~/services/team-pin-orders.server';
import { formatCount } from '~/utils/format';

/** /teams/{id}/pins/{pinId}/order: the team's order of one of its pins, and each player's share. */
export async function pinOrderLoader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUserOr404(request);
  return page(async () => {
    const order = await getPinOrder(user, params.id ?? '', params.pinId ?? '');
    return json({ order, teamName: order.teamName });
  });
}

export async function pinOrderAction({ request, params }: ActionFunctionArgs) {
  const user = await requireUserOr404(request);
  const teamId = params.id ?? '';
  const pinId = params.pinId ?? '';
  const form = await request.formData().catch(() => null);
  if (!form) throw json({ message: 'The form could not be read' }, { status: 400 });
  const submission = parseWithZod(form, { schema: pinOrderFormSchema });
  if (submission.status !== 'success') return json({ lastResult: submission.reply() }, { status: 400 });
  const { quantity, split, shares } = submission.value;
  try {
    const saved = await setPinOrder(user, teamId, pinId, { quantity, shares: split === 'custom' ? (shares ?? {}) : null });
    return redirectWithToast(`/teams/${teamId}#team-pins-heading`, {
      title: 'Pin order saved',
      description: `${formatCount(quantity)} × ${saved.pin.name}, ${split === 'custom' ? 'split as you set it' : 'split evenly among the players'}.`,
      variant: 'success',
    });
  } catch (error) {
    return replyWithServiceError(submission, error, { refusalAsFormError: true });
  }
}
