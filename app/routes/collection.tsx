import type { MetaFunction } from '@remix-run/node';
import { Form, Link, useLoaderData, useLocation, useNavigation, useRouteError, isRouteErrorResponse } from '@remix-run/react';
import { BadgeShowcase } from '~/components/badges';
import { ErrorPage } from '~/components/error-page';
import { PinCard } from '~/components/pin-card';
import { TimeZoneCookie } from '~/components/time-zone-cookie';
import { ConfirmStep } from '~/components/ui/confirm-step';
import { EmptyState } from '~/components/ui/empty-state';
import { StatCard } from '~/components/ui/stat-card';
import { Tabs } from '~/components/ui/tabs';
import type { CollectionStatus } from '~/utils/constants';
import { COLLECTION_MOVES, COLLECTION_STATUSES, collectionTabOf } from '~/utils/constants';
import { formatMoney } from '~/utils/format';
import { collectionPageLoader, collectionPageAction } from '~/http/collection-page.server';
import '~/root';

export const meta: MetaFunction = () => [{ title: 'My Collection | PinDex' }];

const TAB_LABEL: Record<CollectionStatus, string> = { owned: 'Owned', wanted: 'Wanted', trading: 'Trading' };
const LOAD_FAILURE: Record<CollectionStatus, string> = {
  owned: 'Failed to load your collection',
  wanted: 'Failed to load your wishlist',
  trading: 'Failed to load your trading pins',
};
const MOVE_LABEL: Record<CollectionStatus, Record<string, string>> = {
  owned: { wanted: 'Move to Wanted', trading: 'Move to Trading' },
  wanted: { owned: 'Mark as Owned', trading: 'Move to Trading' },
  trading: { owned: 'Keep', wanted: 'Move to Wanted' },
};

export const loader = collectionPageLoader;
export const action = collectionPageAction;

