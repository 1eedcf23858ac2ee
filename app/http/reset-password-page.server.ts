/**
 * The loader and action of /reset-password (routes/reset-password.tsx re-exports them). They live here, not in
 * the route module, so that the page's browser bundle reaches none of the modules they import (the
 * services, zod and the form library): in the browser this file is one empty module. The page's
 * form reads the action's reply with ui/form-state.ts; the checking is the action's.
 */
import { parseWithZod } from '@conform-to/zod';
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { ResetPasswordSchema } from '~/forms/account';
import { replyWithInvalid, replyWithServiceError } from '~/http/form-reply.server';
import { redirectWithToast } from '~/http/toast.server';
import { checkResetToken, resetPassword } from '~/services/account.server';

/** /reset-password?token=…: the form while the link is good, else what to do next. */
export async function resetPasswordLoader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get('token') ?? '';
  return json({ token, valid: await checkResetToken(token) });
}

export async function resetPasswordAction({ request, context }: ActionFunctionArgs) {
  const formData = await request.formData().catch(() => null);
  if (!formData) return json({ lastResult: null }, { status: 400 });
  const submission = parseWithZod(formData, { schema: ResetPasswordSchema });
  if (submission.status !== 'success') return replyWithInvalid(submission, { hideFields: ['newPassword', 'confirmPassword'] });
  try {
    await resetPassword(submission.value, { ip: (context as { clientIp?: string }).clientIp ?? 'unknown' });
  } catch (error) {
    return replyWithServiceError(submission, error, { hideFields: ['newPassword', 'confirmPassword'] });
  }
  return redirectWithToast('/api/login', { title: 'Password changed', description: 'Sign in with your new password.', variant: 'success' });
}
