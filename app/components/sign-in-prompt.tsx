/** The signed-out prompt of a page that needs an account: a title and the 'Sign In to Continue' link. */
export function SignInPrompt({ title, description, redirectTo }: { title: string; description?: string; redirectTo?: string }) {
  const href = redirectTo ? `/api/login?redirectTo=${encodeURIComponent(redirectTo)}` : '/api/login';
  return (
    <div className="mx-auto max-w-lg py-16 text-center">
      <div aria-hidden="true" className="mx-auto mb-4 flex h-14 w-14 items-center justify-center rounded-full bg-brand-50 text-brand-600">
        <svg width="28" height="28" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2">
          <rect x="5" y="11" width="14" height="10" rx="2" />
          <path d="M8 11V7a4 4 0 0 1 8 0v4" />
        </svg>
      </div>
      <h1 className="text-2xl font-bold text-slate-900">{title}</h1>
      <p className="mt-3 text-slate-600">{description ?? 'Please sign in to access this page.'}</p>
      <a href={href} className="btn-primary mt-6">
        Sign In to Continue
      </a>
    </div>
  );
}
