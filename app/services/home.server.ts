/**
 * The home page's lists: the tab's four pins, the six latest identifications, the tab counts and
 * the cards' likes and comments. They are the same for every visitor, signed in or not, and change
 * only when the database does: each tab's are kept until anything is written to it
 * (`cachedUntilWrite`), so a page rendered afresh (a signed-in user's) reads one change stamp
 * instead of five queries. The values are shared between requests: callers must not change them.
 */
import { cachedUntilWrite } from '~/db/index.server';
import { communityCountsOf, type PinCommunityCounts } from './community.server';
import { recentIdentifications, type RecentIdentification } from './feed.server';
import type { PinDto } from './pin-dto.server';
import { highestValuePins, homeTabCounts, newestPins, rarestPins } from './pins.server';

export type HomeTab = 'newest' | 'rarest' | 'value';

export interface HomeLists {
  counts: { newest: number; rarest: number; value: number };
  pins: PinDto[];
  recent: RecentIdentification[];
  /** likes and comments of every card above (pins with neither are left out) */
  community: Map<string, PinCommunityCounts>;
}

async function load(tab: HomeTab): Promise<HomeLists> {
  const [counts, pins, recent] = await Promise.all([
    homeTabCounts(),
    tab === 'rarest' ? rarestPins(4, { ultraRareOnly: true }) : tab === 'value' ? highestValuePins(4) : newestPins(4),
    recentIdentifications(6),
  ]);
  // one query for the likes and comments of every card on the page
  const community = await communityCountsOf([...pins.map((p) => p.id), ...recent.map((r) => r.pin.id)]);
  return { counts, pins, recent, community };
}

const byTab: Record<HomeTab, () => Promise<HomeLists>> = {
  newest: cachedUntilWrite(() => load('newest')),
  rarest: cachedUntilWrite(() => load('rarest')),
  value: cachedUntilWrite(() => load('value')),
};

/** The home page's lists for `tab`, kept until the database is written to. */
export function homeLists(tab: HomeTab): Promise<HomeLists> {
  return byTab[tab]();
}
