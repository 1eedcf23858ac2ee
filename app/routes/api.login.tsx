import { getFormProps, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json, redirect } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useEffect } from 'react';
import { replyWithServiceError } from '~/http/form-reply.server';
import { oauthSettings } from '~/http/oauth.server';
import { safeRedirect, withRedirectTo } from '~/auth/redirect';
import { readDevice, rememberDevice } from '~/auth/device.server';
import { createUserSession } from '~/auth/session.server';
import { isSignedIn } from '~/http/guards.server';
import { Field, FormErrors } from '~/components/ui/field';
import { LoginSchema } from '~/forms/auth';
import { verifyLogin } from '~/services/users.server';
import { readBody } from '~/http/body.server';
import '~/root';

export const meta: MetaFunction = () => [{ title: 'Sign In | PinDex' }];

const OAUTH_ERRORS: Record<string, string> = {
  oauth: 'Signing in with the external provider failed. Please try again.',
  oauth_unverified: 'Your account at the sign-in provider has no verified e-mail address.',
  oauth_disabled: 'External sign-in is not configured on this site.',
};

/** GET /api/login: the sign-in page (a signed-in visitor goes straight on). */
export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const redirectTo = safeRedirect(url.searchParams.get('redirectTo'), '/');
  if (await isSignedIn(request)) throw redirect(redirectTo);
  const oauth = oauthSettings();
  const error = OAUTH_ERRORS[url.searchParams.get('error') ?? ''] ?? null;
  return json({ redirectTo, oauth, error });
}

/** POST /api/login: e-mail and password; a new session id on success. */
export async function action({ request, context }: ActionFunctionArgs) {
  const ip = (context as { clientIp?: string }).clientIp ?? 'unknown';
  // API clients may send JSON: same rules and answers (redirect with the session cookie on success).
  const formData = (request.headers.get('content-type') ?? '').includes('application/json')
    ? await readBody(request).then(toFormData, () => null)
    : await request.formData().catch(() => null);
  if (!formData) return json({ lastResult: null }, { status: 400 });
  const submission = parseWithZod(formData, { schema: LoginSchema });
  if (submission.status !== 'success') {
    return json({ lastResult: submission.reply({ hideFields: ['password'] }) }, { status: 400 });
  }
  try {
    const device = await readDevice(request);
    const user = await verifyLogin(submission.value, { ip, device });
    const headers = new Headers();
    headers.append('Set-Cookie', await createUserSession(request, user.id));
    headers.append('Set-Cookie', await rememberDevice(device, user.id));
    const target = submission.value.redirectTo ?? new URL(request.url).searchParams.get('redirectTo');
    return redirect(safeRedirect(target, '/'), { headers });
  } catch (error) {
    return replyWithServiceError(submission, error, { hideFields: ['password'] });
  }
}

function toFormData(body: Record<string, unknown>): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(body)) if (typeof value === 'string') form.set(key, value);
  return form;
}

export default function SignIn() {
  const { redirectTo, oauth, error } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  // The form posts to its own URL with the target in the query, so that a refused attempt (and the
  // page the server renders for it without JavaScript) still knows where to go after the next one.
  const formAction = withRedirectTo('/api/login', redirectTo);
  const navigation = useNavigation();
  const pending = navigation.state === 'submitting' && navigation.formAction?.startsWith('/api/login');
  const [form, fields] = useForm({
    lastResult: actionData?.lastResult,
    constraint: undefined,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: LoginSchema }),
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
