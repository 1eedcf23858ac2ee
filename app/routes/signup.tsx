import { getFormProps, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json, redirect } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useEffect } from 'react';
import { replyWithServiceError } from '~/http/form-reply.server';
import { oauthSettings } from '~/http/oauth.server';
import { safeRedirect, withRedirectTo } from '~/auth/redirect';
import { createUserSession } from '~/auth/session.server';
import { isSignedIn } from '~/http/guards.server';
import { Field, FormErrors } from '~/components/ui/field';
import { MIN_PASSWORD_LENGTH, SignupSchema } from '~/forms/auth';
import { createAccount } from '~/services/users.server';
import '~/root';

export const meta: MetaFunction = () => [{ title: 'Create an account | PinDex' }];

export async function loader({ request }: LoaderFunctionArgs) {
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get('redirectTo'), '/');
  if (await isSignedIn(request)) throw redirect(redirectTo);
  return json({ redirectTo, oauth: oauthSettings() });
}

/** Creates the account and signs it in; onboarding follows on the next page. */
export async function action({ request, context }: ActionFunctionArgs) {
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

export default function SignUp() {
  const { redirectTo, oauth } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const pending = navigation.state === 'submitting' && navigation.formAction?.startsWith('/signup');
  const [form, fields] = useForm({
    lastResult: actionData?.lastResult,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SignupSchema }),
  });
  // A refused password is never kept in the field (the server does the same without JavaScript).
  useEffect(() => {
    const input = document.getElementById(fields.password.id);
    if (actionData && input instanceof HTMLInputElement) input.value = '';
  }, [actionData, fields.password.id]);
  const loginHref = withRedirectTo('/api/login', redirectTo);

  return (
    <div className="mx-auto max-w-md py-6">
      <div className="card p-6 sm:p-8">
        <h1 className="text-2xl font-bold text-slate-900">Create your account</h1>
        <p className="mt-1 text-sm text-slate-600">Keep your pin collection, earn badges and join your team.</p>
        {oauth.enabled ? (
          <a href={withRedirectTo('/api/login/oauth', redirectTo)} className="btn-secondary mt-6 w-full">
            Continue with {oauth.label}
          </a>
        ) : null}
        <Form method="post" action={withRedirectTo('/signup', redirectTo)} {...getFormProps(form)} className="mt-6 space-y-4">
          <FormErrors errors={form.errors} id={form.errorId} />
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="First name" field={fields.firstName} autoComplete="given-name" />
            <Field label="Last name" field={fields.lastName} autoComplete="family-name" />
          </div>
          <Field label="Email" field={fields.email} type="email" autoComplete="email" />
          <Field
            label="Password"
            field={fields.password}
            type="password"
            autoComplete="new-password"
            description={`At least ${MIN_PASSWORD_LENGTH} characters.`}
          />
          <button type="submit" className="btn-primary w-full" disabled={pending}>
            {pending ? 'Creating account...' : 'Create Account'}
          </button>
        </Form>
        <p className="mt-6 text-center text-sm text-slate-600">
          Already have an account?{' '}
          <Link to={loginHref} className="font-semibold text-brand-700 hover:underline">
            Sign in
          </Link>
        </p>
      </div>
    </div>
  );
}
