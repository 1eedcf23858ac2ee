import { getFormProps, getSelectProps, useForm, type FieldMetadata, type SubmissionResult } from '~/components/ui/form-state';
import type { MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useState } from 'react';
import { ConfirmStep } from '~/components/ui/confirm-step';
import { PinGrid } from '~/components/pin-card';
import { EmptyNote, POSITIONS, TEAMS_TABS, TeamLogo } from '~/components/teams';
import { Field, FieldFrame, FormErrors } from '~/components/ui/field';
import { Tabs } from '~/components/ui/tabs';
import { teamsAction, teamsLoader, type TeamsIntent as Intent } from '~/http/teams-page.server';
import type { TeamSummary } from '~/types/teams';
import { MAX_PIN_PHOTOS, MIN_PIN_YEAR } from '~/utils/constants';
import { formatCount } from '~/utils/format';
import '~/root';

export const meta: MetaFunction = () => [{ title: 'Teams | PinDex' }];

const LOGO_HINT = 'JPG, PNG, or GIF (max 5MB)';

export const loader = teamsLoader;
export const action = teamsAction;

type Loaded = ReturnType<typeof useLoaderData<typeof loader>>;

export default function Teams() {
  const data = useLoaderData<typeof loader>();
  return <TeamManagement data={data} />;
}

/** The action's answer to this form: conform's reply, and the server's refusal message if any. */
function useResult(intent: Intent): { lastResult?: SubmissionResult<string[]>; failure?: string } {
  const actionData = useActionData<typeof action>();
  if (!actionData || !('intent' in actionData) || actionData.intent !== intent) return {};
  return { lastResult: actionData.lastResult as SubmissionResult<string[]>, failure: 'failure' in actionData ? String(actionData.failure || '') || undefined : undefined };
}

function TeamManagement({ data }: { data: Loaded }) {
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold text-slate-900">Team Management</h1>
        <p className="mt-1 text-slate-600">Create teams, build rosters, add coaches and make your team's trading pins.</p>
      </div>
      <Tabs label="Team management sections" items={[...TEAMS_TABS]} current={data.tab} />
      {data.tab === 'teams' ? <TeamsTab data={data} /> : null}
      {data.tab === 'players' ? <PlayersTab data={data} /> : null}
      {data.tab === 'coaches' ? <CoachesTab data={data} /> : null}
      {data.tab === 'pins' ? <PinsTab data={data} /> : null}
    </div>
  );
}

function NeedsTeam({ data }: { data: Loaded }) {
  return (
    <EmptyNote title="No team to manage yet">
      {data.canCreate ? (
        <>
          <Link to="?tab=teams" className="font-semibold text-brand-700 underline">
            Create a team
          </Link>{' '}
          first; then add its players, coaches and pins here.
        </>
      ) : (
        'Only a team’s manager adds players, coaches and pins. Ask your team manager.'
      )}
    </EmptyNote>
  );
}

function TeamSelect({ field, teams }: { field: FieldMetadata; teams: Loaded['managed'] }) {
  const props = getSelectProps(field);
  return (
    <select key={field.key} {...props} className="input">
      <option value="">Select a team</option>
      {teams.map((t) => (
        <option key={t.id} value={t.id}>
          {t.name}
        </option>
      ))}
    </select>
  );
}

/** The form's intent (hidden) and its submit button, which reads as pending while it is sent. */
function Submit({ intent, children, pending }: { intent: Intent; children: string; pending: string }) {
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle' && navigation.formData?.get('intent') === intent;
  return (
    <>
      <input type="hidden" name="intent" value={intent} />
    <button type="submit" className="btn-primary w-full sm:w-auto" disabled={busy}>
        {busy ? pending : children}
      </button>
    </>
  );
}

// ---------------------------------------------------------------- Teams tab

