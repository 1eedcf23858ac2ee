import type { MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from '@remix-run/react';
import { useState } from 'react';
import { useHydrated } from '~/components/ui/use-hydrated';
import { AdminHeader, DetailList, LoadError, RecordHistory, RoleBadge, UserStatusBadge } from '~/components/admin';
import { Button, buttonClass } from '~/components/ui/button';
import { DataTable, type DataTableColumn } from '~/components/ui/data-table';
import { Dialog, DialogCancel } from '~/components/ui/dialog';
import { EmptyState } from '~/components/ui/empty-state';
import { FieldFrame, FormErrors } from '~/components/ui/field';
import { getFormProps, getSelectProps, useForm } from '~/components/ui/form-state';
import { HiddenFields } from '~/components/ui/hidden-fields';
import { ListSearch, Pagination } from '~/components/ui/list-controls';
import { adminUsersAction, adminUsersLoader } from '~/http/admin-users-page.server';
import type { AdminUser } from '~/types/admin';
import { USERS_SEARCH_DEBOUNCE_MS } from '~/utils/admin-constants';
import { ROLE_LABELS, ROLES, type Role } from '~/utils/constants';
import { formatCount, formatDate } from '~/utils/format';
import { isListFiltered, listQueryHref } from '~/utils/list-state';
import '~/root';

export const meta: MetaFunction = () => [{ title: 'User Management | PinDex Admin' }];

const PATH = '/admin/users';

export const loader = adminUsersLoader;
export const action = adminUsersAction;

type Loaded = Extract<ReturnType<typeof useLoaderData<typeof loader>>, { state: 'ok' }>;
type Row = Loaded['rows'][number];

export default function AdminUsers() {
  const data = useLoaderData<typeof loader>();
  if (data.state === 'error') {
    return (
      <div className="space-y-4">
        <AdminHeader title="User Management" />
        <LoadError title="Failed to fetch users" message="Failed to load users" />
      </div>
    );
  }
  return <UsersTable data={data} />;
}

function UsersTable({ data }: { data: Loaded }) {
  const { query, rows, total, paging } = data;
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  const listHref = listQueryHref(PATH, query);
  const stepHref = (dialog: string, id: string) => `${listHref}${listHref.includes('?') ? '&' : '?'}dialog=${dialog}&id=${encodeURIComponent(id)}`;

  const columns: DataTableColumn<Row>[] = [
    {
      key: 'name',
      header: 'User',
      sort: 'name',
      rowHeader: true,
      cell: (u) => (
        <div className="min-w-0">
          <p className="font-medium text-slate-900">{u.displayName}</p>
          <p className="truncate text-xs text-slate-500">{u.email}</p>
        </div>
      ),
    },
    { key: 'role', header: 'Role', sort: 'role', cell: (u) => <RoleBadge role={u.role} /> },
    { key: 'status', header: 'Status', cell: (u) => <UserStatusBadge status={u.status} />, className: 'hidden sm:table-cell' },
    { key: 'createdAt', header: 'Joined', sort: 'createdAt', sortFirst: 'desc', cell: (u) => formatDate(u.createdAt), className: 'hidden md:table-cell whitespace-nowrap' },
    {
      key: 'actions',
      header: <span className="sr-only">Actions</span>,
      cell: (u) => (
        <div className="flex flex-wrap justify-end gap-2">
          <Link to={stepHref('details', u.id)} className={buttonClass('ghost', 'sm')} aria-label={`View ${u.displayName}`} preventScrollReset>
            View
          </Link>
          {u.assignable.length ? <RoleChange user={u} href={stepHref('role', u.id)} closeHref={listHref} back={listHref} /> : null}
        </div>
      ),
    },
  ];

  return (
    <div className="space-y-4">
      <AdminHeader title="User Management" subtitle={`${formatCount(total)} ${total === 1 ? 'user' : 'users'}`} />
      <ListSearch query={query} label="Search users" placeholder="Search by name or email" debounceMs={USERS_SEARCH_DEBOUNCE_MS} controls={['role']} pathname={PATH}>
        <div>
          <label htmlFor="role-filter" className="label">
            Role
          </label>
          <select id="role-filter" name="role" defaultValue={query.filters.role ?? ''} className="input" key={query.filters.role ?? ''}>
            <option value="">All Roles</option>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABELS[r]}
              </option>
            ))}
          </select>
        </div>
      </ListSearch>

      {data.details && data.dialog === 'details' ? (
        <Dialog title="User Details" trigger="View" href={here} closeHref={listHref} serverOpen>
          <DetailList
            items={[
              ['Name', data.details.displayName],
              ['Email', data.details.email],
              ['First name', data.details.firstName ?? '-'],
              ['Last name', data.details.lastName ?? '-'],
              ['Role', <RoleBadge key="r" role={data.details.role} />],
              ['Status', <UserStatusBadge key="s" status={data.details.status} />],
              ['Joined', formatDate(data.details.createdAt)],
              ['Last updated', formatDate(data.details.updatedAt)],
              ['Teams managed', formatCount(data.details.teamsManaged)],
              ['Collection entries', formatCount(data.details.collectionEntries)],
              ['Identifications', formatCount(data.details.identifications)],
              ['Vendor application', data.details.vendorStatus ? data.details.vendorStatus.replace(/_/g, ' ') : 'None'],
            ]}
          />
          <RecordHistory entries={data.history} />
          <div className="mt-4 flex flex-wrap justify-end gap-3">
            {data.details.assignable.length ? (
              <Link to={stepHref('role', data.details.id)} className={buttonClass('secondary')}>
                Change Role
              </Link>
            ) : null}
            <DialogCancel>Close</DialogCancel>
          </div>
        </Dialog>
      ) : null}
      {data.details && data.dialog === 'role' ? <RoleChange user={data.details} href={here} closeHref={listHref} back={listHref} serverOpen /> : null}

      <DataTable
        caption="Users"
        columns={columns}
        rows={rows}
        rowKey={(u) => u.id}
        query={query}
        total={total}
        pathname={PATH}
        empty={
          <EmptyState
            title="No users found"
            description={isListFiltered(query) ? 'Try adjusting your search or role filter.' : 'Nobody has signed up yet.'}
            action={isListFiltered(query) ? <Link to={PATH} className={buttonClass('secondary')}>Clear filters</Link> : null}
          />
        }
      />
      <Pagination paging={paging} query={query} pathname={PATH} label="Users pages" />
    </div>
  );
}

