/**
 * Browse's list: a page of pins with the cards' likes and comments, the same for everyone who asks
 * for the same page, signed in or not. Each page asked for (its filters, order, offset and moment)
 * is kept until anything is written to the database (`cachedUntilWriteBy`), the last 200 of them:
 * a page rendered afresh (a signed-in collector's, or a visitor's after a write) reads one change
 * stamp instead of the list's queries when someone asked for the same page since the last write.
 * The values are shared between requests: callers must not change them.
 */
import { cachedUntilWriteBy } from '~/db/index.server';
import { communityCountsOf, type PinCommunityCounts } from './community.server';
import { listPins, type PinListFilters, type PinListResult } from './pins.server';

export interface BrowseList extends PinListResult {
  /** likes and comments of the page's pins (pins with neither are left out) */
  community: Map<string, PinCommunityCounts>;
}

/** The pages kept until the next write. */
const KEPT_PAGES = 200;

/** Every filter, whatever it is (a date as its ISO string): a field added later keeps pages apart too. */
const keyOf = (filters: PinListFilters) => JSON.stringify(filters);

const kept = cachedUntilWriteBy(keyOf, async (filters: PinListFilters): Promise<BrowseList> => {
  const list = await listPins(filters);
  return { ...list, community: await communityCountsOf(list.pins.map((p) => p.id)) };
}, KEPT_PAGES);

/** A page of browse's list (`listPins`) with the cards' likes and comments, kept until the next write. */
export function browseList(filters: PinListFilters): Promise<BrowseList> {
  return kept(filters);
}
