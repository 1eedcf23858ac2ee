import type { MetaFunction } from '@remix-run/node';
import { Form, Link, useFetcher, useLoaderData, useNavigation, useSubmit } from '@remix-run/react';
import { useEffect, useRef, useState } from 'react';
import { useHydrated } from '~/components/ui/use-hydrated';
import { OrgPicker } from '~/components/org-picker';
import { PinGrid } from '~/components/pin-card';
import { EmptyState } from '~/components/ui/empty-state';
import { BROWSE_SORT_LABELS, BROWSE_SORTS, PIN_PAGE_SIZE } from '~/forms/browse';
import { RARITIES, RARITY_LABELS } from '~/utils/constants';
import { formatCount } from '~/utils/format';
import { isListFiltered, listQueryParams } from '~/utils/list-state';
import { browsePageLoader } from '~/http/browse-page.server';
import '~/root';

export const meta: MetaFunction = () => [{ title: 'Browse Pin Collection · PinDex' }];

export const loader = browsePageLoader;

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>;

/** The filter form's fields, defaults left out (no `rarity=all_rarities`, no empty search). */
function filterParams(form: HTMLFormElement): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of new FormData(form)) {
    if (typeof value !== 'string') continue;
    const v = value.trim();
    if (!v || (key === 'rarity' && v === 'all_rarities') || (key === 'sort' && v === BROWSE_SORTS[0])) continue;
    params.set(key, v);
  }
  return params;
}

function pageHref(query: LoaderData['query'], page: number, asOf: number, single = false) {
  const params = listQueryParams(query, { page });
  if (page > 1) params.set('asOf', String(asOf));
  if (single) params.set('single', '1');
  const s = params.toString();
  return s ? `/browse?${s}` : '/browse';
}

