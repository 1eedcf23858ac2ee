import { getFormProps, getInputProps, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useEffect, useState } from 'react';
import { requireUserOr404 } from '~/http/guards.server';
import { FieldError, FormErrors } from '~/components/ui/field';
import { Avatar } from '~/components/nav';
import { ProfilePictureEditor } from '~/components/profile-picture-editor';
import { useToast } from '~/components/toaster';
import { ProfileSchema } from '~/forms/auth';
import { isAppError } from '~/services/errors';
import { updateNickname, updateProfilePicture } from '~/services/users.server';
import { ROLE_LABELS } from '~/utils/constants';
import { formatDate } from '~/utils/format';
import { readFormData } from '~/http/body.server';
import { replyWithServiceError } from '~/http/form-reply.server';
import { redirectWithToast } from '~/http/toast.server';
import { displayName } from '~/utils/user';
import { AccountSettings, type AccountIntent } from '~/components/account-settings';
import { ChangeEmailSchema, ChangePasswordSchema, DeleteAccountSchema } from '~/forms/account';
import { changeEmail, changePassword, deleteAccount, hasPassword } from '~/services/account.server';
import { destroyUserSession, getSession } from '~/auth/session.server';
import { replyWithInvalid } from '~/http/form-reply.server';
import '~/root';

export const meta: MetaFunction = () => [{ title: 'Profile settings | PinDex' }];

// /profile is not registered for signed-out visitors: 404.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUserOr404(request);
  return json({
    user: {
      id: user.id,
      email: user.email,
      nickname: user.nickname,
      firstName: user.firstName,
      lastName: user.lastName,
      role: user.role,
      profileImageUrl: user.profileImageUrl,
      createdAt: user.createdAt.toISOString(),
    },
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

export async function action({ request }: ActionFunctionArgs) {
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

export default function Profile() {
  const { user, hasPassword: withPassword } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const toast = useToast();
  const saving = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'nickname';
  const [form, fields] = useForm({
    id: 'profile-nickname',
    lastResult: actionData?.intent === 'nickname' ? actionData.lastResult : undefined,
    defaultValue: { nickname: user.nickname ?? '' },
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ProfileSchema }),
  });
  const [nickname, setNickname] = useState(user.nickname ?? '');
  useEffect(() => setNickname(user.nickname ?? ''), [user.nickname]);

  useEffect(() => {
    if (!actionData?.error) return;
    if (actionData.intent !== 'nickname' && actionData.intent !== 'picture') return;
    if (actionData.intent === 'nickname') toast({ title: 'Update failed', description: actionData.error || 'Failed to update nickname', variant: 'destructive' });
    else toast({ title: 'Upload failed', description: actionData.error || 'Failed to upload profile picture', variant: 'destructive' });
  }, [actionData, toast]);

  const { key: nicknameKey, ...nicknameProps } = getInputProps(fields.nickname, { type: 'text' });
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ');
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <h1 className="text-2xl font-bold text-slate-900">Profile Settings</h1>

      <section className="card flex items-center gap-4 p-6" aria-label="Your account">
        <Avatar user={user} size={72} />
        <div className="min-w-0">
          <p className="text-lg font-semibold text-slate-900" data-testid="profile-display-name">
            {displayName(user)}
          </p>
          {name ? <p className="text-sm text-slate-600">{name}</p> : null}
          <p className="truncate text-sm text-slate-500">{user.email}</p>
          <p className="mt-1">
            <span className="badge bg-brand-50 text-brand-700">Role: {ROLE_LABELS[user.role]}</span>
          </p>
          <p className="mt-1 text-xs text-slate-500">Member since {formatDate(user.createdAt)}</p>
          <Link to="/suggestions" className="mt-1 inline-block text-sm font-medium text-brand-700 hover:underline">
            My Suggestions
          </Link>
        </div>
      </section>

      <section className="card p-6">
        <h2 id="picture-heading" className="text-lg font-semibold text-slate-900">
          Profile Picture
        </h2>
        <div className="mt-4">
          <ProfilePictureEditor error={actionData?.intent === 'picture' ? actionData.error : null} />
        </div>
      </section>

      <section className="card p-6">
        <h2 id="name-heading" className="text-lg font-semibold text-slate-900">
          Display Name
        </h2>
        <Form method="post" {...getFormProps(form)} className="mt-4 space-y-3">
          <input type="hidden" name="intent" value="nickname" />
          <FormErrors errors={form.errors} id={form.errorId} />
          <div>
            <label htmlFor={fields.nickname.id} className="label">
              Display name
            </label>
            <input
              key={nicknameKey}
              {...nicknameProps}
              className="input"
              autoComplete="nickname"
              onChange={(e) => setNickname(e.target.value)}
            />
            <FieldError field={fields.nickname} />
          </div>
          <button type="submit" className="btn-primary" disabled={saving || !nickname.trim()}>
            {saving ? 'Saving...' : 'Save'}
          </button>
        </Form>
      </section>

      <AccountSettings
        email={user.email}
        hasPassword={withPassword}
        intent={actionData && 'intent' in actionData ? actionData.intent : null}
        lastResult={actionData && 'lastResult' in actionData ? actionData.lastResult : null}
      />
    </div>
  );
}
