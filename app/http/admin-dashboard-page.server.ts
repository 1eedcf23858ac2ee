import type { LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { adminPageUser } from '~/http/guards.server';
import { getDashboard } from '~/services/admin/dashboard.server';

// Signed out: the layout shows the prompt; other roles are sent to / by the guard.
export async function adminDashboardLoader({ request }: LoaderFunctionArgs) {
  const actor = await adminPageUser(request);
  try {
    return json({ state: 'ok' as const, dashboard: await getDashboard(actor) });
  } catch (error) {
    console.error(error);
    return json({ state: 'error' as const }, { status: 500 });
  }
}
