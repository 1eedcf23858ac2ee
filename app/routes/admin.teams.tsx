import type { SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Link, useActionData, useLoaderData, useLocation } from '@remix-run/react';
import { canViewAuditLog } from '~/auth/permissions';
import { AdminHeader, LoadError, RecordHistory } from '~/components/admin';
import { formatTeamDate, TeamDetailsView, TeamForm, TransferForm } from '~/components/admin-teams';
import { buttonClass } from '~/components/ui/button';
import { ConfirmStep } from '~/components/ui/confirm-step';
import { DataTable, type DataTableColumn } from '~/components/ui/data-table';
import { Dialog, DialogCancel } from '~/components/ui/dialog';
import { EmptyState } from '~/components/ui/empty-state';
import { ListSearch } from '~/components/ui/list-search';
import { Pagination } from '~/components/ui/pagination';
import { adminTeamCreateSchema, adminTeamEditSchema, adminTeamsQuery, TEAMS_SEARCH_DEBOUNCE_MS, transferTeamSchema } from '~/forms/admin';
import { replyWithServiceError } from '~/http/form-reply.server';
import { adminActionUser, adminPageUser } from '~/http/guards.server';
import { redirectWithToast } from '~/http/toast.server';
import { recordHistory } from '~/services/admin/audit-log.server';
import { getAdminTeam, listAdminTeams, managerCandidates } from '~/services/admin/teams.server';
import { isAppError } from '~/services/errors';
import { createTeamForManager, deleteTeam, getTeamDetails, transferTeamOwnership, updateTeam } from '~/services/teams.server';
import type { AdminTeam } from '~/types/admin';
import { formatCount } from '~/utils/format';
import { isListFiltered, listQueryHref, readListQuery } from '~/utils/list-query';
import { paginate } from '~/utils/paging';
import '~/root';

export const meta: MetaFunction = () => [{ title: 'Team Management | PinDex Admin' }];

const PATH = '/admin/teams';
const DIALOGS = ['new', 'details', 'edit', 'transfer', 'delete'] as const;
type DialogKind = (typeof DIALOGS)[number];
const DESCRIPTION_CUT = 50;

// Signed out: the layout shows the prompt; other roles are sent to / by the guard.
export async function loader({ request }: LoaderFunctionArgs) {
  const actor = await adminPageUser(request);
  if (!actor) return json({ state: 'signedOut' as const });
  const url = new URL(request.url);
  const query = readListQuery(url, adminTeamsQuery);
  const dialogParam = url.searchParams.get('dialog');
  const dialog = (DIALOGS as readonly string[]).includes(dialogParam ?? '') ? (dialogParam as DialogKind) : null;
  const dialogId = url.searchParams.get('id');
  try {
    const opts = { search: query.q, sort: query.sort, dir: query.dir };
    const asked = paginate({ total: Number.MAX_SAFE_INTEGER, page: query.page, size: query.size });
    let list = await listAdminTeams(actor, { ...opts, limit: asked.limit, offset: asked.offset });
    let paging = paginate({ total: list.total, page: query.page, size: query.size });
    if (paging.offset !== asked.offset) {
      list = await listAdminTeams(actor, { ...opts, limit: paging.limit, offset: paging.offset });
      paging = paginate({ total: list.total, page: paging.page, size: query.size });
    }
    const managers = await managerCandidates(actor);
    let target: AdminTeam | null = null;
    if (dialogId && dialog && dialog !== 'new') target = list.items.find((t) => t.id === dialogId) ?? (await getAdminTeam(actor, dialogId));
    const details = target && dialog === 'details' ? await getTeamDetails(actor, target.id) : null;
    const history = target && dialog === 'details' && canViewAuditLog(actor) ? await recordHistory(actor, 'team', target.id) : null;
    return json({ state: 'ok' as const, query, teams: list.items, total: list.total, paging, managers, dialog: dialog === 'new' || target ? dialog : null, target, details, history });
  } catch (error) {
    console.error(error);
    return json({ state: 'error' as const }, { status: 500 });
  }
}

type Intent = 'createTeam' | 'updateTeam' | 'transferTeam' | 'deleteTeam';
const FALLBACK: Record<Intent, string> = {
  createTeam: 'Failed to create team.',
  updateTeam: 'Failed to update team.',
  transferTeam: 'Failed to transfer ownership.',
  deleteTeam: 'Failed to delete team.',
};

