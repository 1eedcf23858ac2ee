/**
 * The account part of /profile: change e-mail, change password, delete the account. Three plain
 * forms posting to the page (hidden intent), checked by the page's action with the schemas of
 * ~/forms/account; each form shows the action's reply in place (ui/form-state.ts).
 */
import { Form, useNavigation } from '@remix-run/react';
import { getFormProps, useForm, type SubmissionResult } from '~/components/ui/form-state';
import { MIN_PASSWORD_LENGTH } from '~/utils/constants';
import { Field, FormErrors } from './ui/field';

export type AccountIntent = 'changeEmail' | 'changePassword' | 'deleteAccount';

function useAccountForm(intent: AccountIntent, current: { intent: string | null; lastResult: unknown }, defaultValue?: Record<string, string>) {
  return useForm({
    id: `account-${intent}`,
    lastResult: current.intent === intent ? (current.lastResult as SubmissionResult<string[]>) : undefined,
    defaultValue,
  });
}

export function AccountSettings(props: { email: string; hasPassword: boolean; intent: string | null; lastResult: unknown }) {
  const { email, hasPassword } = props;
  const navigation = useNavigation();
  const busy = (intent: AccountIntent) => navigation.state !== 'idle' && navigation.formData?.get('intent') === intent;
  const [emailForm, emailFields] = useAccountForm('changeEmail', props, { email });
  const [passwordForm, passwordFields] = useAccountForm('changePassword', props);
  const [deleteForm, deleteFields] = useAccountForm('deleteAccount', props);

  return (
    <>
      <section className="card p-6" aria-labelledby="email-heading">
        <h2 id="email-heading" className="text-lg font-semibold text-slate-900">
          Email
        </h2>
        <Form method="post" {...getFormProps(emailForm)} className="mt-4 space-y-3">
          <input type="hidden" name="intent" value="changeEmail" />
          <FormErrors errors={emailForm.errors} id={emailForm.errorId} />
          <Field label="New email" field={emailFields.email} type="email" autoComplete="email" />
          {hasPassword ? <Field label="Current password" field={emailFields.currentPassword} type="password" autoComplete="current-password" /> : null}
          <button type="submit" className="btn-primary" disabled={busy('changeEmail')}>
            {busy('changeEmail') ? 'Saving...' : 'Change Email'}
          </button>
        </Form>
      </section>

      {hasPassword ? (
        <section className="card p-6" aria-labelledby="password-heading">
          <h2 id="password-heading" className="text-lg font-semibold text-slate-900">
            Password
          </h2>
          <Form method="post" {...getFormProps(passwordForm)} className="mt-4 space-y-3">
            <input type="hidden" name="intent" value="changePassword" />
            <FormErrors errors={passwordForm.errors} id={passwordForm.errorId} />
            <Field label="Current password" field={passwordFields.currentPassword} type="password" autoComplete="current-password" />
            <Field label="New password" field={passwordFields.newPassword} type="password" autoComplete="new-password" description={`At least ${MIN_PASSWORD_LENGTH} characters.`} />
            <Field label="Repeat the new password" field={passwordFields.confirmPassword} type="password" autoComplete="new-password" />
            <button type="submit" className="btn-primary" disabled={busy('changePassword')}>
              {busy('changePassword') ? 'Saving...' : 'Change Password'}
            </button>
          </Form>
        </section>
      ) : null}

      <section className="card border-red-200 p-6" aria-labelledby="delete-heading">
        <h2 id="delete-heading" className="text-lg font-semibold text-red-800">
          Delete account
        </h2>
        <p className="mt-1 text-sm text-slate-700">
          Your collection, badges, sign-in and personal data are deleted. Pins you added stay in the catalogue, shown as added by a deleted user.
          This cannot be undone.
        </p>
        <Form method="post" {...getFormProps(deleteForm)} className="mt-4 space-y-3">
          <input type="hidden" name="intent" value="deleteAccount" />
          <FormErrors errors={deleteForm.errors} id={deleteForm.errorId} />
          {hasPassword ? (
            <Field label="Current password" field={deleteFields.currentPassword} type="password" autoComplete="current-password" />
          ) : (
            <Field label="Type your email to confirm" field={deleteFields.confirmEmail} type="email" autoComplete="off" />
          )}
          <button type="submit" className="btn-danger" disabled={busy('deleteAccount')}>
            {busy('deleteAccount') ? 'Deleting...' : 'Delete My Account'}
          </button>
        </Form>
      </section>
    </>
  );
}
