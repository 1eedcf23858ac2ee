import { Link, useLocation } from '@remix-run/react';
import type { ReactNode } from 'react';
import { formatCount } from '~/utils/format';
import { listQueryHref, type ListQueryState } from '~/utils/list-state';
import type { Paging } from '~/utils/paging';

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