export default function Browse() {
  const data = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const submit = useSubmit();
  const hydrated = useHydrated();
  const formRef = useRef<HTMLFormElement>(null);
  const fetcher = useFetcher<typeof loader>();
  const [extra, setExtra] = useState<{ pins: LoaderData['pins']; page: number; hasMore: boolean } | null>(null);

  // new filters or a new page from the server: start again from what the loader rendered
  useEffect(() => setExtra(null), [data]);
  useEffect(() => {
    const next = fetcher.data;
    if (fetcher.state !== 'idle' || !next || !next.single) return;
    // a page fetched for other filters (or an older list) is not appended to this one
    const sameList = next.asOf === data.asOf && listQueryParams(next.query, { page: 1 }).toString() === listQueryParams(data.query, { page: 1 }).toString();
    if (!sameList) return;
    setExtra((prev) => {
      const lastPage = prev?.page ?? data.page;
      if (next.page !== lastPage + 1) return prev;
      const seen = new Set([...data.pins, ...(prev?.pins ?? [])].map((p) => p.id));
      return { pins: [...(prev?.pins ?? []), ...next.pins.filter((p) => !seen.has(p.id))], page: next.page, hasMore: next.hasMore };
    });
    // keep the URL telling which pages are shown, so a reload or a shared link shows them too
    if (next.page > data.page) window.history.replaceState(window.history.state, '', pageHref(data.query, next.page, data.asOf));
  }, [fetcher.state, fetcher.data, data]);

  const pins = extra ? [...data.pins, ...extra.pins] : data.pins;
  const lastPage = extra?.page ?? data.page;
  const hasMore = extra ? extra.hasMore : data.hasMore;
  const filtersActive = isListFiltered(data.query);
  const loadingList = navigation.state === 'loading' && navigation.location?.pathname === '/browse';
  const loadingMore = fetcher.state !== 'idle';
  const nextHref = pageHref(data.query, lastPage + 1, data.asOf);
  const shownFrom = data.offset + 1;
  const shownTo = data.offset + pins.length;
  const chosenYear = data.query.filters.year ? Number(data.query.filters.year) : null;
  const yearOptions = data.years && chosenYear && !data.years.includes(chosenYear) ? [chosenYear, ...data.years] : (data.years ?? []);

  return (
    <div className="space-y-6">
      <header>
        <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Browse Pin Collection</h1>
        <p className="mt-1 text-slate-600">Explore our extensive database of collectible pins with detailed rarity information.</p>
      </header>

      <Form
        ref={formRef}
        method="get"
        action="/browse"
        role="search"
        className="card grid grid-cols-2 gap-3 p-4 sm:gap-4 lg:grid-cols-[2fr_1fr_1fr_1.2fr_1.5fr_auto] lg:items-end"
        onSubmit={(e) => {
          // the short URL at once (the server would redirect a long one to it)
          e.preventDefault();
          submit(filterParams(e.currentTarget), { method: 'get', action: '/browse' });
        }}
      >
        <div className="col-span-2 lg:col-span-1">
          <label htmlFor="browse-q" className="label">
            Search
          </label>
          <input
            id="browse-q"
            type="search"
            name="q"
            defaultValue={data.query.q}
            key={data.query.q}
            maxLength={200}
            placeholder="Search pins by name, organization, or category..."
            className="input"
          />
        </div>
        <div>
          <label htmlFor="browse-rarity" className="label">
            Rarity
          </label>
          <select
            id="browse-rarity"
            name="rarity"
            defaultValue={data.query.filters.rarity ?? 'all_rarities'}
            key={data.query.filters.rarity}
            className="input"
            onChange={(e) => e.currentTarget.form?.requestSubmit()}
          >
            <option value="all_rarities">All Rarities</option>
            {[...RARITIES].reverse().map((r) => (
              <option key={r} value={r}>
                {RARITY_LABELS[r]}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="browse-year" className="label">
            Year
          </label>
          <select
            id="browse-year"
            name="year"
            defaultValue={data.query.filters.year ?? ''}
            key={data.query.filters.year}
            className="input"
            onChange={(e) => e.currentTarget.form?.requestSubmit()}
          >
            <option value="">All Years</option>
            {yearOptions.map((y) => (
              <option key={y} value={y}>
                {y}
              </option>
            ))}
          </select>
        </div>
        <div className="col-span-2 sm:col-span-1">
          <label htmlFor="browse-sort" className="label">
            Sort by
          </label>
          <select
            id="browse-sort"
            name="sort"
            defaultValue={data.query.sort}
            key={data.query.sort}
            className="input"
            onChange={(e) => e.currentTarget.form?.requestSubmit()}
          >
            {BROWSE_SORTS.map((sort) => (
              <option key={sort} value={sort}>
                {sort === 'newest' && data.query.q ? 'Best match' : BROWSE_SORT_LABELS[sort]}
              </option>
            ))}
          </select>
        </div>
        <div className="col-span-2 sm:col-span-1">
          <OrgPicker
            key={data.query.filters.organizationId}
            organizations={data.organizations ?? undefined}
            value={data.query.filters.organizationId ?? ''}
            onChange={() => {
              // the hidden input updates on the next render; submit after it
              setTimeout(() => formRef.current?.requestSubmit(), 0);
            }}
          />
        </div>
        <div className="col-span-2 flex gap-2 lg:col-span-1">
          <button type="submit" className="btn-primary">
            Search
          </button>
          {filtersActive || data.query.sort !== data.query.defaults.sort ? (
            <Link to="/browse" className="btn-secondary">
              Clear
            </Link>
          ) : null}
        </div>
      </Form>

      <div aria-live="polite" className="min-h-[1.25rem] text-sm text-slate-600">
        {loadingList ? (
          <span>Loading pins...</span>
        ) : data.total > 0 ? (
          <span>
            Showing {formatCount(shownFrom)}–{formatCount(shownTo)} of {formatCount(data.total)}
            {data.totalCapped ? '+' : ''} pins
          </span>
        ) : null}
      </div>

      {data.firstPage > 1 ? (
        <Link to={pageHref(data.query, data.firstPage - 1, data.asOf)} className="btn-secondary">
          Previous pins
        </Link>
      ) : null}

      {pins.length === 0 ? (
        <EmptyState title="No pins found" description={filtersActive ? 'Try adjusting your search or filters' : 'No pins have been added to the database yet.'} />
      ) : (
        <div className={loadingList ? 'opacity-60 transition-opacity' : undefined}>
          <PinGrid
            pins={pins}
            // the first row on a phone; the first card's image is the page's largest (its LCP)
            eagerCount={2}
            priorityFirst
            idFor={(i) => (i > 0 && i % PIN_PAGE_SIZE === 0 ? `page-${data.firstPage + i / PIN_PAGE_SIZE}` : undefined)}
          />
        </div>
      )}

      {hasMore ? (
        <div className="flex justify-center">
          <Link
            to={nextHref}
            preventScrollReset
            className="btn-secondary"
            aria-disabled={loadingMore}
            onClick={(e) => {
              if (!hydrated) return;
              e.preventDefault();
              if (!loadingMore) fetcher.load(pageHref(data.query, lastPage + 1, data.asOf, true));
            }}
          >
            {loadingMore ? 'Loading pins...' : 'Load More Pins'}
          </Link>
        </div>
      ) : null}
    </div>
  );
}
