/**
 * The browse.tsx route's loader (the route module re-exports them). They live here, not in
 * the route module, so that the page's browser bundle reaches none of the modules they import (the
 * services, and zod and the form library for the action): in the browser this file is one empty module.
 */
import type { LoaderFunctionArgs } from '@remix-run/node';
import { json, redirect } from '@remix-run/node';
import { toCardData } from '~/components/pin-card';
import { PIN_PAGE_SIZE } from '~/forms/browse';
import { browseList } from '~/services/browse.server';
import { listOrganizations } from '~/services/organizations.server';
import { listPinYears } from '~/services/pins.server';
import { listQueryParams } from '~/utils/list-state';
import { readBrowseQuery, type BrowseQuery } from '~/http/browse-query.server';
import { page as pageGuard } from '~/http/page.server';


/**
 * Paging: `?page=N` renders page N alone (24 cards), with a 'Previous pins' link above and 'Load
 * More Pins' (the next page) below: without JavaScript each is a page of its own, so a deep page
 * costs what the first does. With JavaScript, 'Load More Pins' fetches `?page=N+1&single=1` from
 * this same loader and appends just that page in place. The count stops at COUNT_UP_TO ("1,000+").
 */
const COUNT_UP_TO = 1000;

export async function browsePageLoader({ request }: LoaderFunctionArgs) {
  return pageGuard(async () => {
    const url = new URL(request.url);
    const query = readBrowseQuery(url);
    // The filter form sends every field, defaults too (rarity=all_rarities, an empty search): the
    // URL is brought to its short form, which a reader can share and bookmark.
    const canonical = canonicalSearch(query, url.searchParams);
    if (canonical !== null) throw redirect(canonical ? `/browse?${canonical}` : '/browse');
    const page = query.page;
    const single = url.searchParams.get('single') === '1';
    // the moment the list was first shown: later pages leave out pins added since, so offsets
    // do not shift and no card repeats or goes missing while others add pins
    const asOfParam = Number(url.searchParams.get('asOf'));
    const asOf = Number.isSafeInteger(asOfParam) && asOfParam > 0 ? asOfParam : Date.now();
    const firstPage = page;
    const [result, organizations, years] = await Promise.all([
      browseList({
        search: query.q || undefined,
        rarity: query.filters.rarity,
        organizationId: query.filters.organizationId,
        year: query.filters.year ? Number(query.filters.year) : null,
        sort: query.sort,
        dir: query.dir,
        // page 1 is 'now' anyway; later pages hold to the moment the list was first shown
        createdUpTo: url.searchParams.has('asOf') ? new Date(asOf) : null,
        limit: PIN_PAGE_SIZE,
        offset: (page - 1) * PIN_PAGE_SIZE,
        countUpTo: COUNT_UP_TO,
      }),
      single ? Promise.resolve(null) : listOrganizations(),
      single ? Promise.resolve(null) : listPinYears(),
    ]);
    return json({
      pins: result.pins.map((p) => toCardData({ ...p, ...result.community.get(p.id) })),
      total: result.total,
      totalCapped: result.totalCapped,
      offset: result.offset,
      hasMore: result.hasMore,
      page,
      firstPage,
      asOf,
      single,
      query,
      organizations: organizations?.map((o) => ({ id: o.id, name: o.name, description: o.description })) ?? null,
      years,
    });
  });
}

/** The short form of the URL's query when it differs from what was asked (null when it is already short). */
function canonicalSearch(query: BrowseQuery, params: URLSearchParams): string | null {
  const next = listQueryParams(query);
  for (const key of ['asOf', 'single']) {
    const value = params.get(key);
    if (value) next.set(key, value);
  }
  const sorted = (p: URLSearchParams) => [...p.entries()].map(([k, v]) => `${k}=${v}`).sort().join('&');
  return sorted(next) === sorted(params) ? null : next.toString();
}
