import { cssBundleHref } from '@remix-run/css-bundle';
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json, redirect } from '@remix-run/node';
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  isRouteErrorResponse,
  useActionData,
  useLoaderData,
  useLocation,
  useNavigation,
  useRouteError,
  useRouteLoaderData,
} from '@remix-run/react';
import { parseWithZod } from '@conform-to/zod';
import { rollSession } from '~/auth/session.server';
import { useNonce } from '~/components/nonce';
import { Onboarding, type OnboardingInfo } from '~/components/onboarding';
import { BottomBar, NavBar, type NavUser } from '~/components/nav';
import { ErrorPage } from '~/components/error-page';
import { FlashMessages, ToastProvider, type ToastMessage } from '~/components/toaster';
import { OnboardingSchema } from '~/forms/auth';
import { replyWithInvalid, replyWithServiceError } from '~/http/form-reply.server';
import { clearStaleSession, optionalUser } from '~/http/guards.server';
import { countEarnedBadges } from '~/services/achievements.server';
import { cartCount } from '~/services/cart.server';
import { unreadNotificationCount } from '~/services/trades.server';
import { completeOnboarding, defaultNickname } from '~/services/users.server';
import { getToast, redirectWithToast } from '~/http/toast.server';
import stylesheet from '~/tailwind.css';

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: stylesheet },
  ...(cssBundleHref ? [{ rel: 'stylesheet', href: cssBundleHref }] : []),
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
];

export const meta: MetaFunction = () => [
  { title: 'PinDex AI: identify and collect baseball trading pins' },
  { name: 'description', content: 'Identify baseball trading pins from a photo, browse the pin database and keep your collection.' },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await optionalUser(request);
  const { toast, headers } = await getToast(request);
  const earnedBadges = user ? await countEarnedBadges(user.id) : 0;
  const cartPieces = user ? await cartCount(user.id) : 0;
  const unreadNotifications = user ? await unreadNotificationCount(user.id) : 0;
  const navUser: NavUser | null = user
    ? {
        id: user.id,
        email: user.email,
        nickname: user.nickname,
        firstName: user.firstName,
        lastName: user.lastName,
        role: user.role,
        profileImageUrl: user.profileImageUrl,
        cartCount: cartPieces,
        unreadNotifications,
      }
    : null;
  const toasts: ToastMessage[] = toast
    ? [
        { id: toast.id, title: toast.title, description: toast.description, variant: toast.variant },
        ...(toast.more ?? []).map((m, i) => ({ id: `${toast.id}-${i}`, ...m })),
      ]
    : [];
  // Until setup is finished every page shows the onboarding screen (see App below).
  const onboarding: OnboardingInfo | null =
    user && !user.isOnboardingComplete ? { defaultNickname: defaultNickname(user), role: user.role, email: user.email } : null;
  // Rolling 30-day session expiry: pushed forward at most once a day.
  const rolled = user ? await rollSession(request) : null;
  // a cookie whose session is gone (expired, signed out elsewhere) is cleared
  const cleared = user ? null : await clearStaleSession(request);
  const cookie = rolled ?? cleared;
  return json(
    { user: navUser, earnedBadges, toasts, onboardingComplete: user?.isOnboardingComplete ?? true, onboarding },
    { headers: mergeHeaders(headers, cookie ? new Headers({ 'Set-Cookie': cookie }) : null) },
  );
}

/**
 * The onboarding form posts here (`action="/"` reaches the root route on any page, without JS).
 * On success: a welcome toast and /teams; on failure the form re-renders with the message.
 */
export async function action({ request }: ActionFunctionArgs) {
  const formData = await request.formData().catch(() => null);
  if (formData?.get('intent') !== 'completeOnboarding') {
    return json({ intent: null, lastResult: null }, { status: 405, headers: { Allow: 'GET' } });
  }
  const user = await optionalUser(request);
  if (!user) return redirect('/api/login');
  const submission = parseWithZod(formData, { schema: OnboardingSchema });
  if (submission.status !== 'success') return replyWithInvalid(submission, { extra: { intent: 'completeOnboarding' } });
  try {
    const updated = await completeOnboarding(user, submission.value);
    return redirectWithToast('/teams', {
      title: 'Welcome to PinDex!',
      description: `Your account is ready, ${updated.nickname}. Start by creating or joining a team.`,
      variant: 'success',
    });
  } catch (error) {
    // anything the server refused (not plain bad input) is also shown as 'Error completing setup'
    return replyWithServiceError(submission, error, { extra: { intent: 'completeOnboarding' }, refusalAsFormError: true });
  }
}

function mergeHeaders(...list: (Headers | null | undefined)[]): Headers {
  const out = new Headers();
  for (const h of list) h?.forEach((value, key) => out.append(key, value));
  return out;
}

export type RootData = ReturnType<typeof useRootData>;
export function useRootData() {
  return useRouteLoaderData<typeof loader>('root');
}

function Document({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  return (
    <html lang="en" className="h-full">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#1e40af" />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-full flex-col bg-slate-50 text-slate-900 antialiased">
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

function GlobalPending() {
  const navigation = useNavigation();
  if (navigation.state === 'idle') return null;
  return <div role="progressbar" aria-label="Loading" className="fixed inset-x-0 top-0 z-50 h-1 animate-pulse bg-brand-500" />;
}

export default function App() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const location = useLocation();
  // /api/* (sign-in page, sign-out) keeps working while setup is unfinished.
  const showOnboarding = !!data.onboarding && !location.pathname.startsWith('/api/');
  return (
    <Document>
      <ToastProvider serverToasts={data.toasts}>
        <GlobalPending />
        <NavBar user={data.user} earnedBadges={data.earnedBadges} />
        <main className="mx-auto w-full max-w-7xl flex-1 px-4 pb-24 pt-6 md:pb-10">
          <FlashMessages />
          {showOnboarding && data.onboarding ? (
            <Onboarding info={data.onboarding} result={actionData?.lastResult} />
          ) : (
            <Outlet />
          )}
        </main>
        <BottomBar user={data.user} />
      </ToastProvider>
    </Document>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const data = useRouteLoaderData<typeof loader>('root');
  return (
    <Document>
      <NavBar user={data?.user ?? null} earnedBadges={data?.earnedBadges ?? 0} />
      <main className="mx-auto w-full max-w-7xl flex-1 px-4 py-10">
        <ErrorPage error={error} />
      </main>
    </Document>
  );
}

export { isRouteErrorResponse };