export async function action({ request }: ActionFunctionArgs) {
  const actor = await adminActionUser(request);
  const form = await request.formData().catch(() => null);
  if (!form) throw json({ message: 'The form could not be read' }, { status: 400 });
  const intent = String(form.get('intent') ?? '') as Intent;
  const backField = String(form.get('back') ?? '');
  const back = backField.startsWith(PATH) ? backField : PATH;
  const id = String(form.get('id') ?? '');
  const failed = (error: unknown) => {
    if (!isAppError(error) || error.status >= 500) console.error(error);
    return redirectWithToast(back, { title: 'Error', description: isAppError(error) && error.status < 500 ? error.message : FALLBACK[intent], variant: 'destructive' });
  };

  if (intent === 'createTeam' || intent === 'updateTeam' || intent === 'transferTeam') {
    const schema = intent === 'createTeam' ? adminTeamCreateSchema : intent === 'updateTeam' ? adminTeamEditSchema : transferTeamSchema;
    const submission = parseWithZod(form, { schema });
    if (submission.status !== 'success') return json({ intent, id, lastResult: submission.reply() }, { status: 400 });
    try {
      if (intent === 'createTeam') {
        const team = await createTeamForManager(actor, submission.value);
        return redirectWithToast(back, { title: 'Team Created', description: `${team.name} was created.`, variant: 'success' });
      }
      if (intent === 'updateTeam') {
        const team = await updateTeam(actor, id, submission.value);
        return redirectWithToast(back, { title: 'Team Updated', description: `${team.name} was saved.`, variant: 'success' });
      }
      const team = await transferTeamOwnership(actor, id, submission.value);
      const now = await getAdminTeam(actor, team.id);
      return redirectWithToast(back, { title: 'Ownership Transferred', description: `${team.name} is now managed by ${now?.managerName ?? 'its new manager'}.`, variant: 'success' });
    } catch (error) {
      if (isAppError(error) && error.status === 400) return replyWithServiceError(submission, error, { extra: { intent, id } });
      return failed(error);
    }
  }

  if (intent === 'deleteTeam') {
    try {
      const deleted = await deleteTeam(actor, id);
      return redirectWithToast(back, { title: 'Team Deleted', description: `${deleted.name} and its roster and staff were deleted.`, variant: 'success' });
    } catch (error) {
      return failed(error);
    }
  }
  throw json({ message: 'Unknown action' }, { status: 400 });
}

type Loaded = Extract<ReturnType<typeof useLoaderData<typeof loader>>, { state: 'ok' }>;

export default function AdminTeams() {
  const data = useLoaderData<typeof loader>();
  if (data.state === 'signedOut') return null;
  if (data.state === 'error') {
    return (
      <div className="space-y-4">
        <AdminHeader title="Team Management" />
        <LoadError title="Failed to fetch teams" message="Failed to load teams. Please try again." />
      </div>
    );
  }
  return <TeamsTable data={data} />;
}

function useReply(intent: Intent, id: string): SubmissionResult<string[]> | undefined {
  const data = useActionData<typeof action>();
  if (!data || !('intent' in data) || data.intent !== intent || data.id !== id) return undefined;
  return data.lastResult as SubmissionResult<string[]>;
}

const cut = (text: string | null) => (text && text.length > DESCRIPTION_CUT ? `${text.slice(0, DESCRIPTION_CUT)}...` : text);

