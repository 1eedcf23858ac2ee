import type { MetaFunction } from '@remix-run/node';
import { Link, useActionData, useLoaderData, useLocation } from '@remix-run/react';
import { AdminHeader, LoadError, PinDatabaseHeader, RecordHistory } from '~/components/admin';
import { PinForm } from '~/components/admin-pin-form';
import { RarityBadge } from '~/components/rarity-badge';
import { buttonClass } from '~/components/ui/button';
import { ConfirmStep } from '~/components/ui/confirm-step';
import { type DataTableColumn } from '~/components/ui/data-table';
import { BulkDataTable } from '~/components/ui/data-table-bulk';
import { Dialog } from '~/components/ui/dialog';
import { EmptyState } from '~/components/ui/empty-state';
import type { SubmissionResult } from '~/components/ui/form-state';
import { ListSearch, Pagination } from '~/components/ui/list-controls';
import { adminPinsAction, adminPinsLoader } from '~/http/admin-pins-page.server';
import type { AdminPin } from '~/types/admin';
import { SEARCH_DEBOUNCE_MS } from '~/utils/admin-constants';
import { RARITIES, RARITY_LABELS } from '~/utils/constants';
import { formatDate, formatMoney } from '~/utils/format';
import { isListFiltered, listQueryHref } from '~/utils/list-state';
import '~/root';

export const meta: MetaFunction = () => [{ title: 'Pin Database Management | PinDex Admin' }];

const PATH = '/admin/pins';
type DialogKind = 'new' | 'edit' | 'delete';

export const loader = adminPinsLoader;
export const action = adminPinsAction;

type Loaded = Extract<ReturnType<typeof useLoaderData<typeof loader>>, { state: 'ok' }>;

export default function AdminPins() {
  const data = useLoaderData<typeof loader>();
  if (data.state === 'error') {
    return (
      <div className="space-y-4">
        <AdminHeader title="Pin Database Management" />
        <LoadError title="Failed to fetch pins" message="The pins could not be loaded. Please try again." />
      </div>
    );
  }
  return <PinsTab data={data} />;
}

/** The action's reply to one pin form (create: id ''). */
function useReply(intent: string, id: string): SubmissionResult<string[]> | undefined {
  const data = useActionData<typeof action>();
  if (!data || !('intent' in data) || data.intent !== intent || data.id !== id) return undefined;
  return data.lastResult as SubmissionResult<string[]>;
}

