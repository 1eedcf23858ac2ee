import { getFormProps, useForm } from '~/components/ui/form-state';
import type { MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useEffect } from 'react';
import { withRedirectTo } from '~/auth/redirect';
import { Field, FormErrors } from '~/components/ui/field';
import { loginLoader, loginAction } from '~/http/login-page.server';
import '~/root';

export const meta: MetaFunction = () => [{ title: 'Sign In | PinDex' }];

export const loader = loginLoader;
export const action = loginAction;

export default function SignIn() {
  const { redirectTo, oauth, error } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  // The form posts to its own URL with the target in the query, so that a refused attempt (and the
  // page the server renders for it without JavaScript) still knows where to go after the next one.
  const formAction = withRedirectTo('/api/login', redirectTo);
  const navigation = useNavigation();
  const pending = navigation.state === 'submitting' && navigation.formAction?.startsWith('/api/login');
  const [form, fields] = useForm({
    id: 'login',
    lastResult: actionData?.lastResult,
  });
  // A refused password is never kept in the field (the server does the same without JavaScript).
  useEffect(() => {
    const input = document.getElementById(fields.password.id);
    if (actionData && input instanceof HTMLInputElement) input.value = '';
  }, [actionData, fields.password.id]);
  const signupHref = withRedirectTo('/signup', redirectTo);
  const oauthHref = withRedirectTo('/api/login/oauth', redirectTo);

  return (
    <div className="mx-auto max-w-md py-6">
      <div className="card p-6 sm:p-8">
        <h1 className="text-2xl font-bold text-slate-900">Welcome back</h1>
        <p className="mt-1 text-sm text-slate-600">Sign in to keep your collection, earn badges and trade pins.</p>

        {error ? (
          <div role="alert" className="mt-4 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
            {error}
          </div>
        ) : null}

        {oauth.enabled ? (
          <>
            <a href={oauthHref} className="btn-secondary mt-6 w-full">
              Continue with {oauth.label}
            </a>
            <div className="my-5 flex items-center gap-3 text-xs uppercase tracking-wide text-slate-400">
              <span className="h-px flex-1 bg-slate-200" />
              or
              <span className="h-px flex-1 bg-slate-200" />
            </div>
          </>
        ) : null}

        <Form method="post" action={formAction} {...getFormProps(form)} className={`space-y-4 ${oauth.enabled ? '' : 'mt-6'}`}>
          <FormErrors errors={form.errors} id={form.errorId} />
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <Field label="Email" field={fields.email} type="email" autoComplete="email" />
          <Field label="Password" field={fields.password} type="password" autoComplete="current-password" />
          <p className="-mt-2 text-right text-sm">
            <Link to="/forgot-password" className="font-medium text-brand-700 hover:underline">
              Forgot your password?
            </Link>
          </p>
          <button type="submit" className="btn-primary w-full" disabled={pending} aria-busy={pending || undefined}>
            {pending ? <span aria-hidden="true" className="h-4 w-4 animate-spin rounded-full border-2 border-white border-t-transparent" /> : null}
            Sign In
          </button>
        </Form>

        <p className="mt-6 text-center text-sm text-slate-600">
          New to PinDex?{' '}
          <Link to={signupHref} className="font-semibold text-brand-700 hover:underline">
            Create an account
          </Link>
        </p>
      </div>
    </div>
  );
}
