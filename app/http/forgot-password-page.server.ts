/**
 * The loader and action of /forgot-password (routes/forgot-password.tsx re-exports them). They live here, not in
 * the route module, so that the page's browser bundle reaches none of the modules they import (the
 * services, zod and the form library): in the browser this file is one empty module. The page's
 * form reads the action's reply with ui/form-state.ts; the checking is the action's.
 */
import { parseWithZod } from '@conform-to/zod';
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { ForgotPasswordSchema } from '~/forms/account';
import { replyWithInvalid, replyWithServiceError } from '~/http/form-reply.server';
import { requestPasswordReset } from '~/services/account.server';

export async function forgotPasswordLoader(_: LoaderFunctionArgs) {
  return json({});
}

/** Sends a reset link when mail is configured; the same answer whether or not the account exists. */
export async function forgotPasswordAction({ request, context }: ActionFunctionArgs) {
  const formData = await request.formData().catch(() => null);
  if (!formData) return json({ sent: null, lastResult: null }, { status: 400 });
  const submission = parseWithZod(formData, { schema: ForgotPasswordSchema });
  if (submission.status !== 'success') return replyWithInvalid(submission, { extra: { sent: null } });
  try {
    const { mailed } = await requestPasswordReset(submission.value, { ip: (context as { clientIp?: string }).clientIp ?? 'unknown' });
    return json({ sent: { mailed, email: submission.value.email }, lastResult: null });
  } catch (error) {
    return replyWithServiceError(submission, error, { extra: { sent: null } });
  }
}
