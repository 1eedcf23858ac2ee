import type { MetaFunction } from '@remix-run/node';
import { Link, useLoaderData, useNavigation } from '@remix-run/react';
import { DailyChallenges } from '~/components/daily-challenges';
import { IdentificationCard } from '~/components/identification-card';
import { Identifier } from '~/components/identifier';
import { PinGrid } from '~/components/pin-card';
import { formatCount } from '~/utils/format';
import { homeLoader } from '~/http/home-page.server';
import '~/root';

export const meta: MetaFunction = () => [{ title: 'PinDex AI: identify and collect baseball trading pins' }];

const TABS = [
  { key: 'newest', label: 'Newest', heading: 'Latest Additions' },
  { key: 'rarest', label: 'Rarest', heading: 'Ultra Rare Finds' },
  { key: 'value', label: 'High Value', heading: 'Most Valuable' },
] as const;

/**
 * Home: the identifier, the community feed and the three catalogue tabs. Tabs are links
 * (`?tab=`), so they work without JavaScript. Tab counts: Newest = all pins, Rarest = ultra rare
 * pins, High Value = pins with an estimated value (see homeTabCounts).
 */
export const loader = homeLoader;

export default function Home() {
  const data = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const switchingTab = navigation.state === 'loading' && navigation.location?.pathname === '/' && navigation.location.search.includes('tab=');
  const active = TABS.find((t) => t.key === data.tab) ?? TABS[0];

  return (
    <div className="space-y-10">
      <section className="rounded-2xl bg-gradient-to-br from-brand-700 to-brand-500 px-6 py-10 text-white">
        <h1 className="text-3xl font-extrabold sm:text-4xl">PinDex AI</h1>
        <p className="mt-2 max-w-xl text-brand-100">Identify any baseball trading pin from a photo, explore the pin database and build your collection.</p>
        <div className="mt-6 max-w-xl text-slate-900">
          <Identifier ResultCard={IdentificationCard} />
        </div>
        <Link to="/browse" className="btn mt-6 bg-white text-brand-700 hover:bg-brand-50">
          Browse the pin database
        </Link>
      </section>

      <DailyChallenges challenges={data.challenges.list} signedIn={data.challenges.signedIn} />

      <section aria-labelledby="recent-heading" className="space-y-4">
        <h2 id="recent-heading" className="text-xl font-bold text-slate-900">
          Recent Community Identifications
        </h2>
        {navigation.state === 'loading' && navigation.location?.pathname === '/' && !switchingTab ? (
          <p className="text-slate-500">Loading recent identifications...</p>
        ) : data.recent.length === 0 ? (
          <p className="card px-4 py-8 text-center text-slate-600">No identifications yet. Be the first to identify a pin with the camera above!</p>
        ) : (
          <PinGrid
            pins={data.recent.map((r) => r.pin)}
            // the first row on a phone: the largest image of the page (its LCP) loads at once
            eagerCount={2}
            priorityFirst
            className="grid-cols-2 sm:grid-cols-3 lg:grid-cols-6"
            footer={(_, i) => <span className="font-medium text-brand-700">{data.recent[i].confidence}% confidence</span>}
          />
        )}
      </section>

      <section id="explore" aria-labelledby="explore-heading" className="scroll-mt-20 space-y-4">
        <h2 id="explore-heading" className="text-xl font-bold text-slate-900">
          Explore Our Pin Database
        </h2>
        <nav aria-label="Pin lists" className="flex flex-wrap gap-2 border-b border-slate-200">
          {TABS.map((t) => {
            const selected = t.key === data.tab;
            const n = data.counts[t.key];
            return (
              <Link
                key={t.key}
                // the anchor keeps the tabs in view when the page reloads without JavaScript
                to={`/?tab=${t.key}#explore`}
                preventScrollReset
                aria-current={selected ? 'page' : undefined}
                className={`-mb-px inline-flex items-center gap-2 border-b-2 px-3 py-2 text-sm font-semibold ${
                  selected ? 'border-brand-600 text-brand-700' : 'border-transparent text-slate-600 hover:text-slate-900'
                }`}
              >
                {t.label}
                <span className="badge bg-slate-100 text-slate-700">
                  {formatCount(n)} pins
                </span>
              </Link>
            );
          })}
        </nav>
        <div>
          <h3 className="mb-3 text-lg font-semibold text-slate-900">{active.heading}</h3>
          {switchingTab ? (
            <p className="text-slate-500">Loading pins...</p>
          ) : data.pins.length === 0 ? (
            <p className="card px-4 py-8 text-center text-slate-600">No pins found</p>
          ) : (
            <PinGrid pins={data.pins} eagerCount={0} className="grid-cols-2 md:grid-cols-4" />
          )}
        </div>
        <Link to="/browse" className="btn-secondary">
          View all pins
        </Link>
      </section>
    </div>
  );
}
