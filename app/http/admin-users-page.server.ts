/**
 * The loader and action of /admin/users (routes/admin.users.tsx re-exports them). They live here,
 * not in the route module, so that the page's browser bundle reaches none of the modules they
 * import (the services, zod and the form library): in the browser this file is one empty module.
 * The role form reads the action's reply with ui/form-state.ts; the checking is the action's.
 */
import { parseWithZod } from '@conform-to/zod';
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { canViewAuditLog, rolesAssignableBy } from '~/auth/permissions';
import { adminUsersQuery, roleChangeSchema } from '~/forms/admin';
import { replyWithServiceError } from '~/http/form-reply.server';
import { adminActionUser, adminPageUser } from '~/http/guards.server';
import { redirectWithToast } from '~/http/toast.server';
import { recordHistory } from '~/services/admin/audit-log.server';
import { getAdminUserDetails, listAdminUsers } from '~/services/admin/users.server';
import { isAppError } from '~/services/errors';
import { changeUserRole } from '~/services/users.server';
import { ROLE_LABELS } from '~/utils/constants';
import { readListQuery } from '~/utils/list-query';
import { fetchPage } from '~/utils/paging';

const PATH = '/admin/users';

// Signed out: the layout shows the prompt; other roles are sent to / by the guard.
export async function adminUsersLoader({ request }: LoaderFunctionArgs) {
  const actor = await adminPageUser(request);
  const url = new URL(request.url);
  const query = readListQuery(url, adminUsersQuery);
  const dialog = url.searchParams.get('dialog');
  const dialogId = url.searchParams.get('id');
  try {
    const { list, paging } = await fetchPage(query, (slice) => listAdminUsers(actor, { search: query.q, role: query.filters.role, sort: query.sort, dir: query.dir, ...slice }));
    const rows = list.users.map((u) => ({ ...u, assignable: rolesAssignableBy(actor, u) }));
    let details = null;
    let history = null;
    if (dialogId && (dialog === 'details' || dialog === 'role')) {
      try {
        const found = await getAdminUserDetails(actor, dialogId);
        details = { ...found, assignable: rolesAssignableBy(actor, found) };
        if (dialog === 'details' && canViewAuditLog(actor)) history = await recordHistory(actor, 'user', found.id);
      } catch (error) {
        if (!isAppError(error) || error.status !== 404) throw error;
      }
    }
    return json({ state: 'ok' as const, actorId: actor.id, query, rows, total: list.total, paging, dialog: details ? dialog : null, details, history });
  } catch (error) {
    console.error(error);
    return json({ state: 'error' as const }, { status: 500 });
  }
}

export async function adminUsersAction({ request }: ActionFunctionArgs) {
  const actor = await adminActionUser(request);
  const form = await request.formData().catch(() => null);
  if (!form) throw json({ message: 'The form could not be read' }, { status: 400 });
  const back = String(form.get('back') ?? PATH);
  const backTo = back.startsWith(`${PATH}`) ? back : PATH;
  const submission = parseWithZod(form, { schema: roleChangeSchema });
  if (submission.status !== 'success') return json({ userId: String(form.get('userId') ?? ''), lastResult: submission.reply() }, { status: 400 });
  try {
    const updated = await changeUserRole(actor, submission.value.userId, submission.value.role);
    return redirectWithToast(backTo, { title: 'Role Updated', description: `${updated.email} is now ${ROLE_LABELS[updated.role]}.`, variant: 'success' });
  } catch (error) {
    if (isAppError(error) && error.status === 400) return replyWithServiceError(submission, error, { extra: { userId: submission.value.userId } });
    if (!isAppError(error) || error.status >= 500) console.error(error);
    const reason = isAppError(error) && error.status < 500 ? ` ${error.message}.` : '';
    return redirectWithToast(backTo, { title: 'Error', description: `Failed to update user role.${reason}`, variant: 'destructive' });
  }
}
