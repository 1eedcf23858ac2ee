import type { SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Link, useActionData, useLoaderData, useLocation } from '@remix-run/react';
import { canViewAuditLog } from '~/auth/permissions';
import { AdminHeader, LoadError, RecordHistory } from '~/components/admin';
import { OrganizationForm, PinDatabaseHeader } from '~/components/admin-pins';
import { buttonClass } from '~/components/ui/button';
import { ConfirmStep } from '~/components/ui/confirm-step';
import { DataTable, type DataTableColumn } from '~/components/ui/data-table';
import { Dialog } from '~/components/ui/dialog';
import { EmptyState } from '~/components/ui/empty-state';
import { ListSearch } from '~/components/ui/list-search';
import { Pagination } from '~/components/ui/pagination';
import { adminOrganizationsQuery, organizationFormSchema } from '~/forms/admin';
import { replyWithServiceError } from '~/http/form-reply.server';
import { adminActionUser, adminPageUser } from '~/http/guards.server';
import { redirectWithToast } from '~/http/toast.server';
import { recordHistory } from '~/services/admin/audit-log.server';
import { listAdminOrganizations, pinTabTotals } from '~/services/admin/pins.server';
import { isAppError } from '~/services/errors';
import { createOrganization, deleteOrganization, getOrganization, updateOrganization } from '~/services/organizations.server';
import type { AdminOrganization } from '~/types/admin';
import { formatCount, formatDate } from '~/utils/format';
import { isListFiltered, listQueryHref, readListQuery } from '~/utils/list-query';
import { paginate } from '~/utils/paging';
import '~/root';

export const meta: MetaFunction = () => [{ title: 'Organizations | Pin Database Management | PinDex Admin' }];

const PATH = '/admin/pins/organizations';
const DIALOGS = ['new', 'edit', 'delete'] as const;
type DialogKind = (typeof DIALOGS)[number];

export async function loader({ request }: LoaderFunctionArgs) {
  const actor = await adminPageUser(request);
  if (!actor) return json({ state: 'signedOut' as const });
  const url = new URL(request.url);
  const query = readListQuery(url, adminOrganizationsQuery);
  const dialogParam = url.searchParams.get('dialog');
  const dialog = (DIALOGS as readonly string[]).includes(dialogParam ?? '') ? (dialogParam as DialogKind) : null;
  const dialogId = url.searchParams.get('id');
  try {
    const opts = { search: query.q, sort: query.sort, dir: query.dir };
    const asked = paginate({ total: Number.MAX_SAFE_INTEGER, page: query.page, size: query.size });
    let list = await listAdminOrganizations(actor, { ...opts, limit: asked.limit, offset: asked.offset });
    let paging = paginate({ total: list.total, page: query.page, size: query.size });
    if (paging.offset !== asked.offset) {
      list = await listAdminOrganizations(actor, { ...opts, limit: paging.limit, offset: paging.offset });
      paging = paginate({ total: list.total, page: paging.page, size: query.size });
    }
    const totals = await pinTabTotals(actor);
    let target: AdminOrganization | null = null;
    if (dialogId && (dialog === 'edit' || dialog === 'delete')) {
      target = list.organizations.find((o) => o.id === dialogId) ?? null;
      if (!target) {
        const found = await getOrganization(dialogId).catch(() => null);
        target = found ? { ...found, pinCount: 0 } : null;
      }
    }
    const history = target && dialog === 'edit' && canViewAuditLog(actor) ? await recordHistory(actor, 'organization', target.id) : null;
    return json({ state: 'ok' as const, query, organizations: list.organizations, total: list.total, paging, totals, dialog: dialog === 'new' || target ? dialog : null, target, history });
  } catch (error) {
    console.error(error);
    return json({ state: 'error' as const }, { status: 500 });
  }
}

type Intent = 'createOrganization' | 'updateOrganization' | 'deleteOrganization';
const FAILURE: Record<Intent, string> = {
  createOrganization: 'Error creating organization',
  updateOrganization: 'Error updating organization',
  deleteOrganization: 'Error deleting organization',
};

