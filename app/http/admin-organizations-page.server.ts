/**
 * The loader and action of /admin/pins/organizations (routes/admin.pins_.organizations.tsx
 * re-exports them). They live here, not in the route module, so that the page's browser bundle
 * reaches none of the modules they import (the services, zod and the form library): in the browser
 * this file is one empty module. The organization form reads the action's reply with
 * ui/form-state.ts; the checking is the action's.
 */
import { parseWithZod } from '@conform-to/zod';
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { canViewAuditLog } from '~/auth/permissions';
import { adminOrganizationsQuery, organizationFormSchema } from '~/forms/admin';
import { replyWithServiceError } from '~/http/form-reply.server';
import { adminActionUser, adminPageUser } from '~/http/guards.server';
import { redirectWithToast } from '~/http/toast.server';
import { recordHistory } from '~/services/admin/audit-log.server';
import { listAdminOrganizations, pinTabTotals } from '~/services/admin/pins.server';
import { isAppError } from '~/services/errors';
import { createOrganization, deleteOrganization, getOrganization, updateOrganization } from '~/services/organizations.server';
import type { AdminOrganization } from '~/types/admin';
import { readDialog, readListQuery } from '~/utils/list-query';
import { fetchPage } from '~/utils/paging';

const PATH = '/admin/pins/organizations';
const DIALOGS = ['new', 'edit', 'delete'] as const;

export async function adminOrganizationsLoader({ request }: LoaderFunctionArgs) {
  const actor = await adminPageUser(request);
  const url = new URL(request.url);
  const query = readListQuery(url, adminOrganizationsQuery);
  const { dialog, dialogId } = readDialog(url, DIALOGS);
  try {
    const opts = { search: query.q, sort: query.sort, dir: query.dir };
    const { list, paging } = await fetchPage(query, (slice) => listAdminOrganizations(actor, { ...opts, ...slice }));
    const totals = await pinTabTotals(actor);
    let target: AdminOrganization | null = null;
    if (dialogId && (dialog === 'edit' || dialog === 'delete')) {
      target = list.organizations.find((o) => o.id === dialogId) ?? null;
      if (!target) {
        const found = await getOrganization(dialogId).catch(() => null);
        target = found ? { ...found, pinCount: 0 } : null;
      }
    }
    const history = target && dialog === 'edit' && canViewAuditLog(actor) ? await recordHistory(actor, 'organization', target.id) : null;
    return json({ state: 'ok' as const, query, organizations: list.organizations, total: list.total, paging, totals, dialog: dialog === 'new' || target ? dialog : null, target, history });
  } catch (error) {
    console.error(error);
    return json({ state: 'error' as const }, { status: 500 });
  }
}

type Intent = 'createOrganization' | 'updateOrganization' | 'deleteOrganization';
const FAILURE: Record<Intent, string> = {
  createOrganization: 'Error creating organization',
  updateOrganization: 'Error updating organization',
  deleteOrganization: 'Error deleting organization',
};

export async function adminOrganizationsAction({ request }: ActionFunctionArgs) {
  const actor = await adminActionUser(request);
  const form = await request.formData().catch(() => null);
  if (!form) throw json({ message: 'The form could not be read' }, { status: 400 });
  const intent = String(form.get('intent') ?? '') as Intent;
  const backField = String(form.get('back') ?? '');
  const back = backField.startsWith(PATH) ? backField : PATH;
  const id = String(form.get('id') ?? '');
  const message = (error: unknown) => {
    if (isAppError(error) && error.status < 500) return error.message;
    console.error(error);
    return 'Something went wrong on our side. Please try again.';
  };

  if (intent === 'createOrganization' || intent === 'updateOrganization') {
    const submission = parseWithZod(form, { schema: organizationFormSchema });
    if (submission.status !== 'success') return json({ intent, id, lastResult: submission.reply() }, { status: 400 });
    try {
      const input = { name: submission.value.name, description: submission.value.description ?? null };
      const saved = intent === 'createOrganization' ? await createOrganization(actor, input) : await updateOrganization(actor, id, input);
      return redirectWithToast(back, { title: intent === 'createOrganization' ? 'Organization created' : 'Organization updated', description: `${saved.name} is saved.`, variant: 'success' });
    } catch (error) {
      if (isAppError(error) && (error.status === 400 || error.status === 409)) return replyWithServiceError(submission, error, { extra: { intent, id } });
      return redirectWithToast(back, { title: FAILURE[intent], description: message(error), variant: 'destructive' });
    }
  }

  if (intent === 'deleteOrganization') {
    try {
      const org = await getOrganization(id);
      await deleteOrganization(actor, id);
      return redirectWithToast(back, { title: 'Organization deleted', description: `${org.name} was deleted.`, variant: 'success' });
    } catch (error) {
      return redirectWithToast(back, { title: FAILURE.deleteOrganization, description: message(error), variant: 'destructive' });
    }
  }
  throw json({ message: 'Unknown action' }, { status: 400 });
}
