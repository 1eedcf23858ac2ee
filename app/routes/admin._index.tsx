import type { MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { AdminHeader, formatDateTime, LoadError } from '~/components/admin';
import { buttonClass } from '~/components/ui/button';
import { StatCard } from '~/components/ui/stat-card';
import { formatCount } from '~/utils/format';
import { adminDashboardLoader } from '~/http/admin-dashboard-page.server';
import '~/root';

export const meta: MetaFunction = () => [{ title: 'Admin Dashboard | PinDex Admin' }];

export const loader = adminDashboardLoader;

const QUICK_ACTIONS = [
  { to: '/admin/pins?dialog=new', label: 'Add Pin' },
  { to: '/admin/teams?dialog=new', label: 'Create Team' },
  { to: '/admin/users?sort=createdAt', label: 'Manage Users' },
  { to: '/admin/vendors', label: 'Review Vendors' },
  { to: '/admin/analytics', label: 'View Analytics' },
];

export default function AdminDashboard() {
  const data = useLoaderData<typeof loader>();
  if (data.state === 'error') {
    return (
      <div className="space-y-4">
        <AdminHeader title="Admin Dashboard" />
        <LoadError title="Failed to load the dashboard" message="The figures could not be read. Please try again." />
      </div>
    );
  }
  const { figures, activity, recent } = data.dashboard;
  return (
    <div className="space-y-6">
      <AdminHeader title="Admin Dashboard" subtitle="Live figures; each opens its table." />
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-3">
        <StatCard label="Users" value={figures.users} hint={`${formatCount(figures.newUsersThisWeek)} new this week`} link={{ to: '/admin/users', label: 'View users' }} valueTestId="stat-users" />
        <StatCard label="Pins" value={figures.pins} link={{ to: '/admin/pins', label: 'View pins' }} valueTestId="stat-pins" />
        <StatCard
          label="Identifications today"
          value={figures.identificationsToday}
          hint={`${formatCount(figures.identificationsThisWeek)} this week`}
          link={{ to: '/admin/analytics?range=7d', label: 'View identifications' }}
          valueTestId="stat-identifications"
        />
        <StatCard label="Open orders" value={figures.openOrders} hint="Not delivered or cancelled" link={{ to: '/admin/analytics#orders', label: 'View orders' }} valueTestId="stat-orders" />
        <StatCard label="Pending vendor applications" value={figures.pendingVendorApplications} link={{ to: '/admin/vendors', label: 'Review applications' }} valueTestId="stat-vendors" />
      </dl>

      <div className="grid gap-6 lg:grid-cols-3">
        <section className="card p-4 lg:col-span-2" aria-labelledby="recent-activity">
          <h2 id="recent-activity" className="text-lg font-semibold text-slate-900">
            Recent activity
          </h2>
          {activity ? (
            activity.length === 0 ? (
              <p className="mt-2 text-sm text-slate-600">No admin changes recorded yet.</p>
            ) : (
              <ol className="mt-3 divide-y divide-slate-100 text-sm">
                {activity.map((e) => (
                  <li key={e.id} className="py-2">
                    <p className="text-slate-900">
                      <span className="font-medium">{e.actorName ?? 'The system'}</span> · {e.action}{' '}
                      {e.targetHref ? (
                        <Link to={e.targetHref} className="text-brand-700 hover:underline">
                          {e.targetType}
                        </Link>
                      ) : (
                        e.targetType
                      )}
                    </p>
                    <p className="text-xs text-slate-500">
                      {formatDateTime(e.timestamp)} {e.summary ? `· ${e.summary}` : ''}
                    </p>
                  </li>
                ))}
              </ol>
            )
          ) : recent.length === 0 ? (
            <p className="mt-2 text-sm text-slate-600">Nothing new yet.</p>
          ) : (
            <ol className="mt-3 divide-y divide-slate-100 text-sm">
              {recent.map((r) => (
                <li key={`${r.kind}-${r.id}`} className="py-2">
                  <Link to={r.href} className="text-slate-900 hover:underline">
                    {r.label}
                  </Link>
                  <p className="text-xs text-slate-500">{formatDateTime(r.at)}</p>
                </li>
              ))}
            </ol>
          )}
          {activity ? (
            <Link to="/admin/audit-logs" className="mt-3 inline-block text-sm font-semibold text-brand-700 hover:underline">
              Open the audit log
            </Link>
          ) : null}
        </section>
        <section className="card p-4" aria-labelledby="quick-actions">
          <h2 id="quick-actions" className="text-lg font-semibold text-slate-900">
            Quick actions
          </h2>
          <ul className="mt-3 flex flex-col gap-2">
            {QUICK_ACTIONS.map((a) => (
              <li key={a.to}>
                <Link to={a.to} className={buttonClass('secondary', 'md', 'w-full justify-center')}>
                  {a.label}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      </div>
    </div>
  );
}
