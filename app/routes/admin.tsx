import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Link, NavLink, Outlet, useLoaderData } from '@remix-run/react';
import { canViewAuditLog } from '~/auth/permissions';
import { adminPageUser } from '~/http/guards.server';
import { ROLE_LABELS } from '~/utils/constants';
import '~/root';

export const meta: MetaFunction = () => [{ title: 'Admin | PinDex' }];

/** Admin area guard: visitors get the sign-in prompt, other roles go to /, admins get the sidebar. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await adminPageUser(request);
  return json({ role: user.role, auditLog: canViewAuditLog(user) });
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
