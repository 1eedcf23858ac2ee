/**
 * The loader and action of /profile (routes/profile.tsx re-exports them). They live here, not in
 * the route module, so that the page's browser bundle reaches none of the modules they import (the
 * services, zod and the form library): in the browser this file is one empty module. The page's
 * forms read the action's reply with ui/form-state.ts; the checking is the action's.
 */
import { parseWithZod } from '@conform-to/zod';
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { destroyUserSession, getSession } from '~/auth/session.server';
import type { AccountIntent } from '~/components/account-settings';
import { ChangeEmailSchema, ChangePasswordSchema, DeleteAccountSchema } from '~/forms/account';
import { ProfileSchema } from '~/forms/auth';
import { readFormData } from '~/http/body.server';
import { replyWithInvalid, replyWithServiceError } from '~/http/form-reply.server';
import { requireUserOr404 } from '~/http/guards.server';
import { redirectWithToast } from '~/http/toast.server';
import { changeEmail, changePassword, deleteAccount, hasPassword } from '~/services/account.server';
import { isAppError } from '~/services/errors';
import { accountFields, updateNickname, updateProfilePicture } from '~/services/users.server';

// /profile is not registered for signed-out visitors: 404.
export async function profileLoader({ request }: LoaderFunctionArgs) {
  const user = await requireUserOr404(request);
  return json({
    user: { ...accountFields(user), createdAt: user.createdAt.toISOString() },
    hasPassword: await hasPassword(user.id),
  });
}

const ACCOUNT_FORMS = { changeEmail: ChangeEmailSchema, changePassword: ChangePasswordSchema, deleteAccount: DeleteAccountSchema } as const;
const SECRET_FIELDS = ['currentPassword', 'newPassword', 'confirmPassword'];

/** The account forms (e-mail, password, delete): one schema and one service call each. */
async function accountAction(request: Request, user: Awaited<ReturnType<typeof requireUserOr404>>, intent: AccountIntent, formData: FormData) {
  const extra = { intent, error: null };
  const submission = parseWithZod(formData, { schema: ACCOUNT_FORMS[intent] });
  if (submission.status !== 'success') return replyWithInvalid(submission, { extra, hideFields: SECRET_FIELDS });
  try {
    if (intent === 'changeEmail') {
      const { email } = await changeEmail(user, submission.value);
      return redirectWithToast('/profile', { title: 'Email changed', description: `You now sign in with ${email}.`, variant: 'success' });
    }
    if (intent === 'changePassword') {
      const session = await getSession(request);
      await changePassword(user, submission.value, { keepSessionId: session.id || null });
      return redirectWithToast('/profile', { title: 'Password changed', description: 'You are still signed in here; other devices were signed out.', variant: 'success' });
    }
    await deleteAccount(user, submission.value);
    const cookie = await destroyUserSession(request);
    return redirectWithToast(
      '/',
      { title: 'Account deleted', description: 'Your collection and personal data are gone. Pins you added stay in the catalogue.', variant: 'default' },
      { headers: { 'Set-Cookie': cookie } },
    );
  } catch (error) {
    return replyWithServiceError(submission, error, { extra, hideFields: SECRET_FIELDS });
  }
}

export async function profileAction({ request }: ActionFunctionArgs) {
  const user = await requireUserOr404(request);
  const formData = await readFormData(request).catch((error: unknown) => error);
  if (!(formData instanceof FormData)) {
    const message = isAppError(formData) && formData.status === 413 ? 'Please select an image smaller than 5MB.' : 'Failed to upload profile picture';
    return json({ intent: 'picture' as const, error: message, lastResult: null }, { status: isAppError(formData) ? formData.status : 400 });
  }
  const intent = formData.get('intent');
  if (intent === 'changeEmail' || intent === 'changePassword' || intent === 'deleteAccount') return accountAction(request, user, intent, formData);
  if (intent === 'picture') {
    const file = formData.get('profilePicture');
    try {
      await updateProfilePicture(user, typeof file === 'string' ? null : file);
    } catch (error) {
      if (!isAppError(error) || error.status >= 500) throw error;
      const message =
        error.status === 413 ? 'Please select an image smaller than 5MB.' : error.status === 415 ? 'Please select an image file.' : error.message;
      return json({ intent: 'picture' as const, error: message, lastResult: null }, { status: error.status });
    }
    return redirectWithToast('/profile', { title: 'Profile picture updated', description: 'Your new picture is saved.', variant: 'success' });
  }
  const submission = parseWithZod(formData, { schema: ProfileSchema });
  if (submission.status !== 'success') {
    return json({ intent: 'nickname' as const, error: null, lastResult: submission.reply() }, { status: 400 });
  }
  try {
    await updateNickname(user, submission.value);
  } catch (error) {
    return replyWithServiceError(submission, error, { extra: { intent: 'nickname' as const, error: isAppError(error) ? error.message : null } });
  }
  return redirectWithToast('/profile', { title: 'Profile updated', description: 'Your display name is saved.', variant: 'success' });
}
