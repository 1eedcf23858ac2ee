import type { MetaFunction } from '@remix-run/node';
import { Link, useActionData, useLoaderData, useLocation } from '@remix-run/react';
import { AdminHeader, LoadError, RecordHistory } from '~/components/admin';
import { formatTeamDate, TeamDetailsView, TeamForm, TransferForm } from '~/components/admin-teams';
import { buttonClass } from '~/components/ui/button';
import { ConfirmStep } from '~/components/ui/confirm-step';
import { DataTable, type DataTableColumn } from '~/components/ui/data-table';
import { Dialog, DialogCancel } from '~/components/ui/dialog';
import { EmptyState } from '~/components/ui/empty-state';
import type { SubmissionResult } from '~/components/ui/form-state';
import { ListSearch, Pagination } from '~/components/ui/list-controls';
import { adminTeamsAction, adminTeamsLoader } from '~/http/admin-teams-page.server';
import type { AdminTeam } from '~/types/admin';
import { TEAMS_SEARCH_DEBOUNCE_MS } from '~/utils/admin-constants';
import { formatCount } from '~/utils/format';
import { isListFiltered, listQueryHref } from '~/utils/list-state';
import '~/root';

export const meta: MetaFunction = () => [{ title: 'Team Management | PinDex Admin' }];

const PATH = '/admin/teams';
type DialogKind = 'new' | 'details' | 'edit' | 'transfer' | 'delete';
const DESCRIPTION_CUT = 50;

export const loader = adminTeamsLoader;
export const action = adminTeamsAction;

type Intent = 'createTeam' | 'updateTeam' | 'transferTeam' | 'deleteTeam';

type Loaded = Extract<ReturnType<typeof useLoaderData<typeof loader>>, { state: 'ok' }>;

export default function AdminTeams() {
  const data = useLoaderData<typeof loader>();
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
