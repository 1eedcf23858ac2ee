/**
 * The loader of /admin/audit-logs (routes/admin.audit-logs.tsx re-exports it). It lives here, not in
 * the route module, so that the page's browser bundle reaches none of the modules it imports (the
 * services, the list's zod schema): in the browser this file is one empty module.
 */
import type { LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { canViewAuditLog } from '~/auth/permissions';
import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES, auditLogQuery } from '~/forms/admin';
import { adminPageUser } from '~/http/guards.server';
import { auditActors, listAuditLogs } from '~/services/admin/audit-log.server';
import { readListQuery } from '~/utils/list-query';
import { fetchPage } from '~/utils/paging';

// Audit logs are for super_admin only: an admin gets the 'Access Denied' screen with status 403.
export async function adminAuditLogsLoader({ request }: LoaderFunctionArgs) {
  const user = await adminPageUser(request);
  if (!canViewAuditLog(user)) return json({ state: 'denied' as const }, { status: 403 });
  const query = readListQuery(new URL(request.url), auditLogQuery);
  try {
    const filters = { actorId: query.filters.actor, action: query.filters.action, targetType: query.filters.targetType, from: query.filters.from, to: query.filters.to };
    const { list, paging } = await fetchPage(query, (slice) => listAuditLogs(user, { ...filters, ...slice }));
    return json({ state: 'ok' as const, query, entries: list.entries, total: list.total, paging, actors: await auditActors(user), choices: { actions: AUDIT_ACTIONS, targetTypes: AUDIT_TARGET_TYPES } });
  } catch (error) {
    console.error(error);
    return json({ state: 'error' as const }, { status: 500 });
  }
}
