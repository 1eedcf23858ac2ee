/**
 * The loader and action of /admin/teams (routes/admin.teams.tsx re-exports them). They live here,
 * not in the route module, so that the page's browser bundle reaches none of the modules they
 * import (the services, zod and the form library): in the browser this file is one empty module.
 * The team and transfer forms read the action's reply with ui/form-state.ts; the checking is the
 * action's.
 */
import { parseWithZod } from '@conform-to/zod';
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { canViewAuditLog } from '~/auth/permissions';
import { adminTeamCreateSchema, adminTeamEditSchema, adminTeamsQuery, transferTeamSchema } from '~/forms/admin';
import { replyWithServiceError } from '~/http/form-reply.server';
import { adminActionUser, adminPageUser } from '~/http/guards.server';
import { redirectWithToast } from '~/http/toast.server';
import { recordHistory } from '~/services/admin/audit-log.server';
import { getAdminTeam, listAdminTeams, managerCandidates } from '~/services/admin/teams.server';
import { isAppError } from '~/services/errors';
import { createTeamForManager, deleteTeam, getTeamDetails, transferTeamOwnership, updateTeam } from '~/services/teams.server';
import type { AdminTeam } from '~/types/admin';
import { readDialog, readListQuery } from '~/utils/list-query';
import { fetchPage } from '~/utils/paging';

const PATH = '/admin/teams';
const DIALOGS = ['new', 'details', 'edit', 'transfer', 'delete'] as const;

// Signed out: the layout shows the prompt; other roles are sent to / by the guard.
export async function adminTeamsLoader({ request }: LoaderFunctionArgs) {
  const actor = await adminPageUser(request);
  const url = new URL(request.url);
  const query = readListQuery(url, adminTeamsQuery);
  const { dialog, dialogId } = readDialog(url, DIALOGS);
  try {
    const opts = { search: query.q, sort: query.sort, dir: query.dir };
    const { list, paging } = await fetchPage(query, (slice) => listAdminTeams(actor, { ...opts, ...slice }));
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

export async function adminTeamsAction({ request }: ActionFunctionArgs) {
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