export default function CollectionPage() {
  const data = useLoaderData<typeof loader>();
  const { tab, stats, counts, badges, entries, valueCents, confirmRemove, listFailed } = data;
  return (
    <div className="space-y-6">
      <TimeZoneCookie />
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold text-slate-900">My Collection</h1>
          <p className="mt-1 text-sm text-slate-600">
            Estimated value: <span className="font-semibold text-slate-900" data-testid="collection-value">{formatMoney(valueCents / 100)}</span>
            <span className="text-slate-500"> (owned and trading pins, value × quantity)</span>
          </p>
        </div>
        <a href="/collection.csv" className="btn-secondary" download>
          Export CSV
        </a>
      </div>

      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <StatCard label="Pins Owned" value={stats.pinsOwned} valueTestId="stat-pins-owned" />
        <StatCard label="Wanted" value={stats.pinsWanted} valueTestId="stat-wanted" />
        <StatCard label="Points" value={stats.achievementPoints} valueTestId="stat-points" />
        <StatCard
          label="Day Streak"
          value={stats.currentStreak}
          valueTestId="stat-day-streak"
          hint={stats.longestStreak > 0 ? `Longest: ${stats.longestStreak} ${stats.longestStreak === 1 ? 'day' : 'days'}` : undefined}
        />
      </dl>

      <BadgeShowcase badges={badges} />

      <Tabs
        label="Collection lists"
        current={tab}
        items={COLLECTION_STATUSES.map((s) => ({ key: s, label: TAB_LABEL[s], count: counts[s] }))}
        countTestId={(s) => `count-${s}`}
      />

      <section aria-label={`${TAB_LABEL[tab]} pins`}>
        {listFailed ? (
          <LoadFailure tab={tab} />
        ) : entries.length === 0 ? (
          <EmptyTab tab={tab} />
        ) : (
          <ul className="grid grid-cols-1 gap-4 min-[420px]:grid-cols-2 md:grid-cols-3 lg:grid-cols-4">
            {entries.map((e, i) => (
              <li key={e.id} data-testid="collection-entry" data-pin-name={e.pin.name}>
                <PinCard
                  pin={e.pin}
                  eager={i < 4}
                  footer={
                    <div className="space-y-2">
                      <p className="text-xs text-slate-600">
                        Qty {e.quantity} · {e.condition}
                        {e.tradeable ? ' · tradeable' : ''}
                        {e.pin.estimatedValue != null ? ` · ${formatMoney(e.pin.estimatedValue)}` : ''}
                      </p>
                      {e.notes ? <p className="truncate text-xs italic text-slate-500">{e.notes}</p> : null}
                      <MoveButtons tab={tab} pinId={e.pinId} pinName={e.pin.name} />
                      <ConfirmStep
                        trigger="Remove"
                        triggerClassName="text-xs font-semibold text-red-700 hover:underline"
                        title="Remove from collection?"
                        description={`${e.pin.name} will be removed from your collection. You can add it again from the pin page.`}
                        confirmLabel="Remove"
                        pendingLabel="Removing..."
                        fields={{ intent: 'remove', pinId: e.pinId, pinName: e.pin.name }}
                        href={`?tab=${tab}&confirm=remove&pin=${encodeURIComponent(e.pinId)}`}
                        closeHref={`?tab=${tab}`}
                        serverOpen={confirmRemove === e.pinId}
                        danger
                      />
                    </div>
                  }
                />
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function MoveButtons({ tab, pinId, pinName }: { tab: CollectionStatus; pinId: string; pinName: string }) {
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'move' && navigation.formData?.get('pinId') === pinId;
  return (
    <div className="flex flex-wrap gap-2">
      {COLLECTION_MOVES[tab].map((to) => (
        <Form method="post" key={to} preventScrollReset>
          <input type="hidden" name="intent" value="move" />
          <input type="hidden" name="pinId" value={pinId} />
          <input type="hidden" name="status" value={to} />
          <button
            type="submit"
            disabled={busy}
            aria-label={`${MOVE_LABEL[tab][to]}: ${pinName}`}
            className={to === 'owned' && tab === 'trading' ? 'btn-primary px-3 py-1 text-xs' : 'btn-secondary px-3 py-1 text-xs'}
          >
            {busy && navigation.formData?.get('status') === to ? 'Updating...' : MOVE_LABEL[tab][to]}
          </button>
        </Form>
      ))}
    </div>
  );
}

function EmptyTab({ tab }: { tab: CollectionStatus }) {
  if (tab === 'owned') {
    return (
      <EmptyState
        data-testid="empty-owned"
        title="No pins in your collection yet"
        description="Identify a pin or browse the database to add your first one."
        action={
          <Link to="/" className="btn-primary">
            Start Collecting
          </Link>
        }
      />
    );
  }
  return (
    <EmptyState
      title={tab === 'wanted' ? 'No pins on your wanted list' : 'No pins up for trade'}
      description={
        <>
          {tab === 'wanted' ? 'Pins you are looking for show up here.' : 'Move an owned pin to Trading to offer it.'}{' '}
          <Link to="/browse" className="font-semibold text-brand-700 hover:underline">
            Browse pins
          </Link>
        </>
      }
    />
  );
}

function LoadFailure({ tab }: { tab: CollectionStatus }) {
  return (
    <EmptyState
      role="alert"
      title={LOAD_FAILURE[tab]}
      description="Please try refreshing the page"
      action={
        <a href={`/collection?tab=${tab}`} className="btn-primary">
          Refresh
        </a>
      }
    />
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const location = useLocation();
  // known states (sign-in, forbidden, not found) use the shared error page; anything else is a load failure
  if (isRouteErrorResponse(error) && error.status < 500) return <ErrorPage error={error} />;
  return (
    <div className="mx-auto max-w-lg py-16">
      <LoadFailure tab={collectionTabOf(new URL(location.pathname + location.search, 'http://x'))} />
    </div>
  );
}
