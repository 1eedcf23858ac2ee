import type { MetaFunction } from '@remix-run/node';
import { Form, Link, useLoaderData } from '@remix-run/react';
import { AdminHeader, formatDateTime, LoadError } from '~/components/admin';
import { Button, buttonClass } from '~/components/ui/button';
import { DataTable, type DataTableColumn } from '~/components/ui/data-table';
import { EmptyState } from '~/components/ui/empty-state';
import { Pagination } from '~/components/ui/list-controls';
import { adminAuditLogsLoader } from '~/http/admin-audit-logs-page.server';
import type { AuditLogEntry } from '~/types/admin';
import { formatCount } from '~/utils/format';
import { isListFiltered } from '~/utils/list-state';
import '~/root';

export const meta: MetaFunction = () => [{ title: 'Audit Logs | PinDex Admin' }];

const PATH = '/admin/audit-logs';

export const loader = adminAuditLogsLoader;

const columns: DataTableColumn<AuditLogEntry>[] = [
  { key: 'timestamp', header: 'When', cell: (e) => formatDateTime(e.timestamp), className: 'whitespace-nowrap' },
  { key: 'actor', header: 'Actor', cell: (e) => e.actorName ?? 'System' },
  { key: 'action', header: 'Action', rowHeader: true, cell: (e) => <code className="text-xs">{e.action}</code> },
  {
    key: 'target',
    header: 'Target',
    cell: (e) =>
      e.targetHref ? (
        <Link to={e.targetHref} className="text-brand-700 hover:underline">
          {e.targetType}
        </Link>
      ) : (
        e.targetType
      ),
  },
  { key: 'details', header: 'Details', cell: (e) => <span className="line-clamp-2 break-words text-xs">{e.summary || '-'}</span>, className: 'hidden md:table-cell' },
];

export default function AdminAuditLogs() {
  const data = useLoaderData<typeof loader>();
  if (data.state === 'denied') {
    return (
      <div className="card mx-auto max-w-lg p-8 text-center">
        <h1 className="text-2xl font-bold text-slate-900">Access Denied</h1>
        <p className="mt-3 text-slate-600">Only super admins can view the audit logs.</p>
      </div>
    );
  }
  if (data.state === 'error') {
    return (
      <div className="space-y-4">
        <AdminHeader title="Audit Logs" />
        <LoadError title="Failed to load the audit log" message="Please try again." />
      </div>
    );
  }
  const { query, entries, total, paging, actors } = data;
  const f = query.filters;
  return (
    <div className="space-y-4">
      <AdminHeader title="Audit Logs" subtitle={`${formatCount(total)} ${total === 1 ? 'entry' : 'entries'}, newest first`} />
      <Form method="get" action={PATH} className="card flex flex-wrap items-end gap-3 p-3" aria-label="Filter the audit log">
        <div>
          <label htmlFor="audit-actor" className="label">
            Actor
          </label>
          <select id="audit-actor" name="actor" defaultValue={f.actor ?? ''} key={`a${f.actor ?? ''}`} className="input">
            <option value="">Everyone</option>
            {actors.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="audit-action" className="label">
            Action
          </label>
          <select id="audit-action" name="action" defaultValue={f.action ?? ''} key={`b${f.action ?? ''}`} className="input">
            <option value="">All actions</option>
            {data.choices.actions.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="audit-target" className="label">
            Target type
          </label>
          <select id="audit-target" name="targetType" defaultValue={f.targetType ?? ''} key={`c${f.targetType ?? ''}`} className="input">
            <option value="">All targets</option>
            {data.choices.targetTypes.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="audit-from" className="label">
            From
          </label>
          <input id="audit-from" type="date" name="from" defaultValue={f.from ?? ''} key={`d${f.from ?? ''}`} className="input" />
        </div>
        <div>
          <label htmlFor="audit-to" className="label">
            To
          </label>
          <input id="audit-to" type="date" name="to" defaultValue={f.to ?? ''} key={`e${f.to ?? ''}`} className="input" />
        </div>
        <Button variant="primary">Filter</Button>
        {isListFiltered(query) ? (
          <Link to={PATH} className={buttonClass('ghost')}>
            Clear
          </Link>
        ) : null}
      </Form>
      <DataTable
        caption="Audit log entries"
        columns={columns}
        rows={entries}
        rowKey={(e) => e.id}
        query={query}
        total={total}
        pathname={PATH}
        empty={<EmptyState title="No entries found" description={isListFiltered(query) ? 'Try other filters.' : 'No admin changes have been recorded yet.'} />}
      />
      <Pagination paging={paging} query={query} pathname={PATH} label="Audit log pages" />
    </div>
  );
}
