import { getFormProps, getInputProps, getSelectProps, useForm, type SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { canManageTeam } from '~/auth/permissions';
import { ConfirmStep } from '~/components/ui/confirm-step';
import { PinGrid, toCardData } from '~/components/pin-card';
import { withCommunityCounts } from '~/services/community.server';
import { EmptyNote, roleLabel, StatusBadge, TeamLogo } from '~/components/teams';
import { FieldFrame, FormErrors } from '~/components/ui/field';
import { Tabs } from '~/components/ui/tabs';
import { editPlayerFormSchema, POSITIONS } from '~/forms/teams';
import { replyWithServiceError } from '~/http/form-reply.server';
import { requireUserOr404 } from '~/http/guards.server';
import { rethrowAsPageError } from '~/http/page.server';
import { redirectWithToast } from '~/http/toast.server';
import { isAppError } from '~/services/errors';
import { createInvite, listInvites, revokeInvite, type TeamInvite } from '~/services/team-invites.server';
import { pinOrderQuantities } from '~/services/team-pin-orders.server';
import { importRosterCsv, ROSTER_CSV_MAX_BYTES } from '~/services/team-roster-csv.server';
import { getTeamDetails, listTeamPins, removePlayer, updatePlayer } from '~/services/teams.server';
import type { RosterEntry } from '~/types/teams';
import { formatCount, formatDate } from '~/utils/format';
import '~/root';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data && data.state === 'ok' ? `${data.details.team.name} | PinDex` : data?.state === 'notFound' ? 'Team Not Found | PinDex' : 'Team | PinDex' },
];

