/**
 * The loader and action of a team's page, /teams/{id} (routes/teams_.$id.tsx re-exports them).
 * They live here, not in the route module, so that the page's browser bundle reaches none of the
 * modules they import (the services, zod and the form library): in the browser this file is one
 * empty module. The edit form reads the action's reply with ui/form-state.ts.
 */
import { parseWithZod } from '@conform-to/zod';
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { canManageTeam } from '~/auth/permissions';
import { toCardData } from '~/components/pin-card';
import { editPlayerFormSchema } from '~/forms/teams';
import { replyWithServiceError } from '~/http/form-reply.server';
import { requireUserOr404 } from '~/http/guards.server';
import { rethrowAsPageError } from '~/http/page.server';
import { redirectWithToast } from '~/http/toast.server';
import { withCommunityCounts } from '~/services/community.server';
import { isAppError } from '~/services/errors';
import { createInvite, listInvites, revokeInvite, type TeamInvite } from '~/services/team-invites.server';
import { pinOrderQuantities } from '~/services/team-pin-orders.server';
import { importRosterCsv, ROSTER_CSV_MAX_BYTES } from '~/services/team-roster-csv.server';
import { getTeamDetails, listTeamPins, removePlayer, updatePlayer } from '~/services/teams.server';

// Team detail is not registered for signed-out visitors: they get the 404 page.
export async function teamLoader({ request, params }: LoaderFunctionArgs) {
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

export async function teamAction({ request, params }: ActionFunctionArgs) {
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
