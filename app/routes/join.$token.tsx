import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { optionalUser, requirePageUser, signInPrompt } from '~/http/guards.server';
import { redirectWithToast } from '~/http/toast.server';
import { isAppError } from '~/services/errors';
import { acceptInvite, previewInvite } from '~/services/team-invites.server';
import { INVITE_CLAIMED, INVITE_EXPIRED, INVITE_REVOKED } from '~/utils/team-invites';
import { formatDate } from '~/utils/format';
import '~/root';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data && data.state === 'ok' ? `Join ${data.invite.teamName} | PinDex` : 'Team invite | PinDex' },
  { name: 'robots', content: 'noindex' },
];

/** /join/{token}: an invite link to a team's roster (anyone holding it may read whom it is for). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await optionalUser(request);
  try {
    const invite = await previewInvite(user, params.token ?? '');
    const headers = { 'Cache-Control': 'private, no-store', 'Referrer-Policy': 'no-referrer' };
    if (!user && invite.status === 'active') {
      const message = `You are invited to join ${invite.teamName} as ${invite.playerName}. Sign in or create an account, then come back to this link.`;
      throw signInPrompt(request, { title: `Join ${invite.teamName}`, message }, { headers });
    }
    return json({ state: 'ok' as const, invite }, { headers });
  } catch (error) {
    if (isAppError(error) && error.status === 404) return json({ state: 'notFound' as const }, { status: 404 });
    throw error;
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requirePageUser(request);
  try {
    const joined = await acceptInvite(user, params.token ?? '');
    return redirectWithToast(`/teams/${joined.teamId}`, { title: `Welcome to ${joined.teamName}!`, description: `You are on the roster as ${joined.playerName}.`, variant: 'success' });
  } catch (error) {
    if (isAppError(error) && error.status < 500) return json({ error: error.message }, { status: error.status });
    throw error;
  }
}

const REASONS = { expired: INVITE_EXPIRED, revoked: INVITE_REVOKED, accepted: INVITE_CLAIMED } as const;

export default function JoinTeam() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  if (data.state === 'notFound') {
    return (
      <div className="mx-auto max-w-lg py-16 text-center">
        <h1 className="text-2xl font-bold text-slate-900">Invite Not Found</h1>
        <p className="mt-2 text-slate-600">This invite link does not exist. Check that you copied all of it, or ask the team manager for a new one.</p>
        <Link to="/teams" className="btn-primary mt-6">
          Go to Teams
        </Link>
      </div>
    );
  }
  const { invite } = data;
  return (
    <div className="mx-auto max-w-lg py-12">
      <section className="card space-y-4 p-6 text-center">
        <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">Team invite</p>
        <h1 className="text-2xl font-bold text-slate-900">{invite.teamName}</h1>
        {invite.teamLocation ? <p className="text-slate-600">{invite.teamLocation}</p> : null}
        {invite.alreadyJoined ? (
          <>
            <p className="text-slate-700">You are on the roster as {invite.playerName}.</p>
            <Link to={`/teams/${invite.teamId}`} className="btn-primary">
              Open the team
            </Link>
          </>
        ) : invite.status === 'active' ? (
          <>
            <p className="text-slate-700">
              Join the roster as <strong>{invite.playerName}</strong> (for the player, or the parent who keeps their pins). The team then shows in your Teams.
            </p>
            {actionData?.error ? (
              <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800">
                {actionData.error}
              </p>
            ) : null}
            <Form method="post">
              <button type="submit" className="btn-primary w-full sm:w-auto" disabled={navigation.state === 'submitting'}>
                {navigation.state === 'submitting' ? 'Joining...' : `Join as ${invite.playerName}`}
              </button>
            </Form>
            <p className="text-xs text-slate-500">This link works until {formatDate(invite.expiresAt)}.</p>
          </>
        ) : (
          <>
            <p role="alert" className="rounded-md bg-amber-50 p-3 text-sm text-amber-900">
              {REASONS[invite.status]}
            </p>
            <Link to="/teams" className="btn-secondary">
              Go to Teams
            </Link>
          </>
        )}
      </section>
    </div>
  );
}
