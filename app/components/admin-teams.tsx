/** The admin Team Management pieces: the team form (create, edit), the transfer form and the details view. */
import { Form, useNavigation } from '@remix-run/react';
import type { AdminTeam, ManagerCandidate } from '~/types/admin';
import type { TeamDetails } from '~/types/teams';
import { formatDate } from '~/utils/format';
import { displayName } from '~/utils/user';
import { DetailList } from './admin';
import { roleLabel, StatusBadge } from './teams';
import { Button } from './ui/button';
import { DialogCancel } from './ui/dialog';
import { Field, FieldFrame, FormErrors } from './ui/field';
import { getFormProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from './ui/form-state';
import { HiddenFields } from './ui/hidden-fields';

/** 'MMM dd, yyyy' (spec §2: the admin teams table). */
export const formatTeamDate = (iso: string) => new Date(iso).toLocaleDateString('en-US', { month: 'short', day: '2-digit', year: 'numeric', timeZone: 'UTC' });

const candidateName = (c: ManagerCandidate) => `${displayName(c)} (${c.email})`;

export function TeamForm({ team, managers, lastResult, back, action }: { team?: AdminTeam; managers: ManagerCandidate[]; lastResult?: SubmissionResult<string[]>; back: string; action: string }) {
  const editing = !!team;
  const intent = editing ? 'updateTeam' : 'createTeam';
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: `team-form-${team?.id ?? 'new'}`,
    lastResult,
    defaultValue: team ? { name: team.name, description: team.description ?? '', location: team.location ?? '', managerId: team.managerId ?? '' } : undefined,
  });
  const pending = navigation.state !== 'idle' && navigation.formData?.get('intent') === intent && navigation.formData?.get('id') === (team?.id ?? '');
  const managerProps = getSelectProps(fields.managerId);
  return (
    <Form method="post" action={action} {...getFormProps(form)} className="space-y-4" preventScrollReset>
      <HiddenFields fields={{ intent, id: team?.id ?? '', back }} />
      <FormErrors errors={form.errors} title="Error" />
      <Field label="Name" field={fields.name} autoComplete="off" />
      <FieldFrame label="Description" field={fields.description}>
        <textarea {...getTextareaProps(fields.description)} key={fields.description.key} rows={3} className="input" />
      </FieldFrame>
      <Field label="Location" field={fields.location} />
      <FieldFrame label="Manager" field={fields.managerId}>
        <select key={fields.managerId.key} {...managerProps} className="input">
          <option value="">{managers.length ? 'Select a manager' : 'No users have the manager role'}</option>
          {managers.map((m) => (
            <option key={m.id} value={m.id}>
              {candidateName(m)}
            </option>
          ))}
        </select>
      </FieldFrame>
      <div className="flex flex-wrap justify-end gap-3">
        <DialogCancel />
        <Button variant="primary" pending={pending} pendingLabel="Saving...">
          {editing ? 'Update Team' : 'Create Team'}
        </Button>
      </div>
    </Form>
  );
}

export function TransferForm({ team, managers, lastResult, back, action }: { team: AdminTeam; managers: ManagerCandidate[]; lastResult?: SubmissionResult<string[]>; back: string; action: string }) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: `transfer-${team.id}`,
    lastResult,
  });
  const pending = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'transferTeam' && navigation.formData?.get('id') === team.id;
  // the current manager is not offered (spec §2)
  const choices = managers.filter((m) => m.id !== team.managerId);
  const selectProps = getSelectProps(fields.newManagerId);
  return (
    <Form method="post" action={action} {...getFormProps(form)} className="space-y-4" preventScrollReset>
      <HiddenFields fields={{ intent: 'transferTeam', id: team.id, back }} />
      <FormErrors errors={form.errors} title="Error" />
      <p className="text-sm text-slate-700">Current manager: {team.managerName ?? 'None'}</p>
      <FieldFrame label="New manager" field={fields.newManagerId}>
        <select key={fields.newManagerId.key} {...selectProps} className="input">
          <option value="">Select a new manager</option>
          {choices.map((m) => (
            <option key={m.id} value={m.id}>
              {candidateName(m)}
            </option>
          ))}
        </select>
      </FieldFrame>
      <div className="flex flex-wrap justify-end gap-3">
        <DialogCancel />
        <Button variant="primary" pending={pending} pendingLabel="Transferring...">
          Transfer Ownership
        </Button>
      </div>
    </Form>
  );
}

const CELL = 'px-2 py-1.5 text-left';

/** Team Details: Team Information, Team Roster and Team Staff. */
export function TeamDetailsView({ details }: { details: TeamDetails }) {
  const { team, roster, staff } = details;
  return (
    <div className="space-y-4">
      <section>
        <h3 className="mb-2 text-sm font-semibold text-slate-900">Team Information</h3>
        <DetailList
          items={[
            ['Name', team.name],
            ['Manager', team.managerName ?? '-'],
            ['Location', team.location ?? '-'],
            ['Created', formatTeamDate(team.createdAt)],
            ['Members', `${roster.length + staff.length}`],
            ['Description', team.description ?? '-'],
          ]}
        />
      </section>
      <section>
        <h3 className="mb-2 text-sm font-semibold text-slate-900">Team Roster</h3>
        {roster.length === 0 ? (
          <p className="text-sm text-slate-600">No players on the roster.</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="min-w-full text-sm">
              <caption className="sr-only">Team Roster</caption>
              <thead className="bg-slate-50 text-slate-700">
                <tr>
                  {['Player', 'Position', 'Jersey #', 'Status', 'Joined'].map((h) => (
                    <th key={h} scope="col" className={CELL}>
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {roster.map((r) => (
                  <tr key={r.id}>
                    <th scope="row" className={`${CELL} font-medium`}>
                      {r.playerName}
                    </th>
                    <td className={CELL}>{r.position ?? '-'}</td>
                    <td className={CELL}>{r.jerseyNumber ?? '-'}</td>
                    <td className={CELL}>
                      <StatusBadge active={r.isActive} />
                    </td>
                    <td className={CELL}>{formatDate(r.joinedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <section>
        <h3 className="mb-2 text-sm font-semibold text-slate-900">Team Staff</h3>
        {staff.length === 0 ? (
          <p className="text-sm text-slate-600">No staff members.</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="min-w-full text-sm">
              <caption className="sr-only">Team Staff</caption>
              <thead className="bg-slate-50 text-slate-700">
                <tr>
                  {['Name', 'Role', 'Status', 'Joined'].map((h) => (
                    <th key={h} scope="col" className={CELL}>
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {staff.map((s) => (
                  <tr key={s.id}>
                    <th scope="row" className={`${CELL} font-medium`}>
                      {s.userName}
                    </th>
                    <td className={`${CELL} capitalize`}>{roleLabel(s.role)}</td>
                    <td className={CELL}>
                      <StatusBadge active={s.isActive} />
                    </td>
                    <td className={CELL}>{formatDate(s.joinedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}
