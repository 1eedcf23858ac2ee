import { getFormProps, getInputProps, useForm, type SubmissionResult } from '~/components/ui/form-state';
import type { MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { ConfirmStep } from '~/components/ui/confirm-step';
import { PinGrid } from '~/components/pin-card';
import { EmptyNote, POSITIONS, roleLabel, StatusBadge, TeamLogo } from '~/components/teams';
import { Field, FormErrors } from '~/components/ui/field';
import { Tabs } from '~/components/ui/tabs';
import { teamAction, teamLoader } from '~/http/team-page.server';
import type { RosterEntry } from '~/types/teams';
import { formatCount, formatDate } from '~/utils/format';
import '~/root';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data && data.state === 'ok' ? `${data.details.team.name} | PinDex` : data?.state === 'notFound' ? 'Team Not Found | PinDex' : 'Team | PinDex' },
];

// Team detail is not registered for signed-out visitors: they get the 404 page.
export const loader = teamLoader;
export const action = teamAction;

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

function InviteStatus({ status }: { status: Loaded['invites'][number]['status'] }) {
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
  });
  const activeProps = getInputProps(fields.isActive, { type: 'checkbox' });
  const activeKey = fields.isActive.key;
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
          <Field label="Position" field={fields.position} as="select">
            <option value="">No position</option>
            {POSITIONS.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </Field>
          <Field label="Jersey Number" field={fields.jerseyNumber} inputMode="numeric" maxLength={3} placeholder="None" />
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
