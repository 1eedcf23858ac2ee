import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { destroyUserSession } from '~/auth/session.server';

/** GET or POST /api/logout: ends the session (row deleted, cookie cleared) and goes to /. */
async function logout(request: Request) {
  return redirect('/', { headers: { 'Set-Cookie': await destroyUserSession(request), 'Cache-Control': 'no-store' } });
}

export async function loader({ request }: LoaderFunctionArgs) {
  return logout(request);
}

export async function action({ request }: ActionFunctionArgs) {
  return logout(request);
}
