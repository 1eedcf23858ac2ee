import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { EmptyState } from '~/components/ui/empty-state';
import { requirePageUser } from '~/http/guards.server';
import { listMySuggestions } from '~/services/suggestions.server';
import { formatDate } from '~/utils/format';
import '~/root';

export const meta: MetaFunction = () => [{ title: 'My Suggestions | PinDex' }];

/** The pins the signed-in user suggested, and what became of them (a rejection with its reason). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requirePageUser(request);
  return json({ suggestions: await listMySuggestions(user) });
}

const BADGE = {
  pending: ['Waiting for review', 'bg-amber-100 text-amber-800'],
  approved: ['Approved', 'bg-green-100 text-green-800'],
  rejected: ['Not added', 'bg-red-100 text-red-800'],
} as const;

export default function MySuggestions() {
  const { suggestions } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-3xl space-y-4">
      <h1 className="text-2xl font-bold text-slate-900">My Suggestions</h1>
      <p className="text-sm text-slate-600">Pins you suggested from a photo with no match. An admin reviews each one.</p>
      {suggestions.length === 0 ? (
        <EmptyState
          title="No suggestions yet"
          description="When a photo finds no match, suggest the pin from the result."
          action={
            <Link to="/identify" className="btn-primary">
              Identify a pin
            </Link>
          }
        />
      ) : (
        <ul className="space-y-3">
          {suggestions.map((s) => {
            const [label, tone] = BADGE[s.status];
            return (
              <li key={s.id} className="card flex gap-4 p-4" data-testid="my-suggestion">
                {s.images[0] ? (
                  <img src={`${s.images[0]}?s=thumb`} alt={s.name} width={64} height={64} className="h-16 w-16 shrink-0 rounded-md border border-slate-200 bg-white object-contain" />
                ) : null}
                <div className="min-w-0 flex-1 space-y-1 text-sm">
                  <div className="flex flex-wrap items-center gap-2">
                    <h2 className="text-base font-semibold text-slate-900">{s.name}</h2>
                    <span className={`badge ${tone}`}>{label}</span>
                  </div>
                  <p className="text-slate-600">
                    {s.organizationName}
                    {s.year ? ` · ${s.year}` : ''} · suggested {formatDate(s.createdAt)}
                  </p>
                  {s.status === 'rejected' && s.rejectReason ? <p className="text-red-800">Reason: {s.rejectReason}</p> : null}
                  {s.pinId ? (
                    <Link to={`/pins/${s.pinId}`} className="font-medium text-brand-700 hover:underline">
                      View the pin (in your collection)
                    </Link>
                  ) : null}
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
