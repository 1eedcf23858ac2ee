/**
 * Browse's list: its page size and orders. No zod here: the browse page loads this module, and
 * its schema (`browseQuerySchema`, ~/forms/pins) is read on the server only.
 */

/** Cards on one page of browse (and on each 'Load More'). */
export const PIN_PAGE_SIZE = 24;

/** Browse's orders: newest first (the default), A to Z, newest year, highest value, rarest first. */
export const BROWSE_SORTS = ['newest', 'name', 'year', 'value', 'rarity'] as const;
export type BrowseSort = (typeof BROWSE_SORTS)[number];
export const BROWSE_SORT_LABELS: Record<BrowseSort, string> = {
  newest: 'Newest',
  name: 'Name (A-Z)',
  year: 'Year (newest first)',
  value: 'Value (highest first)',
  rarity: 'Rarity (rarest first)',
};

