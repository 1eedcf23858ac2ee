/**
 * Small pieces the admin pages share: badges, a record's history, a load failure, a details list,
 * the Pin Database Management header. The pin form (./admin-pin-form) and the organization form
 * (./admin-organization-form) have a module each, so that a page loads only the one it shows.
 */
import { Link } from '@remix-run/react';
import type { ReactNode } from 'react';
import type { AuditLogEntry, UserStatus } from '~/types/admin';
import { ROLE_LABELS, type Role } from '~/utils/constants';
import { formatCount } from '~/utils/format';
import { Tabs } from './ui/tabs';
import './admin-kit'; // one chunk with the data table (admin-kit.ts)

export function RoleBadge({ role }: { role: Role }) {
  const tone = role === 'super_admin' ? 'bg-purple-100 text-purple-800' : role === 'admin' ? 'bg-brand-50 text-brand-700' : 'bg-slate-100 text-slate-700';
  return <span className={`badge ${tone}`}>{ROLE_LABELS[role]}</span>;
}

export function UserStatusBadge({ status }: { status: UserStatus }) {
  return <span className={`badge ${status === 'Active' ? 'bg-green-100 text-green-800' : 'bg-amber-100 text-amber-800'}`}>{status}</span>;
}

/** A page's heading with its count and actions. */
export function AdminHeader({ title, subtitle, actions }: { title: string; subtitle?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="flex flex-wrap items-end justify-between gap-3">
      <div>
        <h1 className="text-2xl font-bold text-slate-900">{title}</h1>
        {subtitle ? <p className="mt-1 text-sm text-slate-600">{subtitle}</p> : null}
      </div>
      {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
    </div>
  );
}

/** What a table shows when its data could not be read (spec §8: 'Failed to load users', ...). */
export function LoadError({ title, message }: { title: string; message: string }) {
  return (
    <div role="alert" className="card border-red-200 bg-red-50 p-6 text-center">
      <h2 className="text-lg font-semibold text-red-900">{title}</h2>
      <p className="mt-1 text-sm text-red-800">{message}</p>
    </div>
  );
}

/** Label and value pairs of a details view. */
export function DetailList({ items }: { items: [string, ReactNode][] }) {
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
      {items.map(([label, value]) => (
        <div key={label} className="min-w-0">
          <dt className="text-slate-500">{label}</dt>
          <dd className="break-words font-medium text-slate-900">{value ?? '-'}</dd>
        </div>
      ))}
    </dl>
  );
}

export const formatDateTime = (iso: string) =>
  new Date(iso).toLocaleString('en-US', { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit', timeZone: 'UTC', timeZoneName: 'short' });

/** A record's own history on its admin page (super admins; others see nothing). */
export function RecordHistory({ entries }: { entries: AuditLogEntry[] | null }) {
  if (!entries) return null;
  return (
    <section aria-label="History" className="mt-4 border-t border-slate-200 pt-3">
      <h3 className="text-sm font-semibold text-slate-900">History</h3>
      {entries.length === 0 ? (
        <p className="mt-1 text-sm text-slate-600">No changes recorded yet.</p>
      ) : (
        <ol className="mt-2 space-y-2 text-sm">
          {entries.map((e) => (
            <li key={e.id} className="rounded-md bg-slate-50 p-2">
              <p className="font-medium text-slate-900">
                {e.action} <span className="font-normal text-slate-600">by {e.actorName ?? 'the system'}</span>
              </p>
              <p className="text-xs text-slate-500">{formatDateTime(e.timestamp)}</p>
              {e.summary ? <p className="mt-1 break-words text-slate-700">{e.summary}</p> : null}
            </li>
          ))}
        </ol>
      )}
      <Link to="/admin/audit-logs" className="mt-2 inline-block text-sm font-semibold text-brand-700 hover:underline">
        Open the audit log
      </Link>
    </section>
  );
}

/** The Pin Database Management title and its Pins / Organizations tabs. */
export function PinDatabaseHeader({ current, totals }: { current: 'pins' | 'organizations'; totals: { pins: number; organizations: number } }) {
  return (
    <div className="space-y-3">
      <h1 className="text-2xl font-bold text-slate-900">Pin Database Management</h1>
      <Tabs
        label="Pin database sections"
        current={current}
        items={[
          { key: 'pins', label: 'Pins', count: totals.pins, href: '/admin/pins' },
          { key: 'organizations', label: 'Organizations', count: totals.organizations, href: '/admin/pins/organizations' },
        ]}
        formatCountLabel={(n) => `(${formatCount(n)})`}
      />
    </div>
  );
}
