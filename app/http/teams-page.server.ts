/**
 * The loader and action of /teams (routes/teams.tsx re-exports them). They live here, not in the
 * route module, so that the page's browser bundle reaches none of the modules they import (the
 * services, zod and the form library): in the browser this file is one empty module. The page's
 * forms read the action's reply with ui/form-state.ts; the checking is the action's.
 */
import type { Submission } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod';
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { canCreateTeam } from '~/auth/permissions';
import { toCardData } from '~/components/pin-card';
import { TEAMS_TABS, type TeamsTab } from '~/components/teams';
import { addPlayerSchema, addStaffSchema, createTeamPinSchema, createTeamSchema } from '~/forms/teams';
import { readFormData } from '~/http/body.server';
import { replyWithServiceError } from '~/http/form-reply.server';
import { promptedPageUser, requirePageUser } from '~/http/guards.server';
import { rethrowAsPageError } from '~/http/page.server';
import { redirectWithToast } from '~/http/toast.server';
import { withCommunityCounts } from '~/services/community.server';
import { isAppError } from '~/services/errors';
import { addPlayer, addStaff, createTeam, createTeamPin, deleteTeam, listMyTeams, listUserTeamPins, updateTeamLogo } from '~/services/teams.server';
import { MAX_IMAGE_BYTES, MAX_PIN_PHOTOS } from '~/utils/constants';
import { formatCount } from '~/utils/format';

const isTab = (v: string | null): v is TeamsTab => TEAMS_TABS.some((t) => t.key === v);

export async function teamsLoader({ request }: LoaderFunctionArgs) {
  const user = await promptedPageUser(request, { title: 'Team Access Required', message: 'Sign in to create and manage your teams.' });
  const url = new URL(request.url);
  const tabParam = url.searchParams.get('tab');
  const tab: TeamsTab = isTab(tabParam) ? tabParam : 'teams';
  const teams = await listMyTeams(user);
  const managed = teams.filter((t) => t.relation === 'manager');
  const teamPins = tab === 'pins' ? await withCommunityCounts((await listUserTeamPins(user, user.id)).map(toCardData)) : [];
  const confirmTeam = url.searchParams.get('confirm') === 'delete' ? url.searchParams.get('team') : null;
  const chosen = url.searchParams.get('team');
  return json({
    tab,
    teams,
    managed: managed.map((t) => ({ id: t.id, name: t.name })),
    canCreate: canCreateTeam(user),
    teamPins,
    // the server-rendered confirm step (no JavaScript): only for a team this user manages
    confirmDeleteId: confirmTeam && managed.some((t) => t.id === confirmTeam) ? confirmTeam : null,
    defaultTeamId: chosen && managed.some((t) => t.id === chosen) ? chosen : managed.length === 1 ? managed[0].id : '',
  });
}

export type TeamsIntent = 'createTeam' | 'addPlayer' | 'addStaff' | 'createPin' | 'uploadLogo' | 'deleteTeam';

const logoFailure = (error: unknown) => {
  if (isAppError(error) && error.status === 413) return { title: 'File too large', description: 'Please select an image smaller than 5MB.' };
  if (isAppError(error) && (error.status === 415 || error.status === 400)) return { title: 'Invalid file type', description: 'Please select an image file.' };
  if (isAppError(error) && error.status < 500) return { title: 'Upload failed', description: error.message };
  console.error(error);
  return { title: 'Upload failed', description: 'Failed to upload team logo' };
};

/**
 * A form the service refused: its field messages under the fields, and the server's message as
 * `failure`, shown under the spec's failure title ('Error adding player', ...).
 */
function refuse<T>(submission: Submission<T>, error: unknown, intent: TeamsIntent, options: { notFoundField?: string } = {}) {
  const failure = isAppError(error) ? error.message : '';
  return replyWithServiceError(submission, error, { extra: { intent, failure }, ...options });
}

