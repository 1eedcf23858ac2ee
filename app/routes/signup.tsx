import { getFormProps, useForm } from '~/components/ui/form-state';
import type { MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useEffect } from 'react';
import { withRedirectTo } from '~/auth/redirect';
import { Field, FormErrors } from '~/components/ui/field';
import { MIN_PASSWORD_LENGTH } from '~/utils/constants';
import { signupLoader, signupAction } from '~/http/signup-page.server';
import '~/root';

export const meta: MetaFunction = () => [{ title: 'Create an account | PinDex' }];

export const loader = signupLoader;
export const action = signupAction;

export default function SignUp() {
  const { redirectTo, oauth } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const pending = navigation.state === 'submitting' && navigation.formAction?.startsWith('/signup');
  const [form, fields] = useForm({
    id: 'signup',
    lastResult: actionData?.lastResult,
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
