import type { SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Link, useActionData, useLoaderData, useLocation } from '@remix-run/react';
import { canViewAuditLog } from '~/auth/permissions';
import { AdminHeader, LoadError, RecordHistory } from '~/components/admin';
import { PinDatabaseHeader, PinForm } from '~/components/admin-pins';
import { RarityBadge } from '~/components/rarity-badge';
import { buttonClass } from '~/components/ui/button';
import { ConfirmStep } from '~/components/ui/confirm-step';
import { DataTable, type DataTableColumn } from '~/components/ui/data-table';
import { Dialog } from '~/components/ui/dialog';
import { EmptyState } from '~/components/ui/empty-state';
import { ListSearch } from '~/components/ui/list-search';
import { Pagination } from '~/components/ui/pagination';
import { adminPinSchema, adminPinsQuery, arrangePhotos, MAX_PIN_PHOTOS, PHOTO_LIMIT_MESSAGE, PHOTO_LIMIT_TITLE, RARITIES } from '~/forms/admin';
import { readFormData } from '~/http/body.server';
import { replyWithServiceError } from '~/http/form-reply.server';
import { adminActionUser, adminPageUser } from '~/http/guards.server';
import { rethrowAsPageError } from '~/http/page.server';
import { redirectWithToast, type ToastInput } from '~/http/toast.server';
import { recordHistory } from '~/services/admin/audit-log.server';
import { createAdminPin, getAdminPin, listAdminPins, pinFormChoices, pinTabTotals, setPinsFeatured, updateAdminPin } from '~/services/admin/pins.server';
import { isAppError } from '~/services/errors';
import { deletePin } from '~/services/pins.server';
import type { AdminPin } from '~/types/admin';
import { MAX_IMAGE_BYTES, RARITY_LABELS } from '~/utils/constants';
import { formatCount, formatDate, formatMoney } from '~/utils/format';
import { isListFiltered, listQueryHref, readListQuery } from '~/utils/list-query';
import { paginate } from '~/utils/paging';
import '~/root';

export const meta: MetaFunction = () => [{ title: 'Pin Database Management | PinDex Admin' }];

const PATH = '/admin/pins';
const DIALOGS = ['new', 'edit', 'delete'] as const;
type DialogKind = (typeof DIALOGS)[number];

// Signed out: the layout shows the prompt; other roles are sent to / by the guard.
export async function loader({ request }: LoaderFunctionArgs) {
  const actor = await adminPageUser(request);
  if (!actor) return json({ state: 'signedOut' as const });
  const url = new URL(request.url);
  const query = readListQuery(url, adminPinsQuery);
  const dialogParam = url.searchParams.get('dialog');
  const dialog = (DIALOGS as readonly string[]).includes(dialogParam ?? '') ? (dialogParam as DialogKind) : null;
  const dialogId = url.searchParams.get('id');
  try {
    const filters = { search: query.q, organizationId: query.filters.organizationId, rarity: query.filters.rarity, featured: query.filters.featured, sort: query.sort, dir: query.dir };
    const asked = paginate({ total: Number.MAX_SAFE_INTEGER, page: query.page, size: query.size });
    let list = await listAdminPins(actor, { ...filters, limit: asked.limit, offset: asked.offset });
    let paging = paginate({ total: list.total, page: query.page, size: query.size });
    if (paging.offset !== asked.offset) {
      list = await listAdminPins(actor, { ...filters, limit: paging.limit, offset: paging.offset });
      paging = paginate({ total: list.total, page: paging.page, size: query.size });
    }
    const [totals, choices] = await Promise.all([pinTabTotals(actor), pinFormChoices(actor)]);
    let target: AdminPin | null = null;
    if (dialogId && (dialog === 'edit' || dialog === 'delete')) {
      target = list.pins.find((p) => p.id === dialogId) ?? (await getAdminPin(actor, dialogId).catch(() => null));
    }
    const history = target && dialog === 'edit' && canViewAuditLog(actor) ? await recordHistory(actor, 'pin', target.id) : null;
    return json({ state: 'ok' as const, query, pins: list.pins, total: list.total, paging, totals, choices, dialog: dialog === 'new' || target ? dialog : null, target, history });
  } catch (error) {
    console.error(error);
    return json({ state: 'error' as const }, { status: 500 });
  }
}

type Intent = 'createPin' | 'updatePin' | 'deletePin' | 'feature' | 'unfeature';
const FAILURE: Record<Intent, string> = {
  createPin: 'Error creating pin',
  updatePin: 'Error updating pin',
  deletePin: 'Error deleting pin',
  feature: 'Error updating pins',
  unfeature: 'Error updating pins',
};

const failure = (error: unknown, fallback: string) => {
  if (isAppError(error) && error.status < 500) return error.message;
  console.error(error);
  return fallback;
};

