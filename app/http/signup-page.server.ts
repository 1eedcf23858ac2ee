/**
 * The loader and action of /signup (routes/signup.tsx re-exports them). They live here, not in
 * the route module, so that the page's browser bundle reaches none of the modules they import (the
 * services, zod and the form library): in the browser this file is one empty module. The page's
 * form reads the action's reply with ui/form-state.ts; the checking is the action's.
 */
import { parseWithZod } from '@conform-to/zod';
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json, redirect } from '@remix-run/node';
import { replyWithServiceError } from '~/http/form-reply.server';
import { oauthSettings } from '~/http/oauth.server';
import { safeRedirect } from '~/auth/redirect';
import { createUserSession } from '~/auth/session.server';
import { isSignedIn } from '~/http/guards.server';
import { SignupSchema } from '~/forms/auth';
import { createAccount } from '~/services/users.server';

export async function signupLoader({ request }: LoaderFunctionArgs) {
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get('redirectTo'), '/');
  if (await isSignedIn(request)) throw redirect(redirectTo);
  return json({ redirectTo, oauth: oauthSettings() });
}

/** Creates the account and signs it in; onboarding follows on the next page. */
export async function signupAction({ request, context }: ActionFunctionArgs) {
  const formData = await request.formData().catch(() => null);
  if (!formData) return json({ lastResult: null }, { status: 400 });
  const submission = parseWithZod(formData, { schema: SignupSchema });
  if (submission.status !== 'success') {
    return json({ lastResult: submission.reply({ hideFields: ['password'] }) }, { status: 400 });
  }
  try {
    const user = await createAccount(submission.value, { ip: (context as { clientIp?: string }).clientIp ?? 'unknown' });
    const cookie = await createUserSession(request, user.id);
    const target = submission.value.redirectTo ?? new URL(request.url).searchParams.get('redirectTo');
    return redirect(safeRedirect(target, '/'), { headers: { 'Set-Cookie': cookie } });
  } catch (error) {
    return replyWithServiceError(submission, error, { hideFields: ['password'] });
  }
}
