import { getFormProps, useForm } from '~/components/ui/form-state';
import type { MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { Field, FormErrors } from '~/components/ui/field';
import { MIN_PASSWORD_LENGTH } from '~/utils/constants';
import { resetPasswordLoader, resetPasswordAction } from '~/http/reset-password-page.server';
import '~/root';

export const meta: MetaFunction = () => [{ title: 'Choose a new password | PinDex' }];

export const loader = resetPasswordLoader;
export const action = resetPasswordAction;

export default function ResetPassword() {
  const { token, valid } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: 'reset-password',
    lastResult: actionData?.lastResult,
  });
  return (
    <div className="mx-auto max-w-md py-6">
      <div className="card p-6 sm:p-8">
        <h1 className="text-2xl font-bold text-slate-900">Choose a new password</h1>
        {valid || actionData ? (
          <Form method="post" {...getFormProps(form)} className="mt-6 space-y-4">
            <FormErrors errors={form.errors} id={form.errorId} />
            <input type="hidden" name="token" value={token} />
            <Field label="New password" field={fields.newPassword} type="password" autoComplete="new-password" description={`At least ${MIN_PASSWORD_LENGTH} characters.`} />
            <Field label="Repeat the new password" field={fields.confirmPassword} type="password" autoComplete="new-password" />
            <button type="submit" className="btn-primary w-full" disabled={navigation.state === 'submitting'}>
              Save New Password
            </button>
          </Form>
        ) : (
          <div role="alert" className="mt-4 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
            This reset link is invalid or has expired.{' '}
            <Link to="/forgot-password" className="font-semibold underline">
              Ask for a new one
            </Link>
            .
          </div>
        )}
      </div>
    </div>
  );
}
