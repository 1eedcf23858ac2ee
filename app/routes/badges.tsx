import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { useLoaderData, useNavigation, useRouteError } from '@remix-run/react';
import { requireUserOr404 } from '~/http/guards.server';
import { EarnedBadgeCard, LockedBadgeCard } from '~/components/badges';
import { DailyChallenges } from '~/components/daily-challenges';
import { ErrorPage } from '~/components/error-page';
import { TimeZoneCookie } from '~/components/time-zone-cookie';
import { ensureAchievementsOnce } from '~/services/achievement-definitions.server';
import { getBadgeOverview, getUserStats } from '~/services/achievements.server';
import { listDailyChallenges } from '~/services/challenges.server';
import { timeZoneFromRequest } from '~/http/time-zone.server';
import { page } from '~/http/page.server';
import '~/root';

export const meta: MetaFunction = () => [{ title: 'Badges | PinDex' }];

export async function loader({ request }: LoaderFunctionArgs) {
  // spec §1: /badges is not registered for signed-out users
  const user = await requireUserOr404(request);
  return page(async () => {
    await ensureAchievementsOnce();
    const [overview, stats, challenges] = await Promise.all([
      getBadgeOverview(user, user.id),
      getUserStats(user, user.id, { timeZone: timeZoneFromRequest(request) }),
      listDailyChallenges(user),
    ]);
    const view = <T extends { id: string; name: string; description: string; points: number; category: string; iconUrl: string | null }>(b: T) => ({
      id: b.id,
      name: b.name,
      description: b.description,
      points: b.points,
      category: b.category,
      iconUrl: b.iconUrl,
    });
    return json({
      total: overview.total,
      earned: overview.earned.map((b) => ({ ...view(b), unlockedAt: b.unlockedAt })),
      locked: overview.locked.map((b) => ({ ...view(b), current: b.current, target: b.target, percent: b.percent })),
      challenges: challenges.challenges,
      stats: { achievementPoints: stats.achievementPoints, pinsIdentified: stats.pinsIdentified, pinsOwned: stats.pinsOwned, currentStreak: stats.currentStreak },
    });
  });
}

export default function BadgesPage() {
  const { total, earned, locked, stats, challenges } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const loading = navigation.state === 'loading' && navigation.location.pathname === '/badges';
  return (
    <div className="space-y-6">
      <TimeZoneCookie />
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold text-slate-900">Badges</h1>
          <p className="mt-1 text-slate-600" data-testid="badges-earned-count">
            {earned.length} / {total} Earned
          </p>
        </div>
        <dl className="flex gap-4 text-sm text-slate-600">
          <div>
            <dt className="inline">Points: </dt>
            <dd className="inline font-semibold text-slate-900">{stats.achievementPoints}</dd>
          </div>
          <div>
            <dt className="inline">Pins identified: </dt>
            <dd className="inline font-semibold text-slate-900">{stats.pinsIdentified}</dd>
          </div>
          <div>
            <dt className="inline">Day streak: </dt>
            <dd className="inline font-semibold text-slate-900">{stats.currentStreak}</dd>
          </div>
        </dl>
      </div>
      {loading ? <p className="text-sm text-slate-500">Loading badges...</p> : null}
      <DailyChallenges challenges={challenges} signedIn redirectTo="/badges" />
      {total === 0 ? (
        <p className="card p-8 text-center text-slate-600">No badges available yet</p>
      ) : (
        <>
          <section aria-labelledby="earned-title">
            <h2 id="earned-title" className="mb-3 text-lg font-semibold text-slate-900">
              Earned Badges
            </h2>
            {earned.length === 0 ? (
              <p className="text-sm text-slate-600">You have not earned any badges yet. Identify and collect pins to unlock them.</p>
            ) : (
              <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
                {earned.map((b) => (
                  <EarnedBadgeCard key={b.id} badge={b} />
                ))}
              </ul>
            )}
          </section>
          <section aria-labelledby="locked-title">
            <h2 id="locked-title" className="mb-3 text-lg font-semibold text-slate-900">
              Locked Badges
            </h2>
            {locked.length === 0 ? (
              <p className="text-sm text-slate-600">You have earned every badge. Impressive!</p>
            ) : (
              <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
                {locked.map((b) => (
                  <LockedBadgeCard key={b.id} badge={b} />
                ))}
              </ul>
            )}
          </section>
        </>
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
