import { getFormProps, getInputProps, useForm } from '~/components/ui/form-state';
import type { MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useEffect, useState } from 'react';
import { FieldError, FormErrors } from '~/components/ui/field';
import { Avatar } from '~/components/nav';
import { ProfilePictureEditor } from '~/components/profile-picture-editor';
import { useToast } from '~/components/toaster';
import { ROLE_LABELS } from '~/utils/constants';
import { formatDate } from '~/utils/format';
import { displayName } from '~/utils/user';
import { AccountSettings } from '~/components/account-settings';
import { profileAction, profileLoader } from '~/http/profile-page.server';
import '~/root';

export const meta: MetaFunction = () => [{ title: 'Profile settings | PinDex' }];

// /profile is not registered for signed-out visitors: 404.
export const loader = profileLoader;
export const action = profileAction;

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
  });
  const [nickname, setNickname] = useState(user.nickname ?? '');
  useEffect(() => setNickname(user.nickname ?? ''), [user.nickname]);

  useEffect(() => {
    if (!actionData?.error) return;
    if (actionData.intent !== 'nickname' && actionData.intent !== 'picture') return;
    if (actionData.intent === 'nickname') toast({ title: 'Update failed', description: actionData.error || 'Failed to update nickname', variant: 'destructive' });
    else toast({ title: 'Upload failed', description: actionData.error || 'Failed to upload profile picture', variant: 'destructive' });
  }, [actionData, toast]);

  const nicknameProps = getInputProps(fields.nickname, { type: 'text' });

  const nicknameKey = fields.nickname.key;
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
