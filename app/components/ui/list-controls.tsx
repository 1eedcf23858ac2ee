/**
 * A list's controls: its search form and its page links. One module, as the pages with a search
 * (the admin tables, the marketplace) also page: one file less for each of them to load, while the
 * pages that only page (vendor, orders, trades, audit logs) load the search's 0.5 KB too
 * (docs/speed.md, "Front end").
 */
import { Form, Link, useLocation, useSubmit } from '@remix-run/react';
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { formatCount } from '~/utils/format';
import { listQueryHref, listQueryParams, type ListQueryState } from '~/utils/list-state';
import type { Paging } from '~/utils/paging';
import { Button } from './button';
import { HiddenFields } from './hidden-fields';

export interface ListSearchProps {
  /** the list's state: the search starts from it and keeps its sort, size and other filters */
  query: ListQueryState;
  label?: string;
  placeholder?: string;
  /** how long typing pauses before the list is searched (spec §2: 300 ms; teams 500 ms) */
  debounceMs?: number;
  /** filter controls inside the same form (e.g. a role <select>) */
  children?: ReactNode;
  /** the names of those controls, so the state they hold is not also sent hidden */
  controls?: string[];
  /** the list's path (default: this page's) */
  pathname?: string;
  className?: string;
}

/**
 * The search box of a list page: a GET form, so searching works without JavaScript (the Search
 * button); with it, the list is searched as the reader types, once typing pauses. A new search
 * starts at page 1 and keeps the sort, the page size and the filters not in the form.
 */
export function ListSearch({ query, label = 'Search', placeholder, debounceMs = 300, children, controls = [], pathname: listPath, className }: ListSearchProps) {
  const location = useLocation();
  const submit = useSubmit();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const pathname = listPath ?? location.pathname;

  const kept = listQueryParams(query, { page: 1 });
  for (const name of ['q', 'page', ...controls]) kept.delete(name);

  // the list moved on without this box (a Clear link, Back): show its search, unless the reader is typing
  useEffect(() => {
    if (input.current && document.activeElement !== input.current) input.current.value = query.q;
  }, [query.q]);
  useEffect(() => () => clearTimeout(timer.current), []);

  return (
    <Form method="get" action={pathname} role="search" className={className ?? 'flex flex-wrap items-end gap-3'}>
      <div className="min-w-0 flex-1 basis-48">
        <label htmlFor={id} className="label">
          {label}
        </label>
        <input
          ref={input}
          id={id}
          type="search"
          name="q"
          defaultValue={query.q}
          placeholder={placeholder}
          maxLength={200}
          className="input"
          onChange={(event) => {
            const form = event.currentTarget.form;
            clearTimeout(timer.current);
            // each pause replaces the last search in history, so Back leaves the list
            timer.current = setTimeout(() => form && submit(form, { replace: true, preventScrollReset: true }), debounceMs);
          }}
        />
      </div>
      {children}
      <HiddenFields fields={kept} />
      <Button variant="primary">Search</Button>
    </Form>
  );
}

export type PaginationProps = {
  paging: Paging;
  /** names the navigation (default 'Pagination'); name each when a page has two */
  label?: string;
  className?: string;
} & (
  | { /** the list's state: links keep it and change the page */ query: ListQueryState; pathname?: string; hrefFor?: never }
  | { /** the link to a page, for a list whose URL is not a list query */ hrefFor: (page: number) => string; query?: never; pathname?: never }
);

const ITEM = 'inline-flex h-9 min-w-[2.25rem] items-center justify-center rounded-md px-2 text-sm font-semibold';
const LINK = `${ITEM} border border-slate-300 bg-white text-slate-800 hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500`;
const CURRENT = `${ITEM} border border-brand-600 bg-brand-600 text-white focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2`;
const DISABLED = `${ITEM} border border-slate-200 text-slate-300`;

/**
 * Links to the pages of a list: first, previous, up to 5 numbered pages around the current one,
 * next, last, and "Page X of Y". Plain links, so paging works without JavaScript. Nothing is shown
 * for a list of one page.
 */
export function Pagination(props: PaginationProps) {
  const location = useLocation();
  const { paging, label = 'Pagination', className } = props;
  if (paging.pageCount <= 1) return null;
  const pathname = props.pathname ?? location.pathname;
  const query = props.query;
  const hrefFor = props.hrefFor ?? ((page: number) => (query ? listQueryHref(pathname, query, { page }) : `${pathname}?page=${page}`));

  const step = (page: number | null, text: ReactNode, name: string, rel?: string) =>
    page === null || page === paging.page ? (
      <span className={DISABLED} aria-disabled="true" aria-label={name}>
        {text}
      </span>
    ) : (
      <Link to={hrefFor(page)} className={LINK} aria-label={name} rel={rel}>
        {text}
      </Link>
    );

  return (
    <nav aria-label={label} className={`flex flex-wrap items-center justify-between gap-3 ${className ?? ''}`}>
      <p className="text-sm text-slate-600">
        Page {formatCount(paging.page)} of {formatCount(paging.pageCount)}
      </p>
      <ul className="flex flex-wrap items-center gap-1">
        <li>{step(paging.first, '«', 'First page')}</li>
        <li>{step(paging.prev, '‹', 'Previous page', 'prev')}</li>
        {paging.pages.map((page) => (
          <li key={page}>
            <Link
              to={hrefFor(page)}
              className={page === paging.page ? CURRENT : LINK}
              aria-label={`Page ${page}`}
              aria-current={page === paging.page ? 'page' : undefined}
            >
              {formatCount(page)}
            </Link>
          </li>
        ))}
        <li>{step(paging.next, '›', 'Next page', 'next')}</li>
        <li>{step(paging.last, '»', 'Last page')}</li>
      </ul>
    </nav>
  );
}