export async function teamsAction({ request }: ActionFunctionArgs) {
  const user = await requirePageUser(request);
  let form: FormData;
  try {
    form = await readFormData(request, MAX_PIN_PHOTOS * MAX_IMAGE_BYTES + 1024 * 1024);
  } catch (error) {
    rethrowAsPageError(error);
  }
  const intent = String(form.get('intent') ?? '') as TeamsIntent;

  if (intent === 'createTeam') {
    const submission = parseWithZod(form, { schema: createTeamSchema });
    if (submission.status !== 'success') return json({ intent, lastResult: submission.reply() }, { status: 400 });
    try {
      const team = await createTeam(user, submission.value);
      return redirectWithToast('/teams?tab=teams', { title: 'Team created successfully!', description: `${team.name} is ready for its roster.`, variant: 'success' });
    } catch (error) {
      return refuse(submission, error, intent);
    }
  }

  if (intent === 'addPlayer') {
    const submission = parseWithZod(form, { schema: addPlayerSchema });
    if (submission.status !== 'success') return json({ intent, lastResult: submission.reply() }, { status: 400 });
    const { teamId, ...player } = submission.value;
    try {
      const added = await addPlayer(user, teamId, player);
      return redirectWithToast(`/teams?tab=players&team=${encodeURIComponent(teamId)}`, {
        title: 'Player added successfully!',
        description: `${added.playerName} is on the roster.`,
        variant: 'success',
      });
    } catch (error) {
      return refuse(submission, error, intent, { notFoundField: 'teamId' });
    }
  }

  if (intent === 'addStaff') {
    const submission = parseWithZod(form, { schema: addStaffSchema });
    if (submission.status !== 'success') return json({ intent, lastResult: submission.reply() }, { status: 400 });
    const { teamId, ...member } = submission.value;
    try {
      const added = await addStaff(user, teamId, member);
      return redirectWithToast(`/teams?tab=coaches&team=${encodeURIComponent(teamId)}`, {
        title: 'Staff member added successfully!',
        description: `${added.userName} is now on the staff.`,
        variant: 'success',
      });
    } catch (error) {
      return refuse(submission, error, intent, { notFoundField: 'teamId' });
    }
  }

  if (intent === 'createPin') {
    const submission = parseWithZod(form, { schema: createTeamPinSchema });
    if (submission.status !== 'success') return json({ intent, lastResult: submission.reply() }, { status: 400 });
    const { teamId, ...pin } = submission.value;
    const images = form.getAll('images').filter((v): v is File => typeof v !== 'string' && v.size > 0);
    try {
      const created = await createTeamPin(user, teamId, pin, images);
      return redirectWithToast(`/teams?tab=pins&team=${encodeURIComponent(teamId)}`, {
        title: 'Team pin created successfully!',
        description: `${created.name} is in the pin database and your collection.`,
        variant: 'success',
      });
    } catch (error) {
      return refuse(submission, error, intent, { notFoundField: 'teamId' });
    }
  }

  const teamId = String(form.get('teamId') ?? '');
  if (intent === 'uploadLogo') {
    const file = form.get('logo');
    try {
      await updateTeamLogo(user, teamId, typeof file === 'string' ? null : file);
    } catch (error) {
      return redirectWithToast('/teams?tab=teams', { ...logoFailure(error), variant: 'destructive' });
    }
    return redirectWithToast('/teams?tab=teams', { title: 'Team logo updated', variant: 'success' });
  }

  if (intent === 'deleteTeam') {
    try {
      const deleted = await deleteTeam(user, teamId);
      const pins = deleted.keptPins === 1 ? 'Its pin stays' : `Its ${formatCount(deleted.keptPins)} pins stay`;
      return redirectWithToast('/teams?tab=teams', {
        title: 'Team deleted successfully!',
        description: `${deleted.name} was deleted. ${deleted.keptPins ? `${pins} in the pin database without a team.` : ''}`.trim(),
        variant: 'success',
      });
    } catch (error) {
      if (!isAppError(error) || error.status >= 500) console.error(error);
      const message = isAppError(error) && error.status < 500 ? error.message : 'Failed to delete team.';
      return redirectWithToast('/teams?tab=teams', { title: 'Error deleting team', description: message, variant: 'destructive' });
    }
  }
  throw json({ message: 'Unknown action' }, { status: 400 });
}