export async function action({ request }: ActionFunctionArgs) {
  const actor = await adminActionUser(request);
  let form: FormData;
  try {
    form = await readFormData(request, MAX_PIN_PHOTOS * MAX_IMAGE_BYTES + 1024 * 1024);
  } catch (error) {
    rethrowAsPageError(error);
  }
  const intent = String(form.get('intent') ?? '') as Intent;
  const backField = String(form.get('back') ?? '');
  // the bulk form posts the list's state instead of a `back`
  const back = backField.startsWith(`${PATH}`) ? backField : listQueryHref(PATH, readListQuery(form, adminPinsQuery));
  const id = String(form.get('id') ?? '');

  if (intent === 'createPin' || intent === 'updatePin') {
    const submission = parseWithZod(form, { schema: adminPinSchema });
    if (submission.status !== 'success') return json({ intent, id, lastResult: submission.reply() }, { status: 400 });
    const v = submission.value;
    const uploads = form.getAll('photos').filter((f): f is File => typeof f !== 'string' && f.size > 0);
    try {
      const current = intent === 'updatePin' ? await getAdminPin(actor, id) : null;
      const arranged = arrangePhotos(current?.images ?? [], v.keep, uploads, v.primary, current?.primaryPhotoIndex ?? 0);
      const photosChanged = !current || uploads.length > 0 || arranged.photos.length !== current.images.length;
      const fields = {
        name: v.name,
        organizationId: v.organizationId,
        description: v.description ?? null,
        teamId: v.teamId ?? null,
        totalQuantity: v.totalQuantity,
        year: v.year ?? null,
        event: v.event ?? null,
        distributionDate: v.distributionDate ?? null,
        estimatedValue: v.estimatedValue ?? null,
        isFeatured: v.isFeatured,
        primaryPhotoIndex: arranged.primaryPhotoIndex,
        ...(photosChanged ? { images: arranged.photos } : {}),
      };
      const saved = current ? await updateAdminPin(actor, current.id, fields) : await createAdminPin(actor, fields);
      const toast: ToastInput = {
        title: current ? 'Pin updated' : 'Pin created',
        description: `${saved.name} is saved${saved.images.length ? ' and identifiable from a photo' : ''}.`,
        variant: 'success',
      };
      if (arranged.ignored > 0) toast.more = [{ title: PHOTO_LIMIT_TITLE, description: PHOTO_LIMIT_MESSAGE, variant: 'destructive' }];
      return redirectWithToast(back, toast);
    } catch (error) {
      if (isAppError(error) && error.status !== 404 && error.status < 500) {
        return replyWithServiceError(submission, error, { extra: { intent, id }, renameFields: { images: 'keep', organizationName: 'organizationId' } });
      }
      return redirectWithToast(back, { title: FAILURE[intent], description: failure(error, intent === 'createPin' ? 'Failed to create pin' : 'Failed to update pin'), variant: 'destructive' });
    }
  }

  if (intent === 'deletePin') {
    try {
      const pin = await getAdminPin(actor, id);
      await deletePin(actor, id);
      return redirectWithToast(back, { title: 'Pin deleted', description: `${pin.name} and its identification records were deleted.`, variant: 'success' });
    } catch (error) {
      return redirectWithToast(back, { title: FAILURE.deletePin, description: failure(error, 'Failed to delete pin'), variant: 'destructive' });
    }
  }

  if (intent === 'feature' || intent === 'unfeature') {
    const featured = intent === 'feature';
    try {
      const target =
        form.get('scope') === 'all'
          ? (() => {
              const q = readListQuery(form, adminPinsQuery);
              return { filters: { search: q.q, organizationId: q.filters.organizationId, rarity: q.filters.rarity, featured: q.filters.featured } };
            })()
          : { pinIds: form.getAll('ids').map(String) };
      const result = await setPinsFeatured(actor, target, featured);
      const n = result.updated;
      return redirectWithToast(back, {
        title: 'Pins updated',
        description: n === 0 ? `The pins chosen were already ${featured ? 'featured' : 'not featured'}.` : `${formatCount(n)} ${n === 1 ? 'pin' : 'pins'} ${featured ? 'featured' : 'unfeatured'}.`,
        variant: 'success',
      });
    } catch (error) {
      return redirectWithToast(back, { title: FAILURE[intent], description: failure(error, 'Failed to update pins'), variant: 'destructive' });
    }
  }
  throw json({ message: 'Unknown action' }, { status: 400 });
}

type Loaded = Extract<ReturnType<typeof useLoaderData<typeof loader>>, { state: 'ok' }>;

export default function AdminPins() {
  const data = useLoaderData<typeof loader>();
  if (data.state === 'signedOut') return null;
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
        <ListSearch query={query} label="Search pins" placeholder="Search pins..." controls={['organizationId', 'rarity']} pathname={PATH} className="flex flex-1 flex-wrap items-end gap-3">
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

      <DataTable
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
