import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { PinSide } from '~/components/trades';
import { buttonClass } from '~/components/ui/button';
import { StatCard } from '~/components/ui/stat-card';
import { optionalUser } from '~/http/guards.server';
import { page } from '~/http/page.server';
import { listEarnedBadges } from '~/services/achievements.server';
import { getPublicProfile } from '~/services/trades.server';
import { formatDate } from '~/utils/format';
import '~/root';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `${data.profile.user.name} | PinDex` : 'Collector | PinDex' }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const viewer = await optionalUser(request);
  return page(async () => {
    const profile = await getPublicProfile(viewer, params.nickname ?? '');
    const badges = (await listEarnedBadges(profile.user.id)).map((b) => ({ id: b.id, name: b.name, description: b.description, points: b.points }));
    return json({ profile, badges, signedIn: !!viewer });
  });
}

export default function PublicProfilePage() {
  const { profile, badges, signedIn } = useLoaderData<typeof loader>();
  const { user, rating } = profile;
  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0">
          <h1 className="break-words text-2xl font-bold text-slate-900 sm:text-3xl">{user.name}</h1>
          <p className="mt-1 text-sm text-slate-600">Collector since {formatDate(user.memberSince)}</p>
        </div>
        {signedIn && !profile.isMe ? (
          <Link to={`/trades/new?with=${encodeURIComponent(user.id)}`} className={buttonClass('primary')}>
            Propose a trade
          </Link>
        ) : null}
      </header>
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <StatCard label="Completed trades" value={profile.completedTrades} valueTestId="profile-completed-trades" />
        <StatCard label="Rating" value={rating.average == null ? '-' : `${rating.average.toFixed(1)} / 5`} hint={rating.count ? `${rating.count} ${rating.count === 1 ? 'rating' : 'ratings'}` : 'No ratings yet'} />
        <StatCard label="Trading" value={profile.trading.length} />
        <StatCard label="Wanted" value={profile.wanted.length} />
      </div>
      <section className="card p-4">
        <PinSide title={`Trading (${profile.trading.length})`} pins={profile.trading} empty="Nothing up for trade right now." testId="profile-trading" />
      </section>
      <section className="card p-4">
        <PinSide title={`Wanted (${profile.wanted.length})`} pins={profile.wanted} empty="No pins on the wanted list." testId="profile-wanted" />
      </section>
      <section className="card p-4" aria-labelledby="profile-badges">
        <h2 id="profile-badges" className="mb-2 text-xs font-semibold uppercase tracking-wide text-slate-500">
          Badges ({badges.length})
        </h2>
        {badges.length ? (
          <ul className="flex flex-wrap gap-2">
            {badges.map((b) => (
              <li key={b.id} className="badge bg-amber-100 text-amber-800" title={b.description}>
                {b.name}
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-500">No badges earned yet.</p>
        )}
      </section>
    </div>
  );
}
