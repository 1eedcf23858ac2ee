import { getFormProps, useForm } from '~/components/ui/form-state';
import type { MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useNavigation } from '@remix-run/react';
import { Field, FormErrors } from '~/components/ui/field';
import { forgotPasswordLoader, forgotPasswordAction } from '~/http/forgot-password-page.server';
import '~/root';

export const meta: MetaFunction = () => [{ title: 'Forgot your password? | PinDex' }];

export const loader = forgotPasswordLoader;
export const action = forgotPasswordAction;

export default function ForgotPassword() {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const pending = navigation.state === 'submitting';
  const [form, fields] = useForm({
    id: 'forgot-password',
    lastResult: actionData?.lastResult,
  });
  const sent = actionData?.sent;
  return (
    <div className="mx-auto max-w-md py-6">
      <div className="card p-6 sm:p-8">
        <h1 className="text-2xl font-bold text-slate-900">Forgot your password?</h1>
        {sent ? (
          <div role="status" className="mt-4 space-y-2 rounded-md border border-green-200 bg-green-50 p-3 text-sm text-green-900" data-testid="reset-sent">
            {sent.mailed ? (
              <p>
                If an account uses <strong>{sent.email}</strong>, we have sent it a link to choose a new password. The link works once, for one
                hour.
              </p>
            ) : (
              <p>
                This site sends no e-mail. Ask the person who runs it for a reset link: they can make one for <strong>{sent.email}</strong> with{' '}
                <code>npm run user:reset-link</code>.
              </p>
            )}
          </div>
        ) : (
          <>
            <p className="mt-1 text-sm text-slate-600">Enter the e-mail of your account and we will send you a link to choose a new password.</p>
            <Form method="post" {...getFormProps(form)} className="mt-6 space-y-4">
              <FormErrors errors={form.errors} id={form.errorId} />
              <Field label="Email" field={fields.email} type="email" autoComplete="email" />
              <button type="submit" className="btn-primary w-full" disabled={pending}>
                {pending ? 'Sending...' : 'Send Reset Link'}
              </button>
            </Form>
          </>
        )}
        <p className="mt-6 text-center text-sm text-slate-600">
          <Link to="/api/login" className="font-semibold text-brand-700 hover:underline">
            Back to sign in
          </Link>
        </p>
      </div>
    </div>
  );
}