function TeamsTab({ data }: { data: Loaded }) {
  const { lastResult, failure } = useResult('createTeam');
  const [form, fields] = useForm({
    id: 'create-team',
    lastResult,
  });
  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,2fr)]">
      {data.canCreate ? (
        <section aria-labelledby="create-team-heading" className="card h-fit p-4 sm:p-5">
          <h2 id="create-team-heading" className="mb-3 text-lg font-semibold text-slate-900">
            Create Team
          </h2>
          <Form method="post" {...getFormProps(form)} className="space-y-4">
            <FormErrors title="Error creating team" errors={failure ? [failure] : form.errors} id={form.errorId} />
            <Field label="Team Name" field={fields.name} placeholder="e.g. Springfield Thunder 12U" />
            <Field label="Description" field={fields.description} as="textarea" rows={3} />
            <Field label="Location" field={fields.location} placeholder="City, State" />
            <Submit intent="createTeam" pending="Creating...">
              Create Team
            </Submit>
          </Form>
        </section>
      ) : null}
      <section aria-labelledby="my-teams-heading" className={data.canCreate ? '' : 'lg:col-span-2'}>
        <h2 id="my-teams-heading" className="mb-3 text-lg font-semibold text-slate-900">
          My Teams
        </h2>
        {data.teams.length === 0 ? (
          <EmptyNote title="No teams yet">
            {data.canCreate ? 'Create your first team to start its roster.' : 'When a team manager adds you to a team, it shows here.'}
          </EmptyNote>
        ) : (
          <ul className="grid gap-4 sm:grid-cols-2">
            {data.teams.map((team) => (
              <li key={team.id}>
                <TeamCard team={team} confirmOpen={data.confirmDeleteId === team.id} />
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function TeamCard({ team, confirmOpen }: { team: TeamSummary; confirmOpen: boolean }) {
  const isManager = team.relation === 'manager';
  const [logoError, setLogoError] = useState<{ title: string; description: string } | null>(null);
  return (
    <article className="card flex h-full flex-col gap-3 p-4" data-testid="team-card">
      <div className="flex items-start gap-3">
        <TeamLogo name={team.name} src={team.logoThumbUrl} />
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="truncate text-base font-semibold text-slate-900">
              <Link to={`/teams/${team.id}`} className="hover:underline">
                {team.name}
              </Link>
            </h3>
            {isManager ? <span className="badge bg-brand-100 text-brand-800">Manager</span> : null}
          </div>
          {team.location ? <p className="text-sm text-slate-600">{team.location}</p> : null}
          <p className="text-xs text-slate-500">
            {formatCount(team.memberCount)} {team.memberCount === 1 ? 'member' : 'members'}
          </p>
        </div>
      </div>
      {team.description ? <p className="line-clamp-3 text-sm text-slate-700">{team.description}</p> : null}
      <div className="mt-auto flex flex-wrap gap-2">
        <Link to={`/teams/${team.id}`} className="btn-secondary">
          View Team
        </Link>
        {isManager ? (
          <ConfirmStep
            trigger="Delete"
            title="Delete Team"
            description={
              <>
                <p>Are you sure you want to delete this team? This action cannot be undone.</p>
                <p className="mt-2">
                  {team.name}’s roster, staff, invite links and pin orders are removed. Its pins stay in the pin database, without a team.
                </p>
              </>
            }
            confirmLabel="Delete"
            pendingLabel="Deleting..."
            fields={{ intent: 'deleteTeam', teamId: team.id }}
            href={`/teams?tab=teams&confirm=delete&team=${encodeURIComponent(team.id)}`}
            closeHref="/teams?tab=teams"
            serverOpen={confirmOpen}
            danger
          />
        ) : null}
      </div>
      {isManager ? (
        <Form
          method="post"
          encType="multipart/form-data"
          className="space-y-2 border-t border-slate-100 pt-3"
          onSubmit={(event) => {
            // the same checks as the server, before a slow upload
            const input = event.currentTarget.elements.namedItem('logo') as HTMLInputElement | null;
            const file = input?.files?.[0];
            const problem = !file || !file.type.startsWith('image/')
              ? { title: 'Invalid file type', description: 'Please select an image file.' }
              : file.size > 5 * 1024 * 1024
                ? { title: 'File too large', description: 'Please select an image smaller than 5MB.' }
                : null;
            setLogoError(problem);
            if (problem) event.preventDefault();
          }}
        >
          <input type="hidden" name="teamId" value={team.id} />
          <label htmlFor={`logo-${team.id}`} className="label">
            Team Logo
          </label>
          <input
            id={`logo-${team.id}`}
            type="file"
            name="logo"
            accept="image/*"
            aria-describedby={`logo-hint-${team.id}`}
            className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-md file:border-0 file:bg-slate-100 file:px-3 file:py-2 file:text-sm file:font-semibold"
          />
          <p id={`logo-hint-${team.id}`} className="text-xs text-slate-500">
            {LOGO_HINT}
          </p>
          {logoError ? <FormErrors title={logoError.title} errors={[logoError.description]} /> : null}
          <Submit intent="uploadLogo" pending="Uploading...">
            Upload Logo
          </Submit>
        </Form>
      ) : null}
    </article>
  );
}

// ---------------------------------------------------------------- Players tab

function PlayersTab({ data }: { data: Loaded }) {
  const { lastResult, failure } = useResult('addPlayer');
  const [form, fields] = useForm({
    id: 'add-player',
    lastResult,
    defaultValue: { teamId: data.defaultTeamId },
  });
  if (data.managed.length === 0) return <NeedsTeam data={data} />;
  return (
    <section aria-labelledby="add-player-heading" className="card max-w-xl p-4 sm:p-5">
      <h2 id="add-player-heading" className="mb-3 text-lg font-semibold text-slate-900">
        Add Player
      </h2>
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <FormErrors title="Error adding player" errors={failure ? [failure] : form.errors} id={form.errorId} />
        <FieldFrame label="Team" field={fields.teamId}>
          <TeamSelect field={fields.teamId} teams={data.managed} />
        </FieldFrame>
        <Field label="Player Name" field={fields.playerName} autoComplete="off" />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Position" field={fields.position} as="select">
            <option value="">Select position</option>
            {POSITIONS.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </Field>
          <Field label="Jersey Number" field={fields.jerseyNumber} inputMode="numeric" autoComplete="off" maxLength={3} />
        </div>
        <Submit intent="addPlayer" pending="Adding...">
          Add Player
        </Submit>
      </Form>
    </section>
  );
}

// ---------------------------------------------------------------- Coaches tab

function CoachesTab({ data }: { data: Loaded }) {
  const { lastResult, failure } = useResult('addStaff');
  const [form, fields] = useForm({
    id: 'add-staff',
    lastResult,
    defaultValue: { teamId: data.defaultTeamId, role: 'assistant_coach' },
  });
  if (data.managed.length === 0) return <NeedsTeam data={data} />;
  return (
    <section aria-labelledby="add-staff-heading" className="card max-w-xl p-4 sm:p-5">
      <h2 id="add-staff-heading" className="mb-3 text-lg font-semibold text-slate-900">
        Add Assistant Coach
      </h2>
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <FormErrors title="Error adding staff member" errors={failure ? [failure] : form.errors} id={form.errorId} />
        <FieldFrame label="Team" field={fields.teamId}>
          <TeamSelect field={fields.teamId} teams={data.managed} />
        </FieldFrame>
        <Field
          label="Coach Name"
          field={fields.userName}
          description="Their PinDex e-mail or display name: the coach needs an account, and then sees the team in their own Teams page."
          autoComplete="off"
        />
        <Field label="Role" field={fields.role} as="select">
          <option value="assistant_coach">Assistant Coach</option>
        </Field>
        <Submit intent="addStaff" pending="Adding...">
          Add Coach
        </Submit>
      </Form>
    </section>
  );
}

// ---------------------------------------------------------------- Pin Inventory tab

function PinsTab({ data }: { data: Loaded }) {
  const { lastResult, failure } = useResult('createPin');
  const [form, fields] = useForm({
    id: 'create-team-pin',
    lastResult,
    defaultValue: { teamId: data.defaultTeamId },
  });
  const [tooMany, setTooMany] = useState(false);
  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,2fr)]">
      {data.managed.length === 0 ? (
        <NeedsTeam data={data} />
      ) : (
        <section aria-labelledby="create-pin-heading" className="card h-fit p-4 sm:p-5">
          <h2 id="create-pin-heading" className="mb-3 text-lg font-semibold text-slate-900">
            Create Team Pin
          </h2>
          <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="space-y-4">
            <FormErrors title="Error creating pin" errors={failure ? [failure] : form.errors} id={form.errorId} />
            <FieldFrame label="Team" field={fields.teamId}>
              <TeamSelect field={fields.teamId} teams={data.managed} />
            </FieldFrame>
            <Field label="Pin Name" field={fields.name} />
            <Field label="Description" field={fields.description} as="textarea" rows={3} />
            <div className="grid gap-4 sm:grid-cols-2">
              <Field label="Total Quantity" field={fields.totalQuantity} type="number" inputMode="numeric" placeholder="e.g. 1500" />
              <Field label="Year" field={fields.year} type="number" inputMode="numeric" placeholder={`${MIN_PIN_YEAR}-${new Date().getFullYear()}`} />
            </div>
            <Field label="Event" field={fields.event} placeholder="e.g. Cooperstown Dreams Park" />
            <div>
              <label htmlFor="team-pin-images" className="label">
                Photos
              </label>
              <input
                id="team-pin-images"
                type="file"
                name="images"
                accept="image/*"
                multiple
                aria-describedby="team-pin-images-hint"
                onChange={(e) => setTooMany((e.currentTarget.files?.length ?? 0) > MAX_PIN_PHOTOS)}
                className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-md file:border-0 file:bg-slate-100 file:px-3 file:py-2 file:text-sm file:font-semibold"
              />
              <p id="team-pin-images-hint" className="mt-1 text-xs text-slate-500">
                Up to {MAX_PIN_PHOTOS} photos; the first is the main one. The photos make the pin identifiable.
              </p>
              {tooMany ? <p className="mt-1 text-sm text-amber-700">Only the first {MAX_PIN_PHOTOS} photos are kept.</p> : null}
            </div>
            <Submit intent="createPin" pending="Creating...">
              Create Pin
            </Submit>
          </Form>
        </section>
      )}
      <section aria-labelledby="team-pins-heading">
        <h2 id="team-pins-heading" className="mb-3 text-lg font-semibold text-slate-900">
          Team Pins
        </h2>
        {data.teamPins.length === 0 ? (
          <EmptyNote title="No team pins yet">Pins made for your teams show here, and open their page in the pin database.</EmptyNote>
        ) : (
          <PinGrid pins={data.teamPins} className="grid-cols-1 min-[420px]:grid-cols-2 md:grid-cols-3" />
        )}
      </section>
    </div>
  );
}
