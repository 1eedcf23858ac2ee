import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, Link, useLoaderData } from '@remix-run/react';
import { MatchCard, ProposalCard, formatTradeDate } from '~/components/trades';
import { badgeToasts } from '~/components/reward-toasts';
import { Button, buttonClass } from '~/components/ui/button';
import { EmptyState } from '~/components/ui/empty-state';
import { Pagination } from '~/components/ui/list-controls';
import { Tabs } from '~/components/ui/tabs';
import { promptedPageUser, requirePageUser } from '~/http/guards.server';
import { page } from '~/http/page.server';
import { redirectWithToast } from '~/http/toast.server';
import { isAppError } from '~/services/errors';
import {
  acceptTrade,
  cancelTrade,
  countTradeProposals,
  declineTrade,
  listNotifications,
  listTradeMatches,
  listTradeProposals,
  markNotificationsRead,
  rateTrade,
  ratedTradeIds,
  type ProposalBox,
} from '~/services/trades.server';
import '~/root';
import { isOneOf } from '~/utils/constants';

export const meta: MetaFunction = () => [{ title: 'Trades | PinDex' }];

const TABS = ['matches', 'incoming', 'outgoing', 'history'] as const;
type Tab = (typeof TABS)[number];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await promptedPageUser(request, { title: 'Trading Access Required', message: 'Sign in to find collectors to trade pins with.' });
  const url = new URL(request.url);
  const tabParam = url.searchParams.get('tab') ?? 'matches';
  const tab: Tab = isOneOf(TABS, tabParam) ? tabParam : 'matches';
  const pageParam = Number(url.searchParams.get('page') ?? '1');
  const pageNo = Number.isInteger(pageParam) && pageParam > 0 ? pageParam : 1;
  return page(async () => {
    const [counts, notices, matches, proposals] = await Promise.all([
      countTradeProposals(user),
      listNotifications(user, { limit: 5 }),
      tab === 'matches' ? listTradeMatches(user, { page: pageNo }) : null,
      tab === 'matches' ? null : listTradeProposals(user, tab as ProposalBox, { page: pageNo }),
    ]);
    // completed trades the viewer may still rate (history only)
    const accepted = proposals?.proposals.filter((p) => p.status === 'accepted').map((p) => p.id) ?? [];
    const rated = new Set(await ratedTradeIds(user.id, accepted));
    const rateable = accepted.filter((id) => !rated.has(id));
    const confirmAcceptId = url.searchParams.get('confirm') === 'accept' ? url.searchParams.get('trade') : null;
    return json({ viewerId: user.id, tab, counts, notices, matches, proposals, rateable, confirmAcceptId });
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requirePageUser(request);
  const form = await request.formData().catch(() => null);
  const intent = String(form?.get('intent') ?? '');
  const id = String(form?.get('id') ?? '');
  try {
    if (intent === 'markRead') {
      await markNotificationsRead(user);
      return redirectWithToast('/trades', { title: 'Notifications marked as read', variant: 'success' });
    }
    if (intent === 'accept') {
      const { trade, newlyUnlockedBadges, completedChallenges } = await acceptTrade(user, id);
      return redirectWithToast('/trades?tab=history', {
        title: 'Trade completed!',
        description: `Your collection now has the pins from ${trade.proposer.name}.`,
        variant: 'success',
        more: badgeToasts(newlyUnlockedBadges, completedChallenges),
      });
    }
    if (intent === 'decline') {
      await declineTrade(user, id);
      return redirectWithToast('/trades?tab=incoming', { title: 'Trade declined', variant: 'success' });
    }
    if (intent === 'rate') {
      await rateTrade(user, id, { score: form?.get('score'), comment: form?.get('comment') });
      return redirectWithToast('/trades?tab=history', { title: 'Thanks for rating the trade', variant: 'success' });
    }
    if (intent === 'cancel') {
      await cancelTrade(user, id);
      return redirectWithToast('/trades?tab=outgoing', { title: 'Trade proposal cancelled', variant: 'success' });
    }
  } catch (error) {
    if (!isAppError(error) || error.status >= 500) throw error;
    return redirectWithToast('/trades?tab=history', { title: 'The trade could not be changed', description: error.message, variant: 'destructive' });
  }
  throw json({ message: 'Unknown action' }, { status: 400 });
}

type Loaded = ReturnType<typeof useLoaderData<typeof loader>>;

export default function Trades() {
  const data = useLoaderData<typeof loader>();
  return <TradesPage data={data} />;
}

function TradesPage({ data }: { data: Loaded }) {
  const items = [
    { key: 'matches', label: 'Matches' },
    { key: 'incoming', label: 'Incoming', count: data.counts.incoming },
    { key: 'outgoing', label: 'Outgoing', count: data.counts.outgoing },
    { key: 'history', label: 'History' },
  ];
  const paging = data.matches?.paging ?? data.proposals?.paging;
  return (
    <div className="space-y-6">
      <header>
        <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Trades</h1>
        <p className="mt-1 text-slate-600">Collectors whose trading and wanted lists meet yours, and the trades you propose.</p>
      </header>

      {data.notices.unread > 0 ? (
        <section aria-labelledby="notices-title" className="card border-brand-200 bg-brand-50 p-4">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h2 id="notices-title" className="font-semibold text-brand-900">
              Notifications ({data.notices.unread} unread)
            </h2>
            <Form method="post">
              <Button size="sm" name="intent" value="markRead">
                Mark all as read
              </Button>
            </Form>
          </div>
          <ul className="mt-2 space-y-1 text-sm" data-testid="trade-notifications">
            {data.notices.notifications
              .filter((n) => !n.read)
              .map((n) => (
                <li key={n.id} className="flex flex-wrap gap-x-2">
                  {n.link ? (
                    <Link to={n.link} className="font-medium text-brand-800 hover:underline">
                      {n.message}
                    </Link>
                  ) : (
                    <span className="font-medium">{n.message}</span>
                  )}
                  <span className="text-slate-500">{formatTradeDate(n.createdAt)}</span>
                </li>
              ))}
          </ul>
        </section>
      ) : null}

      <Tabs label="Trade lists" items={items} current={data.tab} />

      {data.matches ? (
        data.matches.matches.length ? (
          <ul className="space-y-4">
            {data.matches.matches.map((m) => (
              <MatchCard key={m.user.id} match={m} />
            ))}
          </ul>
        ) : (
          <EmptyState
            title="No trade matches yet"
            description="Matches appear when another collector trades a pin on your wanted list, or wants a pin on your trading list."
            action={
              <Link to="/collection" className={buttonClass('primary')}>
                Go to My Collection
              </Link>
            }
          />
        )
      ) : null}

      {data.proposals ? (
        data.proposals.proposals.length ? (
          <ul className="space-y-4">
            {data.proposals.proposals.map((p) => (
              <ProposalCard key={p.id} proposal={p} viewerId={data.viewerId} canRate={data.rateable.includes(p.id)} confirmAccept={data.confirmAcceptId === p.id} />
            ))}
          </ul>
        ) : (
          <EmptyState
            title={data.tab === 'incoming' ? 'No trades proposed to you' : data.tab === 'outgoing' ? 'No open proposals' : 'No past trades yet'}
            description={data.tab === 'history' ? 'Completed, declined, cancelled and expired trades are kept here.' : 'Open proposals wait here for 14 days.'}
            action={
              <Link to="/trades" className={buttonClass('secondary')}>
                See your matches
              </Link>
            }
          />
        )
      ) : null}

      {paging ? <Pagination paging={paging} hrefFor={(n) => `/trades?tab=${data.tab}&page=${n}`} /> : null}
    </div>
  );
}