function TeamsTable({ data }: { data: Loaded }) {
  const { query, teams, total, paging, managers } = data;
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  const listHref = listQueryHref(PATH, query);
  const stepHref = (dialog: DialogKind, id?: string) => `${listHref}${listHref.includes('?') ? '&' : '?'}dialog=${dialog}${id ? `&id=${encodeURIComponent(id)}` : ''}`;
  const createReply = useReply('createTeam', '');
  const actionData = useActionData<typeof action>();
  const failed = actionData && 'intent' in actionData ? actionData : null;
  const failedTeam = failed ? (teams.find((t) => t.id === failed.id) ?? null) : null;
  const editTarget = data.dialog === 'edit' ? data.target : failed?.intent === 'updateTeam' ? failedTeam : null;
  const transferTarget = data.dialog === 'transfer' ? data.target : failed?.intent === 'transferTeam' ? failedTeam : null;

  const columns: DataTableColumn<AdminTeam>[] = [
    {
      key: 'name',
      header: 'Name',
      sort: 'name',
      rowHeader: true,
      cell: (t) => (
        <div className="min-w-[10rem]">
          <p className="font-medium text-slate-900">{t.name}</p>
          {t.description ? <p className="text-xs font-normal text-slate-500">{cut(t.description)}</p> : null}
        </div>
      ),
    },
    { key: 'manager', header: 'Manager', cell: (t) => t.managerName ?? '-', className: 'hidden sm:table-cell' },
    { key: 'location', header: 'Location', cell: (t) => t.location ?? '-', className: 'hidden md:table-cell' },
    { key: 'members', header: 'Members', cell: (t) => <span className="badge bg-slate-100 text-slate-700">{formatCount(t.memberCount)}</span>, className: 'hidden sm:table-cell' },
    { key: 'createdAt', header: 'Created', sort: 'createdAt', sortFirst: 'desc', cell: (t) => formatTeamDate(t.createdAt), className: 'hidden md:table-cell whitespace-nowrap' },
    {
      key: 'actions',
      header: 'Actions',
      cell: (t) => (
        <div className="flex flex-wrap justify-end gap-2">
          <Link to={stepHref('details', t.id)} className={buttonClass('ghost', 'sm')} aria-label={`View details of ${t.name}`} preventScrollReset>
            Details
          </Link>
          <EditTeam team={t} managers={managers} href={stepHref('edit', t.id)} closeHref={listHref} />
          <TransferTeam team={t} managers={managers} href={stepHref('transfer', t.id)} closeHref={listHref} />
          <DeleteTeam team={t} href={stepHref('delete', t.id)} closeHref={listHref} />
        </div>
      ),
    },
  ];

  return (
    <div className="space-y-4">
      <AdminHeader
        title="Team Management"
        subtitle={`${formatCount(total)} ${total === 1 ? 'team' : 'teams'}`}
        actions={
          <Dialog
            title="Create New Team"
            trigger="Create Team"
            triggerClassName={buttonClass('primary')}
            href={stepHref('new')}
            closeHref={listHref}
            serverOpen={data.dialog === 'new' || !!createReply}
            closesOn={(f) => f.get('intent') === 'createTeam'}
          >
            <TeamForm managers={managers} lastResult={createReply} back={listHref} action={PATH} />
          </Dialog>
        }
      />
      <ListSearch query={query} label="Search teams" placeholder="Search by name, location or manager" debounceMs={TEAMS_SEARCH_DEBOUNCE_MS} pathname={PATH} />

      {data.target && data.details && data.dialog === 'details' ? (
        <Dialog title="Team Details" trigger="Details" href={here} closeHref={listHref} serverOpen size="lg">
          <TeamDetailsView details={data.details} />
          <RecordHistory entries={data.history} />
          <div className="mt-4 flex justify-end">
            <DialogCancel>Close</DialogCancel>
          </div>
        </Dialog>
      ) : null}
      {editTarget ? <EditTeam team={editTarget} managers={managers} href={here} closeHref={listHref} serverOpen /> : null}
      {transferTarget ? <TransferTeam team={transferTarget} managers={managers} href={here} closeHref={listHref} serverOpen /> : null}
      {data.target && data.dialog === 'delete' ? <DeleteTeam team={data.target} href={here} closeHref={listHref} serverOpen /> : null}

      <DataTable
        caption="Teams"
        columns={columns}
        rows={teams}
        rowKey={(t) => t.id}
        query={query}
        total={total}
        pathname={PATH}
        empty={
          <EmptyState
            title="No teams found"
            description={isListFiltered(query) ? 'Try another name, location or manager.' : 'Create the first team to get started.'}
            action={isListFiltered(query) ? <Link to={PATH} className={buttonClass('secondary')}>Clear search</Link> : null}
          />
        }
      />
      <Pagination paging={paging} query={query} pathname={PATH} label="Team pages" />
    </div>
  );
}

type TeamDialogProps = { team: AdminTeam; href: string; closeHref: string; serverOpen?: boolean };

function EditTeam({ team, managers, href, closeHref, serverOpen = false }: TeamDialogProps & { managers: Loaded['managers'] }) {
  const reply = useReply('updateTeam', team.id);
  return (
    <Dialog
      title="Edit Team"
      trigger={<span aria-label={`Edit ${team.name}`}>Edit</span>}
      triggerClassName={buttonClass('secondary', 'sm')}
      href={href}
      closeHref={closeHref}
      serverOpen={serverOpen}
      closesOn={(f) => f.get('intent') === 'updateTeam' && f.get('id') === team.id}
    >
      <TeamForm team={team} managers={managers} lastResult={reply} back={closeHref} action={PATH} />
    </Dialog>
  );
}

function TransferTeam({ team, managers, href, closeHref, serverOpen = false }: TeamDialogProps & { managers: Loaded['managers'] }) {
  const reply = useReply('transferTeam', team.id);
  return (
    <Dialog
      title="Transfer Team Ownership"
      description={<>Choose the new manager of {team.name}.</>}
      trigger={<span aria-label={`Transfer ownership of ${team.name}`}>Transfer</span>}
      triggerClassName={buttonClass('secondary', 'sm')}
      href={href}
      closeHref={closeHref}
      serverOpen={serverOpen}
      closesOn={(f) => f.get('intent') === 'transferTeam' && f.get('id') === team.id}
    >
      <TransferForm team={team} managers={managers} lastResult={reply} back={closeHref} action={PATH} />
    </Dialog>
  );
}

function DeleteTeam({ team, href, closeHref, serverOpen = false }: TeamDialogProps) {
  return (
    <ConfirmStep
      trigger={<span aria-label={`Delete ${team.name}`}>Delete</span>}
      triggerClassName={buttonClass('danger', 'sm')}
      title="Delete Team"
      description={
        <>
          Are you sure you want to delete <strong>{team.name}</strong>? This action cannot be undone and will remove all associated data.
        </>
      }
      confirmLabel="Delete"
      pendingLabel="Deleting..."
      fields={{ intent: 'deleteTeam', id: team.id, back: closeHref }}
      action={PATH}
      href={href}
      closeHref={closeHref}
      serverOpen={serverOpen}
      danger
    />
  );
}