// Team detail is not registered for signed-out visitors: they get the 404 page.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUserOr404(request);
  const url = new URL(request.url);
  const id = params.id ?? '';
  let details;
  let pins;
  try {
    details = await getTeamDetails(user, id);
    pins = await listTeamPins(user, id);
  } catch (error) {
    if (isAppError(error) && error.status === 404) return json({ state: 'notFound' as const }, { status: 404 });
    if (isAppError(error)) rethrowAsPageError(error);
    console.error(error);
    return json({ state: 'error' as const }, { status: 500 });
  }
  const canManage = canManageTeam(user, details.team);
  const tab = url.searchParams.get('tab') === 'staff' ? 'staff' : 'players';
  const invites: TeamInvite[] = canManage ? await listInvites(user, id) : [];
  const orders = await pinOrderQuantities(id);
  const onRoster = (rosterId: string | null) => (rosterId && details.roster.some((r) => r.id === rosterId) ? rosterId : null);
  return json({
    state: 'ok' as const,
    details,
    pins: await withCommunityCounts(pins.map(toCardData)),
    orders,
    canManage,
    // the links to share, whole (the page may be read from a phone and pasted into a message)
    invites: invites.filter((i, n) => i.status === 'active' || n < 5).map((i) => ({ ...i, url: `${url.origin}${i.path}` })),
    tab,
    // the server-rendered steps (no JavaScript): 'Edit Player Details' and the remove confirmation
    editId: canManage ? onRoster(url.searchParams.get('edit')) : null,
    removeId: canManage && url.searchParams.get('confirm') === 'remove' ? onRoster(url.searchParams.get('player')) : null,
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUserOr404(request);
  const teamId = params.id ?? '';
  const here = `/teams/${teamId}?tab=players`;
  if (Number(request.headers.get('content-length') ?? '0') > ROSTER_CSV_MAX_BYTES + 64 * 1024) {
    return redirectWithToast(here, { title: 'Roster not imported', description: 'The roster file is too large (max 100 KB).', variant: 'destructive' });
  }
  const form = await request.formData().catch(() => null);
  if (!form) throw json({ message: 'The form could not be read' }, { status: 400 });
  const intent = form.get('intent');

  if (intent === 'importRoster') {
    const file = form.get('file');
    try {
      const result = await importRosterCsv(user, teamId, file);
      return redirectWithToast(here, { title: 'Roster imported', description: `${result.added} added, ${result.updated} updated.`, variant: 'success' });
    } catch (error) {
      if (isAppError(error) && error.status < 500) {
        return json({ intent: 'importRoster' as const, error: error.status === 400 && error.issues?.file ? 'The roster was not imported' : error.message, lines: error.issues?.file ?? [] }, { status: error.status });
      }
      throw error;
    }
  }

  if (intent === 'createInvite') {
    try {
      const invite = await createInvite(user, teamId, String(form.get('rosterId') ?? ''));
      return redirectWithToast(`${here}#invites`, { title: 'Invite link created', description: `Share it with ${invite.playerName}’s family. It works for 14 days.`, variant: 'success' });
    } catch (error) {
      return redirectWithToast(here, { title: 'Error creating invite', description: failure(error, 'Failed to create the invite link.'), variant: 'destructive' });
    }
  }

  if (intent === 'revokeInvite') {
    try {
      const revoked = await revokeInvite(user, teamId, String(form.get('inviteId') ?? ''));
      return redirectWithToast(`${here}#invites`, { title: 'Invite link revoked', description: `The link for ${revoked.playerName} no longer works.`, variant: 'success' });
    } catch (error) {
      return redirectWithToast(here, { title: 'Error revoking invite', description: failure(error, 'Failed to revoke the invite link.'), variant: 'destructive' });
    }
  }

  if (intent === 'updatePlayer') {
    const submission = parseWithZod(form, { schema: editPlayerFormSchema });
    if (submission.status !== 'success') return json({ intent: 'updatePlayer' as const, lastResult: submission.reply() }, { status: 400 });
    const { rosterId, position, jerseyNumber, isActive } = submission.value;
    try {
      // the form sends every field: an empty one is cleared
      const player = await updatePlayer(user, teamId, rosterId, { position: position ?? null, jerseyNumber: jerseyNumber ?? null, isActive });
      return redirectWithToast(here, { title: 'Player updated successfully!', description: `${player.playerName} was saved.`, variant: 'success' });
    } catch (error) {
      if (isAppError(error) && (error.status === 400 || error.status === 409)) {
        return replyWithServiceError(submission, error, { extra: { intent: 'updatePlayer' as const }, refusalAsFormError: true });
      }
      return redirectWithToast(here, { title: 'Error updating player', description: failure(error, 'Failed to update player.'), variant: 'destructive' });
    }
  }

  if (intent === 'removePlayer') {
    try {
      const removed = await removePlayer(user, teamId, String(form.get('rosterId') ?? ''));
      return redirectWithToast(here, { title: 'Player removed successfully!', description: `${removed.playerName} left the roster.`, variant: 'success' });
    } catch (error) {
      return redirectWithToast(here, { title: 'Error removing player', description: failure(error, 'Failed to remove player.'), variant: 'destructive' });
    }
  }
  throw json({ message: 'Unknown action' }, { status: 400 });
}

function failure(error: unknown, fallback: string): string {
  if (isAppError(error) && error.status < 500) return error.message;
  console.error(error);
  return fallback;
}

type Loaded = Extract<ReturnType<typeof useLoaderData<typeof loader>>, { state: 'ok' }>;

function BackToTeams() {
  return (
    <Link to="/teams" className="inline-flex items-center gap-1 text-sm font-medium text-slate-600 hover:text-slate-900">
      <span aria-hidden="true">←</span> Back to Teams
    </Link>
  );
}

export default function TeamDetail() {
  const data = useLoaderData<typeof loader>();
  if (data.state === 'notFound') {
    return (
      <div className="mx-auto max-w-lg py-16 text-center">
        <h1 className="text-2xl font-bold text-slate-900">Team Not Found</h1>
        <p className="mt-2 text-slate-600">This team does not exist or was deleted.</p>
        <Link to="/teams" className="btn-primary mt-6">
          Back to Teams
        </Link>
      </div>
    );
  }
  if (data.state === 'error') {
    return (
      <div className="mx-auto max-w-lg py-16 text-center">
        <h1 className="text-2xl font-bold text-slate-900">Unable to Load Team</h1>
        <p className="mt-2 text-slate-600">Failed to fetch team details. Please try again.</p>
        <div className="mt-6 flex justify-center gap-3">
          <a href="" className="btn-primary">
            Try Again
          </a>
          <Link to="/teams" className="btn-secondary">
            Back to Teams
          </Link>
        </div>
      </div>
    );
  }
  return <TeamView data={data} />;
}

function TeamView({ data }: { data: Loaded }) {
  const { team, roster, staff } = data.details;
  const members = roster.length + staff.length;
  const tabs = [
    { key: 'players', label: 'Players', count: roster.length },
    { key: 'staff', label: 'Staff', count: staff.length },
  ];
  return (
    <article className="space-y-6">
      <BackToTeams />
      <header className="card flex flex-col gap-4 p-4 sm:flex-row sm:items-start sm:p-6">
        <TeamLogo name={team.name} src={team.logoThumbUrl} size={80} />
        <div className="min-w-0 flex-1 space-y-2">
          <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">{team.name}</h1>
          <dl className="flex flex-wrap gap-x-5 gap-y-1 text-sm text-slate-600">
            {team.location ? (
              <div>
                <dt className="sr-only">Location</dt>
                <dd>{team.location}</dd>
              </div>
            ) : null}
            <div>
              <dt className="inline">Created </dt>
              <dd className="inline">{formatDate(team.createdAt)}</dd>
            </div>
            <div>
              <dt className="inline">Manager: </dt>
              <dd className="inline font-medium text-slate-900">{team.managerName ?? '-'}</dd>
            </div>
            <div>
              <dt className="sr-only">Total members</dt>
              <dd data-testid="member-count">
                {formatCount(members)} {members === 1 ? 'member' : 'members'}
              </dd>
            </div>
          </dl>
          {team.description ? <p className="whitespace-pre-line text-slate-700">{team.description}</p> : null}
        </div>
      </header>

      <Tabs label="Team members" items={tabs} current={data.tab} />

      {data.tab === 'players' ? <PlayersList data={data} /> : <StaffList data={data} />}

      <section aria-labelledby="team-pins-heading" className="space-y-3">
        <h2 id="team-pins-heading" className="text-lg font-semibold text-slate-900">
          Team Pins
        </h2>
        {data.pins.length === 0 ? (
          <EmptyNote title="No team pins yet">{data.canManage ? <Link to="/teams?tab=pins" className="font-semibold text-brand-700 underline">Create the team’s first pin</Link> : 'The team’s pins show here once its manager adds them.'}</EmptyNote>
        ) : (
          <>
            <PinGrid pins={data.pins} />
            <PinOrders data={data} />
          </>
        )}
      </section>
    </article>
  );
}

/** How many of each team pin the team orders, with the way to set or read each player's share. */
function PinOrders({ data }: { data: Loaded }) {
  const teamId = data.details.team.id;
  const active = data.details.roster.filter((r) => r.isActive).length;
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
      <table className="w-full text-left text-sm">
        <caption className="px-3 pt-3 text-left font-semibold text-slate-900">Pin orders</caption>
        <thead>
          <tr className="border-b border-slate-200 text-slate-600">
            <th scope="col" className="px-3 py-2 font-medium">Pin</th>
            <th scope="col" className="px-3 py-2 text-right font-medium">Ordered</th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              <span className="sr-only">Order</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {data.pins.map((pin) => {
            const quantity = data.orders[pin.id];
            return (
              <tr key={pin.id} className="border-b border-slate-100 last:border-0">
                <td className="px-3 py-2 font-medium text-slate-900">{pin.name}</td>
                <td className="whitespace-nowrap px-3 py-2 text-right tabular-nums" data-testid="pin-order-quantity">
                  {quantity ? formatCount(quantity) : 'Not ordered'}
                  {quantity && active ? <span className="block text-xs text-slate-500">about {formatCount(Math.floor(quantity / active))} a player</span> : null}
                </td>
                <td className="px-3 py-2 text-right">
                  <Link to={`/teams/${teamId}/pins/${pin.id}/order`} className="font-semibold text-brand-700 underline">
                    {data.canManage ? (quantity ? 'Change order' : 'Order') : 'Shares'}
                  </Link>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function PlayersList({ data }: { data: Loaded }) {
  const { roster } = data.details;
  const editing = roster.find((r) => r.id === data.editId);
  const here = `/teams/${data.details.team.id}?tab=players`;
  if (roster.length === 0) {
    return (
      <div className="space-y-4">
        <EmptyNote title="No players yet">
          {data.canManage ? (
            <>
              <Link to={`/teams?tab=players&team=${data.details.team.id}`} className="font-semibold text-brand-700 underline">
                Add the first player
              </Link>{' '}
              or import the roster from a spreadsheet below.
            </>
          ) : (
            'The roster shows here once the manager adds players.'
          )}
        </EmptyNote>
        {data.canManage ? <RosterTools data={data} /> : null}
      </div>
    );
  }
  return (
    <div className="space-y-4">
      {editing ? <EditPlayer player={editing} cancelHref={here} /> : null}
      <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white" aria-label="Roster">
        {roster.map((p) => (
          <li key={p.id} className="flex flex-wrap items-center gap-3 p-3 sm:flex-nowrap" data-testid="roster-row">
            <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-slate-100 text-sm font-bold text-slate-800" aria-label={p.jerseyNumber ? `Jersey number ${p.jerseyNumber}` : 'No jersey number'}>
              {p.jerseyNumber ?? '–'}
            </span>
            <div className="min-w-0 flex-1">
              <p className="font-semibold text-slate-900">{p.playerName}</p>
              <p className="text-sm text-slate-600">
                {p.position ?? 'No position'} · Joined {formatDate(p.joinedAt)}
              </p>
              {data.canManage && p.email ? <p className="truncate text-xs text-slate-500">Account: {p.email}</p> : null}
            </div>
            <StatusBadge active={p.isActive} />
            {data.canManage ? (
              <div className="flex w-full gap-2 sm:w-auto">
                <Link to={`${here}&edit=${p.id}`} className="btn-secondary" preventScrollReset aria-label={`Edit ${p.playerName}`}>
                  Edit
                </Link>
                <ConfirmStep
                  trigger="Remove"
                  triggerClassName="btn-secondary text-red-700"
                  title="Remove Player"
                  description={`Are you sure you want to remove ${p.playerName} from the roster?`}
                  confirmLabel="Remove"
                  pendingLabel="Removing..."
                  fields={{ intent: 'removePlayer', rosterId: p.id }}
                  href={`${here}&confirm=remove&player=${p.id}`}
                  closeHref={here}
                  serverOpen={data.removeId === p.id}
                  danger
                />
                {p.email ? null : (
                  <Form method="post" preventScrollReset>
                    <input type="hidden" name="intent" value="createInvite" />
                    <input type="hidden" name="rosterId" value={p.id} />
                    <button type="submit" className="btn-secondary" aria-label={`Make an invite link for ${p.playerName}`}>
                      Invite
                    </button>
                  </Form>
                )}
              </div>
            ) : null}
          </li>
        ))}
      </ul>
      {data.canManage ? <RosterTools data={data} /> : null}
    </div>
  );
}

/** The manager's roster tools: invite links, and the roster as a spreadsheet both ways. */
function RosterTools({ data }: { data: Loaded }) {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const importing = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'importRoster';
  const importResult = actionData && 'intent' in actionData && actionData.intent === 'importRoster' ? actionData : null;
  const teamId = data.details.team.id;
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <section id="invites" aria-labelledby="invites-heading" className="card space-y-3 p-4">
        <h2 id="invites-heading" className="text-base font-semibold text-slate-900">
          Invite links
        </h2>
        <p className="text-sm text-slate-600">Use Invite on a player to make a link for their family. Whoever opens it signed in joins the roster as that player and sees the team.</p>
        {data.invites.length === 0 ? (
          <p className="text-sm text-slate-500">No invite links yet.</p>
        ) : (
          <ul className="space-y-3" aria-label="Invite links">
            {data.invites.map((invite) => (
              <li key={invite.id} className="rounded-md border border-slate-200 p-3" data-testid="invite-row">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <p className="font-medium text-slate-900">{invite.playerName}</p>
                  <InviteStatus status={invite.status} />
                </div>
                {invite.status === 'active' ? (
                  <>
                    <label className="sr-only" htmlFor={`invite-${invite.id}`}>
                      Invite link for {invite.playerName}
                    </label>
                    <input id={`invite-${invite.id}`} readOnly value={invite.url} className="input mt-2 font-mono text-xs" onFocus={(e) => e.currentTarget.select()} />
                    <div className="mt-2 flex flex-wrap items-center justify-between gap-2 text-xs text-slate-500">
                      <span>Works until {formatDate(invite.expiresAt)}</span>
                      <Form method="post" preventScrollReset>
                        <input type="hidden" name="intent" value="revokeInvite" />
                        <input type="hidden" name="inviteId" value={invite.id} />
                        <button type="submit" className="font-semibold text-red-700 underline" aria-label={`Revoke the invite link for ${invite.playerName}`}>
                          Revoke
                        </button>
                      </Form>
                    </div>
                  </>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="roster-file-heading" className="card space-y-3 p-4">
        <h2 id="roster-file-heading" className="text-base font-semibold text-slate-900">
          Roster spreadsheet
        </h2>
        <a href={`/teams/${teamId}/roster.csv`} download className="btn-secondary">
          Download roster (CSV)
        </a>
        <Form method="post" encType="multipart/form-data" preventScrollReset className="space-y-2" aria-describedby="roster-file-hint">
          <input type="hidden" name="intent" value="importRoster" />
          <label htmlFor="roster-file" className="label">
            Import players from a CSV file
          </label>
          <input id="roster-file" name="file" type="file" accept=".csv,text/csv" required className="block w-full text-sm" aria-invalid={importResult ? true : undefined} />
          <p id="roster-file-hint" className="text-xs text-slate-500">
            Columns: name, position, jersey number (a header row is optional). Players already on the roster by name are updated; the others are added. Max 200 players.
          </p>
          {importResult ? (
            <div role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800">
              <p className="font-semibold">{importResult.error}</p>
              {importResult.lines.length ? (
                <ul className="mt-1 list-disc pl-5">
                  {importResult.lines.slice(0, 20).map((line) => (
                    <li key={line}>{line}</li>
                  ))}
                </ul>
              ) : null}
            </div>
          ) : null}
          <button type="submit" className="btn-primary" disabled={importing}>
            {importing ? 'Importing...' : 'Import Roster'}
          </button>
        </Form>
      </section>
    </div>
  );
}

function InviteStatus({ status }: { status: TeamInvite['status'] }) {
  const styles = { active: 'bg-green-100 text-green-800', accepted: 'bg-brand-50 text-brand-700', expired: 'bg-slate-100 text-slate-600', revoked: 'bg-slate-100 text-slate-600' } as const;
  const labels = { active: 'Active', accepted: 'Joined', expired: 'Expired', revoked: 'Revoked' } as const;
  return <span className={`badge ${styles[status]}`}>{labels[status]}</span>;
}

function StaffList({ data }: { data: Loaded }) {
  const { staff } = data.details;
  if (staff.length === 0) return <EmptyNote title="No staff yet" />;
  return (
    <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white" aria-label="Staff">
      {staff.map((s) => (
        <li key={s.id} className="flex flex-wrap items-center gap-3 p-3">
          <div className="min-w-0 flex-1">
            <p className="font-semibold text-slate-900">{s.userName}</p>
            <p className="text-sm capitalize text-slate-600">
              {roleLabel(s.role)} <span className="normal-case">· Joined {formatDate(s.joinedAt)}</span>
            </p>
          </div>
          <StatusBadge active={s.isActive} />
        </li>
      ))}
    </ul>
  );
}

/**
 * 'Edit Player Details': a step at its own URL (?edit={rosterId}), rendered by the server, so it
 * works without JavaScript; saving is the confirmation, Cancel goes back to the roster.
 */
function EditPlayer({ player, cancelHref }: { player: RosterEntry; cancelHref: string }) {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const lastResult = actionData && 'intent' in actionData && actionData.intent === 'updatePlayer' ? (actionData.lastResult as SubmissionResult<string[]>) : undefined;
  const saving = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'updatePlayer';
  const [form, fields] = useForm({
    id: `edit-player-${player.id}`,
    lastResult,
    defaultValue: { rosterId: player.id, position: player.position ?? '', jerseyNumber: player.jerseyNumber ?? '', isActive: player.isActive ? 'on' : '' },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: editPlayerFormSchema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  const { key: posKey, ...posProps } = getSelectProps(fields.position);
  const { key: numKey, ...numProps } = getInputProps(fields.jerseyNumber, { type: 'text' });
  const { key: activeKey, ...activeProps } = getInputProps(fields.isActive, { type: 'checkbox' });
  return (
    <section role="dialog" aria-labelledby="edit-player-title" className="card border-brand-200 p-4 sm:p-5">
      <h2 id="edit-player-title" className="text-lg font-semibold text-slate-900">
        Edit Player Details
      </h2>
      <p className="mb-3 text-sm text-slate-600">{player.playerName}</p>
      <Form method="post" {...getFormProps(form)} className="space-y-4" preventScrollReset>
        <input type="hidden" name="intent" value="updatePlayer" />
        <input type="hidden" name="rosterId" value={player.id} />
        <FormErrors title="Error updating player" errors={form.errors} id={form.errorId} />
        <div className="grid gap-4 sm:grid-cols-2">
          <FieldFrame label="Position" field={fields.position}>
            <select key={posKey} {...posProps} className="input">
              <option value="">No position</option>
              {POSITIONS.map((p) => (
                <option key={p} value={p}>
                  {p}
                </option>
              ))}
            </select>
          </FieldFrame>
          <FieldFrame label="Jersey Number" field={fields.jerseyNumber}>
            <input key={numKey} {...numProps} className="input" inputMode="numeric" maxLength={3} placeholder="None" />
          </FieldFrame>
        </div>
        <label className="flex items-center gap-2 text-sm font-medium text-slate-700">
          <input key={activeKey} {...activeProps} className="h-4 w-4 rounded border-slate-300" />
          Active
        </label>
        <div className="flex justify-end gap-3">
          <Link to={cancelHref} className="btn-secondary" preventScrollReset>
            Cancel
          </Link>
          <button type="submit" className="btn-primary" disabled={saving}>
            {saving ? 'Saving...' : 'Save Changes'}
          </button>
        </div>
      </Form>
    </section>
  );
}
