import { cssBundleHref } from '@remix-run/css-bundle';
import type { LinksFunction, MetaFunction } from '@remix-run/node';
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
import { useEffect, useRef } from 'react';
import { useNonce } from '~/components/nonce';
// rendered by the server alone: an empty module in the browser (OnboardingScreen below)
import { Onboarding, type OnboardingInfo } from '~/components/onboarding.server';
import { BottomBar, NavBar } from '~/components/nav';
import { ErrorPage } from '~/components/error-page';
import { FlashMessages, ToastProvider } from '~/components/toaster';
// the loader and action, with everything they import, are the server's alone (see that file)
import { rootAction, rootLoader } from '~/http/root.server';
import stylesheet from '~/tailwind.css';
import '~/browser-chunks';

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: stylesheet },
  ...(cssBundleHref ? [{ rel: 'stylesheet', href: cssBundleHref }] : []),
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
];

export const meta: MetaFunction = () => [
  { title: 'PinDex AI: identify and collect baseball trading pins' },
  { name: 'description', content: 'Identify baseball trading pins from a photo, browse the pin database and keep your collection.' },
];

export const loader = rootLoader;

/**
 * The onboarding form posts here (`action="/"` reaches the root route on any page, without JS).
 */
export const action = rootAction;

export type RootData = ReturnType<typeof useRootData>;
export function useRootData() {
  return useRouteLoaderData<typeof rootLoader>('root');
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
  const data = useLoaderData<typeof rootLoader>();
  const actionData = useActionData<typeof rootAction>();
  const location = useLocation();
  // /api/* (sign-in page, sign-out) keeps working while setup is unfinished.
  const showOnboarding = !!data.onboarding && !location.pathname.startsWith('/api/');
  // a setup refusal that is not about one field (spec: 'Error completing setup', the server's message)
  const setupError = actionData?.lastResult?.error?.['']?.[0];
  const toasts = setupError ? [...data.toasts, { id: 'setup-error', title: 'Error completing setup', description: setupError, variant: 'destructive' as const }] : data.toasts;
  return (
    <Document>
      <ToastProvider serverToasts={toasts}>
        <GlobalPending />
        <NavBar user={data.user} earnedBadges={data.earnedBadges} />
        <main className="mx-auto w-full max-w-7xl flex-1 px-4 pb-24 pt-6 md:pb-10">
          <FlashMessages />
          {showOnboarding && data.onboarding ? (
            <OnboardingScreen info={data.onboarding} result={actionData?.lastResult} />
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
  const data = useRouteLoaderData<typeof rootLoader>('root');
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

const KEEP_SERVER_HTML = { __html: '' };

/**
 * The onboarding screen, rendered by the server alone. It has no behaviour of its own (a plain form
 * posted to the root's action), so the browser keeps the server's HTML (an element whose inner HTML
 * React sets is not hydrated inside, and an unchanged value is never written again) and loads none
 * of its code: 1 KB gzip off every page. Reached by a client-side navigation (signing in with
 * JavaScript), there is no server HTML to keep: the page is loaded again.
 */
function OnboardingScreen(props: { info: OnboardingInfo; result: Parameters<typeof Onboarding>[0]['result'] }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!ref.current?.hasChildNodes()) window.location.reload();
  }, []);
  if (typeof document === 'undefined') {
    return (
      <div id="onboarding">
        <Onboarding {...props} />
      </div>
    );
  }
  return <div id="onboarding" ref={ref} dangerouslySetInnerHTML={KEEP_SERVER_HTML} suppressHydrationWarning />;
}
