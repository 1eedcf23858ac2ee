import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { EmptyState } from '~/components/ui/empty-state';
import { Tabs } from '~/components/ui/tabs';
import { SUGGESTION_STATUSES, type SuggestionStatus, isOneOf } from '~/utils/constants';
import { adminPageUser } from '~/http/guards.server';
import { rethrowAsPageError } from '~/http/page.server';
import { redirectWithToast } from '~/http/toast.server';
import { isAppError } from '~/services/errors';
import { approveSuggestion, listSuggestions, rejectSuggestion } from '~/services/suggestions.server';
import { REJECT_REASON_MAX } from '~/utils/suggestions';
import { formatDate } from '~/utils/format';
import '~/root';

export const meta: MetaFunction = () => [{ title: 'Pin Suggestions | PinDex Admin' }];

const statusOf = (url: URL): SuggestionStatus => {
  const s = url.searchParams.get('status');
  return isOneOf(SUGGESTION_STATUSES, s) ? s : 'pending';
};

// Signed out: the sign-in prompt; other roles are sent to / by the guard.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await adminPageUser(request);
  const status = statusOf(new URL(request.url));
  try {
    return json({ status, ...(await listSuggestions(user, status)) });
  } catch (error) {
    rethrowAsPageError(error);
  }
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await adminPageUser(request);
  const formData = await request.formData().catch(() => null);
  if (!formData) return json({ id: null, error: 'The form could not be read' }, { status: 400 });
  const id = String(formData.get('id') ?? '');
  const intent = formData.get('intent');
  try {
    if (intent === 'approve') {
      const { pinId } = await approveSuggestion(user, id);
      return redirectWithToast('/admin/suggestions', { title: 'Suggestion approved', description: `The pin is in the database (/pins/${pinId}) and in the suggester's collection.`, variant: 'success' });
    }
    if (intent === 'reject') {
      await rejectSuggestion(user, id, formData.get('reason'));
      return redirectWithToast('/admin/suggestions', { title: 'Suggestion rejected', description: 'The suggester sees your reason.', variant: 'default' });
    }
    return json({ id, error: 'Unknown action' }, { status: 400 });
  } catch (error) {
    if (isAppError(error) && error.status < 500) {
      if (error.status === 401 || error.status === 403) rethrowAsPageError(error);
      return json({ id, error: error.message }, { status: error.status });
    }
    throw error;
  }
}

const STATUS_LABELS: Record<SuggestionStatus, string> = { pending: 'Waiting', approved: 'Approved', rejected: 'Rejected' };

export default function AdminSuggestions() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = (id: string) => navigation.state !== 'idle' && navigation.formData?.get('id') === id;
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-bold text-slate-900">Pin Suggestions</h1>
        <p className="mt-1 text-sm text-slate-600">Pins suggested by players and coaches from a photo with no match. Approve to add the pin, or reject with a reason they will see.</p>
      </div>
      <Tabs
        label="Suggestion status"
        param="status"
        current={data.status}
        items={SUGGESTION_STATUSES.map((s) => ({ key: s, label: STATUS_LABELS[s], count: data.counts[s], href: s === 'pending' ? '/admin/suggestions' : `/admin/suggestions?status=${s}` }))}
      />
      {data.suggestions.length === 0 ? (
        <EmptyState title={data.status === 'pending' ? 'No suggestions waiting' : `No ${STATUS_LABELS[data.status].toLowerCase()} suggestions`} description="Suggestions from a photo with no match appear here." />
      ) : (
        <ul className="space-y-3">
          {data.suggestions.map((s) => (
            <li key={s.id} className="card p-4" data-testid="suggestion" aria-label={s.name}>
              <div className="flex flex-col gap-4 sm:flex-row">
                <div className="flex shrink-0 gap-2">
                  {s.images.slice(0, 3).map((src, i) => (
                    <a key={src} href={src} className="block h-20 w-20 overflow-hidden rounded-md border border-slate-200 bg-white">
                      <img src={`${src}?s=thumb`} alt={i === 0 ? `${s.name}, photo 1` : `Photo ${i + 1}`} width={80} height={80} className="h-full w-full object-contain" />
                    </a>
                  ))}
                </div>
                <div className="min-w-0 flex-1 space-y-1 text-sm">
                  <h2 className="text-base font-semibold text-slate-900">{s.name}</h2>
                  <p className="text-slate-600">
                    {s.organizationName}
                    {s.year ? ` · ${s.year}` : ''}
                    {s.event ? ` · ${s.event}` : ''} · {s.totalQuantity} pieces
                  </p>
                  <p className="text-slate-700">{s.description}</p>
                  <p className="text-xs text-slate-500">
                    From {s.suggestedBy?.name ?? 'a deleted user'} on {formatDate(s.createdAt)}
                  </p>
                  {s.rejectReason ? <p className="text-xs text-red-800">Reason: {s.rejectReason}</p> : null}
                  {s.pinId ? (
                    <Link to={`/pins/${s.pinId}`} className="text-xs font-medium text-brand-700 hover:underline">
                      View the pin
                    </Link>
                  ) : null}
                  {actionData?.id === s.id && actionData.error ? (
                    <p role="alert" className="text-sm text-red-700">
                      {actionData.error}
                    </p>
                  ) : null}
                </div>
                {s.status === 'pending' ? (
                  <div className="flex shrink-0 flex-col gap-2 sm:w-64">
                    <Form method="post">
                      <input type="hidden" name="id" value={s.id} />
                      <button type="submit" name="intent" value="approve" className="btn-primary w-full" disabled={busy(s.id)}>
                        Approve
                      </button>
                    </Form>
                    <Form method="post" className="space-y-2">
                      <input type="hidden" name="id" value={s.id} />
                      <label className="label" htmlFor={`reason-${s.id}`}>
                        Reason to reject
                      </label>
                      <textarea id={`reason-${s.id}`} name="reason" rows={2} maxLength={REJECT_REASON_MAX} required className="input" />
                      <button type="submit" name="intent" value="reject" className="btn-secondary w-full" disabled={busy(s.id)}>
                        Reject
                      </button>
                    </Form>
                  </div>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
