import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { adminPageUser } from '~/http/guards.server';

export const meta: MetaFunction = () => [{ title: 'Pin Database Management | PinDex Admin' }];

// Signed out: the layout shows the prompt; other roles are sent to / by the guard.
export async function loader({ request }: LoaderFunctionArgs) {
  await adminPageUser(request);
  return json(null);
}

export default function AdminPins() {
  return (
    <div>
      <h1 className="text-2xl font-bold text-slate-900">Pin Database Management</h1>
    </div>
  );
}
