import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { canViewAuditLog } from '~/auth/permissions';
import { adminPageUser } from '~/http/guards.server';

export const meta: MetaFunction = () => [{ title: 'Audit Logs | PinDex Admin' }];

// Audit logs are for super_admin only: an admin gets the 'Access Denied' screen with status 403.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await adminPageUser(request);
  if (!user) return json({ allowed: false, signedIn: false });
  if (!canViewAuditLog(user)) return json({ allowed: false, signedIn: true }, { status: 403 });
  return json({ allowed: true, signedIn: true });
}

export default function AdminAuditLogs() {
  const { allowed, signedIn } = useLoaderData<typeof loader>();
  if (!signedIn) return null;
  if (!allowed) {
    return (
      <div className="card mx-auto max-w-lg p-8 text-center">
        <h1 className="text-2xl font-bold text-slate-900">Access Denied</h1>
        <p className="mt-3 text-slate-600">Only super admins can view the audit logs.</p>
      </div>
    );
  }
  return (
    <div>
      <h1 className="text-2xl font-bold text-slate-900">Audit Logs</h1>
    </div>
  );
}
