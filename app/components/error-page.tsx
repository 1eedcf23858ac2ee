import { Link, isRouteErrorResponse } from '@remix-run/react';

function messageOf(data: unknown): string | null {
  if (data && typeof data === 'object') {
    const d = data as { message?: unknown; error?: unknown };
    if (typeof d.message === 'string') return d.message;
    if (typeof d.error === 'string') return d.error;
  }
  return typeof data === 'string' && data.length < 300 ? data : null;
}

/** One page for every error state: not found, forbidden, sign-in needed, too many requests, crashes. */
export function ErrorPage({ error }: { error: unknown }) {
  if (isRouteErrorResponse(error)) {
    const message = messageOf(error.data);
    if (error.status === 404) {
      return (
        <Panel title="404 - Page not found" body={message && message !== 'Not found' ? message : "We couldn't find the page you were looking for."} />
      );
    }
    if (error.status === 401) {
      // a page's sign-in prompt (guards.server.ts, signInPrompt) names itself and the way back after signing in
      const { title, signIn } = (error.data ?? {}) as { title?: unknown; signIn?: unknown };
      return (
        <Panel title={typeof title === 'string' ? title : 'Sign in required'} body={message ?? 'Please sign in to continue.'}>
          <a href={typeof signIn === 'string' && signIn.startsWith('/api/login') ? signIn : '/api/login'} className="btn-primary">
            Sign In to Continue
          </a>
        </Panel>
      );
    }
    if (error.status === 403) return <Panel title="Access Denied" body={message ?? 'You do not have permission to view this page.'} />;
    if (error.status === 429) return <Panel title="Too many requests" body={message ?? 'Please wait a moment and try again.'} />;
    if (error.status < 500) return <Panel title="Something is not right" body={message ?? error.statusText} />;
  }
  return <Panel title="Something went wrong" body="An unexpected error occurred on our side. Please try again in a few moments." />;
}

function Panel({ title, body, children }: { title: string; body: string; children?: React.ReactNode }) {
  return (
    <div className="mx-auto max-w-lg py-16 text-center">
      <h1 className="text-2xl font-bold text-slate-900">{title}</h1>
      <p className="mt-3 text-slate-600">{body}</p>
      <div className="mt-6 flex justify-center gap-3">
        {children}
        <Link to="/" className="btn-secondary">
          Return Home
        </Link>
      </div>
    </div>
  );
}
