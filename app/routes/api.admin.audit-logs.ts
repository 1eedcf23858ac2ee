import type { LoaderFunctionArgs } from '@remix-run/node';
import { api, methodNotAllowed } from '~/http/api.server';
import { requireUser } from '~/http/guards.server';
import { listAuditLogs } from '~/services/admin/audit-log.server';

/**
 * GET /api/admin/audit-logs?actorId&action&targetType&from&to&limit&offset -> { entries, total },
 * newest first (super admins only: an admin gets 403).
 */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const user = await requireUser(request);
  const p = new URL(request.url).searchParams;
  return listAuditLogs(user, {
    actorId: p.get('actorId'),
    action: p.get('action'),
    targetType: p.get('targetType'),
    from: p.get('from'),
    to: p.get('to'),
    limit: p.get('limit'),
    offset: p.get('offset'),
  });
});

export const action = api(async () => methodNotAllowed(['GET']));