function PinsTab({ data }: { data: Loaded }) {
  const { query, pins, total, paging, totals, choices } = data;
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  const listHref = listQueryHref(PATH, query);
  const stepHref = (dialog: DialogKind, id?: string) => `${listHref}${listHref.includes('?') ? '&' : '?'}dialog=${dialog}${id ? `&id=${encodeURIComponent(id)}` : ''}`;
  const createReply = useReply('createPin', '');
  const actionData = useActionData<typeof action>();
  const failedId = actionData && 'intent' in actionData && actionData.intent === 'updatePin' ? actionData.id : null;
  const editTarget = data.dialog === 'edit' ? data.target : failedId ? (pins.find((p) => p.id === failedId) ?? null) : null;
  const filtered = isListFiltered(query);

  const columns: DataTableColumn<AdminPin>[] = [
    {
      key: 'name',
      header: 'Name',
      sort: 'name',
      rowHeader: true,
      cell: (p) => (
        <div className="flex min-w-[12rem] items-center gap-3">
          {p.thumbnail ? <img src={p.thumbnail} alt="" width={40} height={40} loading="lazy" className="h-10 w-10 shrink-0 rounded object-cover" /> : <span className="h-10 w-10 shrink-0 rounded bg-slate-100" />}
          <div className="min-w-0">
            <p className="font-medium text-slate-900">{p.name}</p>
            {p.description ? <p className="line-clamp-1 text-xs font-normal text-slate-500">{p.description}</p> : null}
          </div>
        </div>
      ),
    },
    { key: 'organization', header: 'Organization', cell: (p) => p.organization ?? 'Unknown', className: 'hidden md:table-cell' },
    { key: 'team', header: 'Team', cell: (p) => p.team ?? '-', className: 'hidden lg:table-cell' },
    { key: 'rarity', header: 'Rarity', cell: (p) => <RarityBadge rarity={p.rarity} />, className: 'hidden sm:table-cell' },
    { key: 'value', header: 'Value', sort: 'value', sortFirst: 'desc', cell: (p) => formatMoney(p.estimatedValue), className: 'hidden sm:table-cell whitespace-nowrap' },
    {
      key: 'featured',
      header: 'Featured',
      cell: (p) => (p.isFeatured ? <span className="badge bg-amber-100 text-amber-800">Featured</span> : <span className="text-slate-400">-</span>),
      className: 'hidden sm:table-cell',
    },
    { key: 'createdAt', header: 'Created', sort: 'createdAt', sortFirst: 'desc', cell: (p) => formatDate(p.createdAt), className: 'hidden md:table-cell whitespace-nowrap' },
    {
      key: 'actions',
      header: 'Actions',
      cell: (p) => (
        <div className="flex flex-wrap justify-end gap-2">
          <EditPin pin={p} data={data} href={stepHref('edit', p.id)} closeHref={listHref} />
          <DeletePin pin={p} href={stepHref('delete', p.id)} closeHref={listHref} />
        </div>
      ),
    },
  ];

  return (
    <div className="space-y-4">
      <PinDatabaseHeader current="pins" totals={totals} />
      <div className="flex flex-wrap items-end justify-between gap-3">
        <ListSearch query={query} label="Search pins" placeholder="Search pins..." debounceMs={SEARCH_DEBOUNCE_MS} controls={['organizationId', 'rarity']} pathname={PATH} className="flex flex-1 flex-wrap items-end gap-3">
          <div>
            <label htmlFor="org-filter" className="label">
              Organization
            </label>
            <select id="org-filter" name="organizationId" defaultValue={query.filters.organizationId ?? ''} key={query.filters.organizationId ?? ''} className="input">
              <option value="">All Organizations</option>
              {choices.organizations.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.name}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="rarity-filter" className="label">
              Rarity
            </label>
            <select id="rarity-filter" name="rarity" defaultValue={query.filters.rarity ?? ''} key={query.filters.rarity ?? ''} className="input">
              <option value="">All Rarities</option>
              {RARITIES.map((r) => (
                <option key={r} value={r}>
                  {RARITY_LABELS[r]}
                </option>
              ))}
            </select>
          </div>
        </ListSearch>
        <Dialog
          title="Add New Pin"
          trigger="Add Pin"
          triggerClassName={buttonClass('primary')}
          href={stepHref('new')}
          closeHref={listHref}
          serverOpen={data.dialog === 'new' || !!createReply}
          closesOn={(f) => f.get('intent') === 'createPin'}
          size="lg"
        >
          <PinForm organizations={choices.organizations} teams={choices.teams} lastResult={createReply} back={listHref} action={PATH} />
        </Dialog>
      </div>

      {editTarget ? <EditPin pin={editTarget} data={data} href={here} closeHref={listHref} serverOpen /> : null}
      {data.target && data.dialog === 'delete' ? <DeletePin pin={data.target} href={here} closeHref={listHref} serverOpen /> : null}

      <BulkDataTable
        caption="Pins"
        columns={columns}
        rows={pins}
        rowKey={(p) => p.id}
        query={query}
        total={total}
        pathname={PATH}
        bulk={{
          actions: [
            { intent: 'feature', label: 'Feature' },
            { intent: 'unfeature', label: 'Unfeature' },
          ],
          rowLabel: (p) => p.name,
          noun: ['pin', 'pins'],
          action: PATH,
        }}
        empty={
          <EmptyState
            title="No pins found."
            description={filtered ? 'Try adjusting your filters.' : 'Add your first pin to get started.'}
            action={filtered ? <Link to={PATH} className={buttonClass('secondary')}>Clear filters</Link> : null}
          />
        }
      />
      <Pagination paging={paging} query={query} pathname={PATH} label="Pin pages" />
    </div>
  );
}

function EditPin({ pin, data, href, closeHref, serverOpen = false }: { pin: AdminPin; data: Loaded; href: string; closeHref: string; serverOpen?: boolean }) {
  const reply = useReply('updatePin', pin.id);
  const open = serverOpen;
  return (
    <Dialog
      title="Edit Pin"
      description={pin.name}
      trigger={<span aria-label={`Edit ${pin.name}`}>Edit</span>}
      triggerClassName={buttonClass('secondary', 'sm')}
      href={href}
      closeHref={closeHref}
      serverOpen={open}
      closesOn={(f) => f.get('intent') === 'updatePin' && f.get('id') === pin.id}
      size="lg"
    >
      <PinForm pin={pin} organizations={data.choices.organizations} teams={data.choices.teams} lastResult={reply} back={closeHref} action={PATH} />
      {open ? <RecordHistory entries={data.history} /> : null}
    </Dialog>
  );
}

function DeletePin({ pin, href, closeHref, serverOpen = false }: { pin: AdminPin; href: string; closeHref: string; serverOpen?: boolean }) {
  return (
    <ConfirmStep
      trigger={<span aria-label={`Delete ${pin.name}`}>Delete</span>}
      triggerClassName={buttonClass('danger', 'sm')}
      title="Delete Pin"
      description={
        <>
          Are you sure you want to delete <strong>{pin.name}</strong>? This will also delete all associated identification records. This action cannot be undone.
        </>
      }
      confirmLabel="Delete"
      pendingLabel="Deleting..."
      fields={{ intent: 'deletePin', id: pin.id, back: closeHref }}
      action={PATH}
      href={href}
      closeHref={closeHref}
      serverOpen={serverOpen}
      danger
    />
  );
}