export async function action({ request }: ActionFunctionArgs) {
  const actor = await adminActionUser(request);
  const form = await request.formData().catch(() => null);
  if (!form) throw json({ message: 'The form could not be read' }, { status: 400 });
  const intent = String(form.get('intent') ?? '') as Intent;
  const backField = String(form.get('back') ?? '');
  const back = backField.startsWith(PATH) ? backField : PATH;
  const id = String(form.get('id') ?? '');
  const message = (error: unknown) => {
    if (isAppError(error) && error.status < 500) return error.message;
    console.error(error);
    return 'Something went wrong on our side. Please try again.';
  };

  if (intent === 'createOrganization' || intent === 'updateOrganization') {
    const submission = parseWithZod(form, { schema: organizationFormSchema });
    if (submission.status !== 'success') return json({ intent, id, lastResult: submission.reply() }, { status: 400 });
    try {
      const input = { name: submission.value.name, description: submission.value.description ?? null };
      const saved = intent === 'createOrganization' ? await createOrganization(actor, input) : await updateOrganization(actor, id, input);
      return redirectWithToast(back, { title: intent === 'createOrganization' ? 'Organization created' : 'Organization updated', description: `${saved.name} is saved.`, variant: 'success' });
    } catch (error) {
      if (isAppError(error) && (error.status === 400 || error.status === 409)) return replyWithServiceError(submission, error, { extra: { intent, id } });
      return redirectWithToast(back, { title: FAILURE[intent], description: message(error), variant: 'destructive' });
    }
  }

  if (intent === 'deleteOrganization') {
    try {
      const org = await getOrganization(id);
      await deleteOrganization(actor, id);
      return redirectWithToast(back, { title: 'Organization deleted', description: `${org.name} was deleted.`, variant: 'success' });
    } catch (error) {
      return redirectWithToast(back, { title: FAILURE.deleteOrganization, description: message(error), variant: 'destructive' });
    }
  }
  throw json({ message: 'Unknown action' }, { status: 400 });
}

type Loaded = Extract<ReturnType<typeof useLoaderData<typeof loader>>, { state: 'ok' }>;

export default function AdminOrganizations() {
  const data = useLoaderData<typeof loader>();
  if (data.state === 'signedOut') return null;
  if (data.state === 'error') {
    return (
      <div className="space-y-4">
        <AdminHeader title="Pin Database Management" />
        <LoadError title="Failed to fetch organizations" message="The organizations could not be loaded. Please try again." />
      </div>
    );
  }
  return <OrganizationsTab data={data} />;
}

function useReply(intent: Intent, id: string): SubmissionResult<string[]> | undefined {
  const data = useActionData<typeof action>();
  if (!data || !('intent' in data) || data.intent !== intent || data.id !== id) return undefined;
  return data.lastResult as SubmissionResult<string[]>;
}

