import { getFormProps, getSelectProps, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from '@remix-run/react';
import { useState } from 'react';
import { useHydrated } from '~/components/ui/use-hydrated';
import { canViewAuditLog, rolesAssignableBy } from '~/auth/permissions';
import { AdminHeader, DetailList, LoadError, RecordHistory, RoleBadge, UserStatusBadge } from '~/components/admin';
import { Button, buttonClass } from '~/components/ui/button';
import { DataTable, type DataTableColumn } from '~/components/ui/data-table';
import { Dialog, DialogCancel } from '~/components/ui/dialog';
import { EmptyState } from '~/components/ui/empty-state';
import { FieldFrame, FormErrors } from '~/components/ui/field';
import { HiddenFields } from '~/components/ui/hidden-fields';
import { ListSearch } from '~/components/ui/list-search';
import { Pagination } from '~/components/ui/pagination';
import { adminUsersQuery, roleChangeSchema, USERS_SEARCH_DEBOUNCE_MS } from '~/forms/admin';
import { replyWithServiceError } from '~/http/form-reply.server';
import { adminActionUser, adminPageUser } from '~/http/guards.server';
import { redirectWithToast } from '~/http/toast.server';
import { recordHistory } from '~/services/admin/audit-log.server';
import { getAdminUserDetails, listAdminUsers } from '~/services/admin/users.server';
import { isAppError } from '~/services/errors';
import { changeUserRole } from '~/services/users.server';
import type { AdminUser } from '~/types/admin';
import { ROLE_LABELS, ROLES, type Role } from '~/utils/constants';
import { formatCount, formatDate } from '~/utils/format';
import { isListFiltered, listQueryHref, readListQuery } from '~/utils/list-query';
import { paginate } from '~/utils/paging';
import '~/root';

export const meta: MetaFunction = () => [{ title: 'User Management | PinDex Admin' }];

const PATH = '/admin/users';

// Signed out: the layout shows the prompt; other roles are sent to / by the guard.
export async function loader({ request }: LoaderFunctionArgs) {
  const actor = await adminPageUser(request);
  if (!actor) return json({ state: 'signedOut' as const });
  const url = new URL(request.url);
  const query = readListQuery(url, adminUsersQuery);
  const dialog = url.searchParams.get('dialog');
  const dialogId = url.searchParams.get('id');
  try {
    const first = paginate({ total: Number.MAX_SAFE_INTEGER, page: query.page, size: query.size });
    let list = await listAdminUsers(actor, { search: query.q, role: query.filters.role, sort: query.sort, dir: query.dir, limit: first.limit, offset: first.offset });
    let paging = paginate({ total: list.total, page: query.page, size: query.size });
    if (paging.offset !== first.offset) {
      // a page past the end (the list shrank): show the last one
      list = await listAdminUsers(actor, { search: query.q, role: query.filters.role, sort: query.sort, dir: query.dir, limit: paging.limit, offset: paging.offset });
      paging = paginate({ total: list.total, page: paging.page, size: query.size });
    }
    const rows = list.users.map((u) => ({ ...u, assignable: rolesAssignableBy(actor, u) }));
    let details = null;
    let history = null;
    if (dialogId && (dialog === 'details' || dialog === 'role')) {
      try {
        const found = await getAdminUserDetails(actor, dialogId);
        details = { ...found, assignable: rolesAssignableBy(actor, found) };
        if (dialog === 'details' && canViewAuditLog(actor)) history = await recordHistory(actor, 'user', found.id);
      } catch (error) {
        if (!isAppError(error) || error.status !== 404) throw error;
      }
    }
    return json({ state: 'ok' as const, actorId: actor.id, query, rows, total: list.total, paging, dialog: details ? dialog : null, details, history });
  } catch (error) {
    console.error(error);
    return json({ state: 'error' as const }, { status: 500 });
  }
}

export async function action({ request }: ActionFunctionArgs) {
  const actor = await adminActionUser(request);
  const form = await request.formData().catch(() => null);
  if (!form) throw json({ message: 'The form could not be read' }, { status: 400 });
  const back = String(form.get('back') ?? PATH);
  const backTo = back.startsWith(`${PATH}`) ? back : PATH;
  const submission = parseWithZod(form, { schema: roleChangeSchema });
  if (submission.status !== 'success') return json({ userId: String(form.get('userId') ?? ''), lastResult: submission.reply() }, { status: 400 });
  try {
    const updated = await changeUserRole(actor, submission.value.userId, submission.value.role);
    return redirectWithToast(backTo, { title: 'Role Updated', description: `${updated.email} is now ${ROLE_LABELS[updated.role]}.`, variant: 'success' });
  } catch (error) {
    if (isAppError(error) && error.status === 400) return replyWithServiceError(submission, error, { extra: { userId: submission.value.userId } });
    if (!isAppError(error) || error.status >= 500) console.error(error);
    const reason = isAppError(error) && error.status < 500 ? ` ${error.message}.` : '';
    return redirectWithToast(backTo, { title: 'Error', description: `Failed to update user role.${reason}`, variant: 'destructive' });
  }
}

type Loaded = Extract<ReturnType<typeof useLoaderData<typeof loader>>, { state: 'ok' }>;
type Row = Loaded['rows'][number];

export default function AdminUsers() {
  const data = useLoaderData<typeof loader>();
  if (data.state === 'signedOut') return null;
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
    onValidate: ({ formData }) => parseWithZod(formData, { schema: roleChangeSchema }),
    shouldValidate: 'onSubmit',
  });
  const submitting = navigation.state !== 'idle' && navigation.formData?.get('userId') === user.id;
  const { key, ...selectProps } = getSelectProps(fields.role);
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
          <select key={key} {...selectProps} className="input" onChange={(e) => setChosen(e.target.value)}>
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