/** Change Role: a dialog with JavaScript (confirm disabled until another role is chosen), a step without. */
function RoleChange({ user, href, closeHref, back, serverOpen }: { user: Pick<AdminUser, 'id' | 'displayName' | 'email' | 'role'> & { assignable: Role[] }; href: string; closeHref: string; back: string; serverOpen?: boolean }) {
  const actionData = useActionData<typeof action>();
  const mine = actionData && 'userId' in actionData && actionData.userId === user.id ? actionData : undefined;
  const navigation = useNavigation();
  const [chosen, setChosen] = useState('');
  const [form, fields] = useForm({
    id: `role-${user.id}`,
    lastResult: mine?.lastResult,
  });
  const submitting = navigation.state !== 'idle' && navigation.formData?.get('userId') === user.id;
  const selectProps = getSelectProps(fields.role);
  return (
    <Dialog
      title="Change User Role"
      description={
        <>
          Choose a new role for <strong>{user.displayName}</strong> ({user.email}). Current role: {ROLE_LABELS[user.role]}.
        </>
      }
      trigger={<span aria-label={`Change role of ${user.displayName}`}>Change Role</span>}
      triggerClassName={buttonClass('secondary', 'sm')}
      href={href}
      closeHref={closeHref}
      serverOpen={serverOpen || !!mine}
      closesOn={(f) => f.get('userId') === user.id}
    >
      <Form method="post" action={PATH} {...getFormProps(form)} className="space-y-4" preventScrollReset>
        <HiddenFields fields={{ userId: user.id, currentRole: user.role, back }} />
        <FormErrors errors={form.errors} title="Failed to update user role." />
        <FieldFrame label="New role" field={fields.role}>
          <select key={fields.role.key} {...selectProps} className="input" onChange={(e) => setChosen(e.target.value)}>
            <option value="">Select a role</option>
            {user.assignable.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABELS[r]}
              </option>
            ))}
          </select>
        </FieldFrame>
        <div className="flex flex-wrap justify-end gap-3">
          <DialogCancel />
          {/* without JavaScript the server refuses no role or the same role */}
          <ConfirmRole disabled={chosen === '' || chosen === user.role} pending={submitting} />
        </div>
      </Form>
    </Dialog>
  );
}

function ConfirmRole({ disabled, pending }: { disabled: boolean; pending: boolean }) {
  // disabled only once hydrated: before that the select's choice is not tracked
  const hydrated = useHydrated();
  return (
    <Button variant="primary" disabled={hydrated && disabled} pending={pending} pendingLabel="Updating...">
      Update Role
    </Button>
  );
}
