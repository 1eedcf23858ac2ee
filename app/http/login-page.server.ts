/**
 * The loader and action of /api/login (sign in) (routes/api.login.tsx re-exports them). They live here, not in
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
import { readDevice, rememberDevice } from '~/auth/device.server';
import { createUserSession } from '~/auth/session.server';
import { isSignedIn } from '~/http/guards.server';
import { LoginSchema } from '~/forms/auth';
import { verifyLogin } from '~/services/users.server';
import { readBody } from '~/http/body.server';

const OAUTH_ERRORS: Record<string, string> = {
  oauth: 'Signing in with the external provider failed. Please try again.',
  oauth_unverified: 'Your account at the sign-in provider has no verified e-mail address.',
  oauth_disabled: 'External sign-in is not configured on this site.',
};

/** GET /api/login: the sign-in page (a signed-in visitor goes straight on). */
export async function loginLoader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const redirectTo = safeRedirect(url.searchParams.get('redirectTo'), '/');
  if (await isSignedIn(request)) throw redirect(redirectTo);
  const oauth = oauthSettings();
  const error = OAUTH_ERRORS[url.searchParams.get('error') ?? ''] ?? null;
  return json({ redirectTo, oauth, error });
}

/** POST /api/login: e-mail and password; a new session id on success. */
export async function loginAction({ request, context }: ActionFunctionArgs) {
  const ip = (context as { clientIp?: string }).clientIp ?? 'unknown';
  // API clients may send JSON: same rules and answers (redirect with the session cookie on success).
  const formData = (request.headers.get('content-type') ?? '').includes('application/json')
    ? await readBody(request).then(toFormData, () => null)
    : await request.formData().catch(() => null);
  if (!formData) return json({ lastResult: null }, { status: 400 });
  const submission = parseWithZod(formData, { schema: LoginSchema });
  if (submission.status !== 'success') {
    return json({ lastResult: submission.reply({ hideFields: ['password'] }) }, { status: 400 });
  }
  try {
    const device = await readDevice(request);
    const user = await verifyLogin(submission.value, { ip, device });
    const headers = new Headers();
    headers.append('Set-Cookie', await createUserSession(request, user.id));
    headers.append('Set-Cookie', await rememberDevice(device, user.id));
    const target = submission.value.redirectTo ?? new URL(request.url).searchParams.get('redirectTo');
    return redirect(safeRedirect(target, '/'), { headers });
  } catch (error) {
    return replyWithServiceError(submission, error, { hideFields: ['password'] });
  }
}

function toFormData(body: Record<string, unknown>): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(body)) if (typeof value === 'string') form.set(key, value);
  return form;
}
