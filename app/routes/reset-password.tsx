import { getFormProps, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { Field, FormErrors } from '~/components/ui/field';
import { MIN_PASSWORD_LENGTH } from '~/forms/auth';
import { ResetPasswordSchema } from '~/forms/account';
import { replyWithInvalid, replyWithServiceError } from '~/http/form-reply.server';
import { redirectWithToast } from '~/http/toast.server';
import { checkResetToken, resetPassword } from '~/services/account.server';
import '~/root';

export const meta: MetaFunction = () => [{ title: 'Choose a new password | PinDex' }];

/** /reset-password?token=…: the form while the link is good, else what to do next. */
export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get('token') ?? '';
  return json({ token, valid: await checkResetToken(token) });
}

export async function action({ request, context }: ActionFunctionArgs) {
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

export default function ResetPassword() {
  const { token, valid } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    lastResult: actionData?.lastResult,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ResetPasswordSchema }),
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
