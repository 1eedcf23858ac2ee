import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { requireUserOr404 } from '~/http/guards.server';

export const meta: MetaFunction = () => [{ title: 'Team | PinDex' }];

// Team detail is not registered for signed-out visitors: they get the 404 page.
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUserOr404(request);
  return json({ id: params.id ?? '' });
}

export default function TeamDetail() {
  useLoaderData<typeof loader>();
  return (
    <div>
      <Link to="/teams" className="btn-secondary">
        Back to Teams
      </Link>
      <h1 className="mt-4 text-2xl font-bold text-slate-900">Team Details</h1>
    </div>
  );
}
