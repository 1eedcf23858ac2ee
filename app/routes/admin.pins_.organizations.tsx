import type { MetaFunction } from '@remix-run/node';
import { Link, useActionData, useLoaderData, useLocation } from '@remix-run/react';
import { AdminHeader, LoadError, PinDatabaseHeader, RecordHistory } from '~/components/admin';
import { OrganizationForm } from '~/components/admin-organization-form';
import { buttonClass } from '~/components/ui/button';
import { ConfirmStep } from '~/components/ui/confirm-step';
import { DataTable, type DataTableColumn } from '~/components/ui/data-table';
import { Dialog } from '~/components/ui/dialog';
import { EmptyState } from '~/components/ui/empty-state';
import type { SubmissionResult } from '~/components/ui/form-state';
import { ListSearch, Pagination } from '~/components/ui/list-controls';
import { adminOrganizationsAction, adminOrganizationsLoader } from '~/http/admin-organizations-page.server';
import type { AdminOrganization } from '~/types/admin';
import { SEARCH_DEBOUNCE_MS } from '~/utils/admin-constants';
import { formatCount, formatDate } from '~/utils/format';
import { isListFiltered, listQueryHref } from '~/utils/list-state';
import '~/root';

export const meta: MetaFunction = () => [{ title: 'Organizations | Pin Database Management | PinDex Admin' }];

const PATH = '/admin/pins/organizations';
type DialogKind = 'new' | 'edit' | 'delete';

export const loader = adminOrganizationsLoader;
export const action = adminOrganizationsAction;

type Intent = 'createOrganization' | 'updateOrganization' | 'deleteOrganization';

type Loaded = Extract<ReturnType<typeof useLoaderData<typeof loader>>, { state: 'ok' }>;

export default function AdminOrganizations() {
  const data = useLoaderData<typeof loader>();
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
        <ListSearch query={query} label="Search organizations" placeholder="Search organizations..." debounceMs={SEARCH_DEBOUNCE_MS} pathname={PATH} className="flex flex-1 flex-wrap items-end gap-3" />
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