function OrganizationsTab({ data }: { data: Loaded }) {
  const { query, organizations, total, paging, totals } = data;
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  const listHref = listQueryHref(PATH, query);
  const stepHref = (dialog: DialogKind, id?: string) => `${listHref}${listHref.includes('?') ? '&' : '?'}dialog=${dialog}${id ? `&id=${encodeURIComponent(id)}` : ''}`;
  const createReply = useReply('createOrganization', '');
  const actionData = useActionData<typeof action>();
  const failedId = actionData && 'intent' in actionData && actionData.intent === 'updateOrganization' ? actionData.id : null;
  const editTarget = data.dialog === 'edit' ? data.target : failedId ? (organizations.find((o) => o.id === failedId) ?? null) : null;

  const columns: DataTableColumn<AdminOrganization>[] = [
    { key: 'name', header: 'Name', sort: 'name', rowHeader: true, cell: (o) => o.name },
    { key: 'description', header: 'Description', cell: (o) => <span className="line-clamp-2">{o.description || '-'}</span>, className: 'hidden sm:table-cell' },
    { key: 'pins', header: 'Pins', cell: (o) => formatCount(o.pinCount), className: 'hidden md:table-cell' },
    { key: 'createdAt', header: 'Created', sort: 'createdAt', sortFirst: 'desc', cell: (o) => formatDate(o.createdAt), className: 'hidden md:table-cell whitespace-nowrap' },
    {
      key: 'actions',
      header: 'Actions',
      cell: (o) => (
        <div className="flex flex-wrap justify-end gap-2">
          <EditOrganization organization={o} href={stepHref('edit', o.id)} closeHref={listHref} history={null} />
          <DeleteOrganization organization={o} href={stepHref('delete', o.id)} closeHref={listHref} />
        </div>
      ),
    },
  ];

  return (
    <div className="space-y-4">
      <PinDatabaseHeader current="organizations" totals={totals} />
      <div className="flex flex-wrap items-end justify-between gap-3">
        <ListSearch query={query} label="Search organizations" placeholder="Search organizations..." pathname={PATH} className="flex flex-1 flex-wrap items-end gap-3" />
        <Dialog
          title="Add Organization"
          trigger="Add Organization"
          triggerClassName={buttonClass('primary')}
          href={stepHref('new')}
          closeHref={listHref}
          serverOpen={data.dialog === 'new' || !!createReply}
          closesOn={(f) => f.get('intent') === 'createOrganization'}
        >
          <OrganizationForm lastResult={createReply} back={listHref} action={PATH} />
        </Dialog>
      </div>
      {editTarget ? <EditOrganization organization={editTarget} href={here} closeHref={listHref} history={data.history} serverOpen /> : null}
      {data.target && data.dialog === 'delete' ? <DeleteOrganization organization={data.target} href={here} closeHref={listHref} serverOpen /> : null}
      <DataTable
        caption="Organizations"
        columns={columns}
        rows={organizations}
        rowKey={(o) => o.id}
        query={query}
        total={total}
        pathname={PATH}
        empty={
          <EmptyState
            title="No organizations found."
            description={isListFiltered(query) ? 'Try adjusting your search.' : 'Add the first organization to get started.'}
            action={isListFiltered(query) ? <Link to={PATH} className={buttonClass('secondary')}>Clear search</Link> : null}
          />
        }
      />
      <Pagination paging={paging} query={query} pathname={PATH} label="Organization pages" />
    </div>
  );
}

function EditOrganization({
  organization,
  href,
  closeHref,
  history,
  serverOpen = false,
}: {
  organization: AdminOrganization;
  href: string;
  closeHref: string;
  history: Loaded['history'];
  serverOpen?: boolean;
}) {
  const reply = useReply('updateOrganization', organization.id);
  return (
    <Dialog
      title="Edit Organization"
      trigger={<span aria-label={`Edit ${organization.name}`}>Edit</span>}
      triggerClassName={buttonClass('secondary', 'sm')}
      href={href}
      closeHref={closeHref}
      serverOpen={serverOpen}
      closesOn={(f) => f.get('intent') === 'updateOrganization' && f.get('id') === organization.id}
    >
      <OrganizationForm organization={organization} lastResult={reply} back={closeHref} action={PATH} />
      {serverOpen ? <RecordHistory entries={history} /> : null}
    </Dialog>
  );
}

function DeleteOrganization({ organization, href, closeHref, serverOpen = false }: { organization: AdminOrganization; href: string; closeHref: string; serverOpen?: boolean }) {
  return (
    <ConfirmStep
      trigger={<span aria-label={`Delete ${organization.name}`}>Delete</span>}
      triggerClassName={buttonClass('danger', 'sm')}
      title="Delete Organization"
      description={
        <>
          <p>
            Are you sure you want to delete <strong>{organization.name}</strong>? This action cannot be undone.
          </p>
          <p className="mt-2">You cannot delete an organization that has pins associated with it.</p>
        </>
      }
      confirmLabel="Delete"
      pendingLabel="Deleting..."
      fields={{ intent: 'deleteOrganization', id: organization.id, back: closeHref }}
      action={PATH}
      href={href}
      closeHref={closeHref}
      serverOpen={serverOpen}
      danger
    />
  );
}
