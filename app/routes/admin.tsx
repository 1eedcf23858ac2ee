import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Link, NavLink, Outlet, useLoaderData } from '@remix-run/react';
import { canViewAuditLog } from '~/auth/permissions';
import { adminPageUser } from '~/http/guards.server';
import { ROLE_LABELS } from '~/utils/constants';
import '~/root';

export const meta: MetaFunction = () => [{ title: 'Admin | PinDex' }];

/** Admin area guard: visitors see the sign-in prompt, other roles go to /, admins get the sidebar. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await adminPageUser(request);
  return json({ role: user?.role ?? null, auditLog: canViewAuditLog(user) });
}

const SECTIONS = [
  { to: '/admin', label: 'Dashboard', end: true },
  { to: '/admin/users', label: 'Users' },
  { to: '/admin/pins', label: 'Pins' },
  { to: '/admin/suggestions', label: 'Suggestions' },
  { to: '/admin/teams', label: 'Teams' },
  { to: '/admin/vendors', label: 'Vendors' },
  { to: '/admin/analytics', label: 'Analytics' },
] as const;

export default function AdminLayout() {
  const { role, auditLog } = useLoaderData<typeof loader>();
  if (!role) {
    return <AdminSignInPrompt />;
  }
  const sections = auditLog ? [...SECTIONS, { to: '/admin/audit-logs', label: 'Audit Logs', end: false }] : SECTIONS;
  return (
    <div className="flex flex-col gap-6 md:flex-row">
      <aside className="md:w-56 md:shrink-0">
        <nav aria-label="Admin" className="card p-3">
          <p className="px-3 pb-2 text-xs font-semibold uppercase tracking-wide text-slate-500">Admin · {ROLE_LABELS[role]}</p>
          <ul className="flex flex-wrap gap-1 md:flex-col">
            {sections.map((s) => (
              <li key={s.to}>
                <NavLink
                  to={s.to}
                  end={'end' in s ? s.end : false}
                  className={({ isActive }) =>
                    `block rounded-md px-3 py-2 text-sm font-medium ${isActive ? 'bg-brand-50 text-brand-700' : 'text-slate-700 hover:bg-slate-100'}`
                  }
                >
                  {s.label}
                </NavLink>
              </li>
            ))}
          </ul>
          <div className="mt-3 border-t border-slate-100 pt-3">
            <Link to="/" className="block rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100">
              Back to Main Site
            </Link>
          </div>
        </nav>
      </aside>
      <div className="min-w-0 flex-1">
        <Outlet />
      </div>
    </div>
  );
}

/**
 * components/sign-in-prompt.tsx's markup for the admin area. The admin pages do not import that
 * module: it would be one more file on each of them (esbuild makes it a chunk of its own, shared
 * with the other areas' pages), and the admin table pages have none to spare (at most 12).
 */
function AdminSignInPrompt() {
  return (
    <div className="mx-auto max-w-lg py-16 text-center">
      <div aria-hidden="true" className="mx-auto mb-4 flex h-14 w-14 items-center justify-center rounded-full bg-brand-50 text-brand-600">
        <svg width="28" height="28" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2">
          <rect x="5" y="11" width="14" height="10" rx="2" />
          <path d="M8 11V7a4 4 0 0 1 8 0v4" />
        </svg>
      </div>
      <h1 className="text-2xl font-bold text-slate-900">Admin Access Required</h1>
      <p className="mt-3 text-slate-600">Sign in with an admin account to manage PinDex.</p>
      <a href={`/api/login?redirectTo=${encodeURIComponent('/admin')}`} className="btn-primary mt-6">
        Sign In to Continue
      </a>
    </div>
  );
}
